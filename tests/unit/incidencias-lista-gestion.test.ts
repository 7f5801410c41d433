import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { construirCups } from '../../src/lib/cups.ts';
import {
  consultaDeFiltrosIncidencias,
  distribuidorasAdministradas,
  entradaDesdeIncidencia,
  entradaDesdeFormulario,
  erroresCups,
  FILTROS_INCIDENCIAS_VACIOS,
  filtrosIncidenciasDesdeConsulta,
  formularioDesdeIncidencia,
  formularioVacio,
  listaCups,
  resumenAfectados,
  separarLista,
  textoFin,
  urlIncidencias,
  validarFormularioIncidencia,
  type IncidenciaAdmin,
} from '../../src/lib/incidencias/lista-gestion.ts';

const cupsEpd = construirCups('9901', 123);
const cupsEod = construirCups('9902', 456);

describe('incidents list filters', () => {
  it('accepts the closed state, which the public list never shows', () => {
    expect(filtrosIncidenciasDesdeConsulta('estado=Cerrada&distribuidora=eod')).toMatchObject({ estado: 'Cerrada', distribuidora: 'eod' });
    expect(filtrosIncidenciasDesdeConsulta('estado=En%20curso').estado).toBe('En curso');
    expect(filtrosIncidenciasDesdeConsulta('estado=Borrada').estado).toBe('');
  });

  it('reads back what it writes and sends everything to the API', () => {
    const f = { ...FILTROS_INCIDENCIAS_VACIOS, estado: 'En curso' as const, q: 'Soria', pagina: 2 };
    expect(filtrosIncidenciasDesdeConsulta(consultaDeFiltrosIncidencias(f))).toEqual(f);
    expect(urlIncidencias(FILTROS_INCIDENCIAS_VACIOS)).toBe('/api/administrador/incidencias?pagina=1&porPagina=25');
  });
});

describe('incident form', () => {
  it('splits typed lists on commas, spaces and lines, without repeats', () => {
    expect(separarLista(' 28001, 28002;28001\n 28003 ')).toEqual(['28001', '28002', '28003']);
    expect(listaCups(`${cupsEpd.toLowerCase()}\n${cupsEpd}, ${cupsEod}`)).toEqual([cupsEpd, cupsEod]);
  });

  it('builds the API body with Madrid times as UTC ISO', () => {
    const f = {
      ...formularioVacio('epd'),
      descripcion: '  Sustitución de transformador  ',
      municipio: 'Soria',
      codigoIne: '42173',
      provincia: 'Soria',
      codigosPostales: '42001, 42002',
      cups: cupsEpd,
      clientesAfectados: '120',
      inicio: '2025-07-01T08:00',
      finPrevisto: '2025-07-01T14:30',
    };
    expect(entradaDesdeFormulario(f)).toEqual({
      distribuidora: 'epd',
      estado: 'Programada',
      descripcion: 'Sustitución de transformador',
      municipio: 'Soria',
      codigoIne: '42173',
      provincia: 'Soria',
      codigosPostales: ['42001', '42002'],
      cups: [cupsEpd],
      clientesAfectados: 120,
      inicio: '2025-07-01T06:00:00.000Z',
      finPrevisto: '2025-07-01T12:30:00.000Z',
    });
  });

  it('sends empty optional fields as null and passes bad text on for the schema to reject', () => {
    const e = entradaDesdeFormulario({ ...formularioVacio(), clientesAfectados: 'muchos', inicio: 'ayer' });
    expect(e['finPrevisto']).toBeNull();
    expect(e['clientesAfectados']).toBe('muchos');
    expect(e['inicio']).toBe('ayer');
    expect(entradaDesdeFormulario(formularioVacio())['clientesAfectados']).toBeNull();
  });

  it('fills the form from an incident in Madrid time', () => {
    const i: IncidenciaAdmin = {
      id: '1',
      distribuidora: 'eod',
      estado: 'En curso',
      descripcion: 'Avería',
      municipio: 'Cáceres',
      codigoIne: '10037',
      provincia: 'Cáceres',
      codigosPostales: ['10001', '10002'],
      cups: [cupsEod],
      clientesAfectados: null,
      inicio: '2025-01-10T09:00:00Z',
      finPrevisto: null,
      fin: null,
      creado: '2025-01-10T09:00:00Z',
      actualizado: '2025-01-10T09:00:00Z',
    };
    expect(formularioDesdeIncidencia(i)).toMatchObject({
      codigosPostales: '10001, 10002',
      cups: cupsEod,
      clientesAfectados: '',
      inicio: '2025-01-10T10:00',
      finPrevisto: '',
    });
  });

  it('gives one message per wrong CUPS: check letters, or another distributor', () => {
    const malo = cupsEpd.slice(0, 18) + (cupsEpd.slice(18) === 'AA' ? 'BB' : 'AA');
    const errores = erroresCups(`${cupsEpd}, ${malo}, ${cupsEod}`, 'epd');
    expect(errores).toHaveLength(2);
    expect(errores[0]).toMatch(new RegExp(`^${malo}: Las dos letras de control`));
    expect(errores[1]).toBe(`${cupsEod}: no pertenece a esta distribuidora (sus CUPS empiezan por ES9901).`);
    expect(erroresCups('', 'epd')).toEqual([]);
  });
});

describe('incident changes and checks', () => {
  const base: IncidenciaAdmin = {
    id: '9',
    distribuidora: 'epd',
    estado: 'Programada',
    descripcion: 'Mantenimiento',
    municipio: 'Soria',
    codigoIne: '42173',
    provincia: 'Soria',
    codigosPostales: ['42001'],
    cups: [],
    clientesAfectados: 10,
    inicio: '2025-07-01T06:00:00.000Z',
    finPrevisto: null,
    fin: null,
    creado: '2025-06-01T06:00:00.000Z',
    actualizado: '2025-06-01T06:00:00.000Z',
  };

  it('keeps an incident as it is except for the change of state', () => {
    // What the form edits: everything but the id, the end and the record's dates.
    const { id: _id, fin: _fin, creado: _creado, actualizado: _actualizado, ...editable } = base;
    expect(entradaDesdeIncidencia(base, { estado: 'Activa' })).toEqual({ ...editable, estado: 'Activa' });
  });

  it('lists the distributors a user administers', () => {
    expect(distribuidorasAdministradas(['ecd-administrador', 'epd-contacto', 'epd-administrador'])).toEqual(['epd', 'ecd']);
    expect(distribuidorasAdministradas([])).toEqual([]);
  });

  // A schema with the shape of the shared one: enough to see how its messages reach the fields.
  const esquema = z.object({
    distribuidora: z.enum(['epd', 'eod', 'ecd'], { message: 'Elija la distribuidora.' }),
    descripcion: z.string().min(1, 'Describa la incidencia.'),
    codigoIne: z.string().regex(/^\d{5}$/, 'El código INE tiene cinco cifras.'),
    inicio: z.iso.datetime(),
  });

  it('collects its own checks, the schema messages by field and one message per wrong CUPS', () => {
    const r = validarFormularioIncidencia(
      { ...formularioVacio('eod'), codigoIne: '123', inicio: '2025-02-30T10:00', cups: `${cupsEpd}\nES0000` },
      esquema,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errores).toEqual({
      descripcion: 'Describa la incidencia.',
      codigoIne: 'El código INE tiene cinco cifras.',
      inicio: 'La fecha y hora de inicio no es válida.',
      cups: '2 CUPS de la lista no son válidos.',
    });
    expect(r.erroresCups).toHaveLength(2);
    expect(r.generales).toEqual([]);
  });

  it('answers the parsed body when everything is right', () => {
    const r = validarFormularioIncidencia(
      { ...formularioVacio('epd'), descripcion: 'Avería', codigoIne: '42173', inicio: '2025-01-15T10:30' },
      esquema,
    );
    expect(r).toEqual({
      ok: true,
      entrada: { distribuidora: 'epd', descripcion: 'Avería', codigoIne: '42173', inicio: '2025-01-15T09:30:00.000Z' },
    });
  });

  it('asks for the distributor and start when missing', () => {
    const r = validarFormularioIncidencia(formularioVacio(), esquema);
    expect(!r.ok && r.errores.distribuidora).toBe('Elija la distribuidora.');
    expect(!r.ok && r.errores.inicio).toBe('Indique la fecha y hora de inicio.');
  });
});

describe('incident row texts', () => {
  it('tells the end: real, expected or none', () => {
    expect(textoFin({ fin: '2025-01-10T12:00:00Z', finPrevisto: '2025-01-10T10:00:00Z' })).toMatch(/^Fin: 10 ene 2025, 13:00$/);
    expect(textoFin({ fin: null, finPrevisto: '2025-07-10T10:00:00Z' })).toMatch(/^Fin previsto: 10 jul 2025, 12:00$/);
    expect(textoFin({ fin: null, finPrevisto: null })).toBe('Sin fin previsto');
  });

  it('sums up whom it affects, with at most three postal codes', () => {
    expect(
      resumenAfectados({ clientesAfectados: 12000, codigosPostales: ['28001', '28002', '28003', '28004', '28005'], cups: ['a', 'b'] }),
    ).toBe('12.000 clientes · CP 28001, 28002, 28003 y 2 más · 2 CUPS');
    expect(resumenAfectados({ clientesAfectados: 1, codigosPostales: [], cups: [] })).toBe('1 cliente');
    expect(resumenAfectados({ clientesAfectados: null, codigosPostales: [], cups: [] })).toBe('—');
  });
});
