/**
 * The meter states file of `npm run import -- contadores`: a good file read whole, and
 * every fault of every line named with its physical line number.
 */
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { leerCsvContadores } from '../../src/server/lecturas/csv.ts';

const ahora = new Date('2026-11-15T10:00:00Z');
const a = construirCups('9901', 1);
const b = construirCups('9902', 2);
const c = construirCups('9903', 3);

describe('leerCsvContadores', () => {
  it('reads every line of a good file, with times with zone, peninsular or none', () => {
    const texto = [
      'CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo',
      `${a};S;2026-11-15T09:15:00+01:00;cerrado;con_suministro;`,
      `${b};no;2026-10-28 18:40;Cerrado;con_suministro`,
      `${c};S;;abierto_remoto;cortado;"Corte por impago; lo pidió la comercializadora"`,
    ].join('\r\n');
    const { filas, errores } = leerCsvContadores(texto, ahora);
    expect(errores).toEqual([]);
    expect(
      filas.map((f) => [
        f.linea,
        f.cups,
        f.comunica,
        f.ultimaComunicacion?.toISOString() ?? null,
        f.interruptor,
        f.estadoSuministro,
        f.motivo,
      ]),
    ).toEqual([
      [2, a, true, '2026-11-15T08:15:00.000Z', 'cerrado', 'con_suministro', null],
      [3, b, false, '2026-10-28T17:40:00.000Z', 'cerrado', 'con_suministro', null],
      [4, c, true, ahora.toISOString(), 'abierto_remoto', 'cortado', 'Corte por impago; lo pidió la comercializadora'],
    ]);
  });

  it('accepts the columns in any order, named without caring for case or accents, in ISO-8859-15', () => {
    const texto = `Motivo;ESTADO SUMINISTRO;Interruptor;Última comunicación;Comunica;cups\n;con_suministro;cerrado;;N;${a}\n`;
    const bytes = Uint8Array.from([...texto].map((ch) => ch.charCodeAt(0)));
    const { filas, errores } = leerCsvContadores(bytes, ahora);
    expect(errores).toEqual([]);
    expect(filas[0]).toMatchObject({ cups: a, comunica: false, ultimaComunicacion: null });
  });

  it('reads a 22-character CUPS (with its border point) as its supply point, and the same point twice as a repeat', () => {
    const texto = [
      'CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo',
      `${a}0F;S;;cerrado;con_suministro;`,
      `${a};S;;cerrado;con_suministro;`,
    ].join('\n');
    const { filas, errores } = leerCsvContadores(texto, ahora);
    expect(filas.map((f) => f.cups)).toEqual([a]);
    expect(errores.map((e) => e.line)).toEqual([3]);
  });

  it('names each faulty line and every fault in it', () => {
    const texto = [
      'CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo',
      `${a};S;;cerrado;con_suministro;`,
      `ES9901000000000001XX;quizá;2026-11-15 10:00;cerrado;con_suministro;`,
      `${b};S;2027-01-01T00:00:00Z;abierto;sin_suministro;`,
      `${a};S;;cerrado;con_suministro;`,
      `${c};S;;cerrado;con_suministro;;sobra`,
    ].join('\n');
    const { errores } = leerCsvContadores(texto, ahora);
    expect(errores.map((e) => e.line)).toEqual([3, 3, 4, 4, 5, 6]);
    expect(errores[0]!.message).toContain('ES9901000000000001XX');
    expect(errores[1]!.message).toBe('comunica debe ser S o N, no «quizá».');
    expect(errores.filter((e) => e.line === 4).map((e) => e.message)).toEqual([
      'El interruptor debe ser cerrado, abierto_exceso, abierto_remoto o sin_elemento.',
      'La última comunicación no puede ser posterior a este momento.',
    ]);
    expect(errores[4]!.message).toBe(`El CUPS ${a} ya aparece en la línea 2: deje una sola línea por suministro.`);
    expect(errores[5]!.message).toMatch(/^La línea tiene 7 campos y la cabecera 6/);
  });

  it('refuses a header that misses or misnames columns, and an empty file', () => {
    expect(leerCsvContadores('CUPS;comunica;interruptor;estado;motivo\n', ahora).errores).toEqual([
      {
        line: 1,
        message:
          'La cabecera no es válida: faltan las columnas ultima_comunicacion, estado_suministro y sobran las columnas «estado». Debe ser CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo (separada por «;»).',
      },
    ]);
    expect(leerCsvContadores('\n\n', ahora).errores[0]!.message).toMatch(/^El fichero está vacío/);
  });

  it('refuses an hour that the spring clock change skips', () => {
    const texto = `CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo\n${a};S;2026-03-29 02:30;cerrado;con_suministro;\n`;
    expect(leerCsvContadores(texto, ahora).errores[0]!.message).toMatch(/se salta/);
  });
});
