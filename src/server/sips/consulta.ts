/**
 * The SIPS query by CUPS (docs/sector.md §3.1: the CNMC's own API answers a list of CUPS with their
 * PS and consumption rows): up to 1,000 CUPS of one distributor, answered with the very lines the
 * monthly files carry, and each CUPS that cannot be answered listed with its reason, by the line
 * it was pasted on.
 */
import { analizarCups, MENSAJES_CUPS, normalizarCups } from '../../lib/cups.ts';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import type { TipoFicheroSips, VersionSips } from '../../lib/sips/columnas.ts';
import { queryRows, type Db } from '../db/client.ts';
import { consultaConsumos, consultaPs, type FormaFila } from './consultas.ts';
import { primerDiaDelMes } from './ficheros.ts';

/** CUPS a query takes at most. */
export const MAX_CUPS_CONSULTA = 1000;

/** A CUPS that was not answered: the line it came on (from 1), what was written and why. */
export interface CupsRechazado {
  linea: number;
  cups: string;
  motivo: string;
}

/** A query's answer: the CUPS answered, the rows asked for (CSV lines without header, or JSON arrays), the CUPS not answered. */
export interface ResultadoConsulta {
  cups: string[];
  lineas: string[];
  rechazados: CupsRechazado[];
}

/**
 * Answers a list of CUPS of one distributor with the rows of one kind of file in a layout. Blank
 * lines are skipped; a CUPS repeated is answered once. The consumption rows are those of the file
 * of the current month: the 24 complete months before it. A CUPS is answered when the distributor
 * has it in force, whether or not it has consumption rows.
 */
export async function consultarSips(
  db: Db,
  distribuidora: string,
  entradas: readonly string[],
  consulta: { version: VersionSips; tipo: TipoFicheroSips; forma: FormaFila },
  ahora: Date,
): Promise<ResultadoConsulta> {
  const dist = DISTRIBUIDORAS.find((d) => d.codigo === distribuidora)!;
  const rechazados: CupsRechazado[] = [];
  // By the supply point's 20-character key, with the line and the form the list wrote it in (20 or 22).
  const validos = new Map<string, { linea: number; escrito: string }>();
  entradas.forEach((texto, i) => {
    if (normalizarCups(texto) === '') return;
    const leido = analizarCups(texto);
    if ('error' in leido) rechazados.push({ linea: i + 1, cups: texto.trim(), motivo: MENSAJES_CUPS[leido.error] });
    else if (!leido.cups.clave.startsWith(dist.prefijoCups)) {
      rechazados.push({
        linea: i + 1,
        cups: leido.cups.escrito,
        motivo: `Es un CUPS de otra distribuidora: los de ${dist.nombre} empiezan por ${dist.prefijoCups}.`,
      });
    } else if (!validos.has(leido.cups.clave)) validos.set(leido.cups.clave, { linea: i + 1, escrito: leido.cups.escrito });
  });
  const lista = [...validos.keys()];
  if (lista.length === 0) return { cups: [], lineas: [], rechazados };
  const ambito = { distribuidora, cups: lista };
  const filasPs = await queryRows<{ cups: string; linea: string }>(db, consultaPs(consulta.version, ambito, consulta.forma));
  const lineas =
    consulta.tipo === 'PS_ELECTRICIDAD'
      ? filasPs.map((r) => r.linea)
      : (
          await queryRows<{ linea: string }>(
            db,
            consultaConsumos(consulta.version, { distribuidora, cups: filasPs.map((r) => r.cups) }, primerDiaDelMes(ahora), consulta.forma),
          )
        ).map((r) => r.linea);
  const encontrados = new Set(filasPs.map((r) => r.cups));
  for (const [cups, { linea, escrito }] of validos) {
    if (!encontrados.has(cups))
      rechazados.push({ linea, cups: escrito, motivo: `${dist.nombre} no tiene ningún suministro en vigor con este CUPS.` });
  }
  rechazados.sort((a, b) => a.linea - b.linea);
  // Each CUPS answered in the form the list wrote it.
  return { cups: lista.filter((c) => encontrados.has(c)).map((c) => validos.get(c)!.escrito), lineas, rechazados };
}
