/**
 * Loading a distributor's supply-point register from its SIPS2026 PS_ELECTRICIDAD file
 * (docs/sector.md §3.3; docs/decisions/016). Two passes over the file, both streamed:
 *
 * 1. `comprobarRegistroSips` reads it and lists every faulty line (line, column, reason) without
 *    touching the database; a file with any fault is not loaded at all.
 * 2. `importarRegistroSips` reads it again inside one transaction: rows go in batches to a
 *    temporary table, repeated CUPS are found there, and one statement creates or updates the
 *    supply points. A row equal to what the register holds is not written, so loading the same
 *    file again changes nothing. The holders' `-distribucion` permissions follow, as for every load.
 *
 * Memory stays flat whatever the file's size: the reader holds a chunk and the writer one batch.
 */
import { sql } from 'drizzle-orm';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { PS_SIPS2026 } from '../../lib/sips/columnas.ts';
import { queryRows, type Db } from '../db/client.ts';
import type { FuenteFichero } from '../ficheros/comprimidos.ts';
import { ErrorFichero } from '../ficheros/errores.ts';
import { sincronizarPermisosDistribucion } from '../suministros/service.ts';
import { filasSips, type FallaSips } from './lector.ts';
import { suministroDeFilaSips, type SuministroSips } from './registro.ts';

/** Faults listed at most; beyond them only their number is told. */
export const MAX_FALLAS_LISTADAS = 1000;

/** What the check of a file found. */
export interface ComprobacionRegistro {
  filas: number;
  fallas: FallaSips[];
  /** Faults beyond MAX_FALLAS_LISTADAS, counted but not listed. */
  fallasOmitidas: number;
}

/** Options of both passes. */
export interface OpcionesRegistro {
  /** Only supply points of this distributor are admitted (an administrator's upload names it). */
  distribuidora?: string;
  /** Hears the rows read so far, every few thousand. */
  progreso?: (filas: number) => void;
}

/** The supply point of a row, or its faults; a row of another distributor than the one loading is a fault. */
function suministroDe(fila: Parameters<typeof suministroDeFilaSips>[0], opciones: OpcionesRegistro) {
  const r = suministroDeFilaSips(fila);
  if ('suministro' in r && opciones.distribuidora && r.suministro.distribuidora !== opciones.distribuidora) {
    const d = DISTRIBUIDORAS.find((x) => x.codigo === opciones.distribuidora)!;
    return {
      fallas: [
        {
          columna: 'codigoEmpresaDistribuidora',
          motivo: `El fichero es el registro de ${d.nombre} (${d.codigoREE}) y esta línea es de otra distribuidora.`,
        },
      ],
    };
  }
  return r;
}

/** Rows per batch into the temporary table. */
const LOTE = 2000;

/** Reads and checks a whole file (first pass); the database is not touched. */
export async function comprobarRegistroSips(fuente: FuenteFichero, opciones: OpcionesRegistro = {}): Promise<ComprobacionRegistro> {
  const r: ComprobacionRegistro = { filas: 0, fallas: [], fallasOmitidas: 0 };
  const anotar = (f: FallaSips) => (r.fallas.length < MAX_FALLAS_LISTADAS ? r.fallas.push(f) : r.fallasOmitidas++);
  try {
    for await (const { linea, fila, fallas } of filasSips(fuente, PS_SIPS2026)) {
      r.filas++;
      if (opciones.progreso && r.filas % 10_000 === 0) opciones.progreso(r.filas);
      if (fallas.length > 0) {
        for (const f of fallas) anotar({ linea, ...f });
        continue;
      }
      const s = suministroDe(fila, opciones);
      if ('fallas' in s) for (const f of s.fallas) anotar({ linea, ...f });
    }
  } catch (err) {
    if (!(err instanceof ErrorFichero)) throw err;
    anotar({ linea: 0, columna: '', motivo: err.message });
  }
  if (r.filas === 0 && r.fallas.length === 0) anotar({ linea: 0, columna: '', motivo: 'El fichero no trae ningún suministro.' });
  return r;
}

/** Thrown inside the load's transaction when the file turns out faulty: everything is rolled back. */
export class RegistroRechazado extends Error {
  readonly fallas: FallaSips[];
  constructor(fallas: FallaSips[]) {
    super(`El registro de suministros tiene ${fallas.length} errores: no se ha importado nada.`);
    this.fallas = fallas;
  }
}

/** What a load did. */
export interface ResultadoRegistro {
  filas: number;
  nuevos: number;
  actualizados: number;
  sinCambios: number;
}

/** Columns of `suministros` a SIPS row sets, in the temporary table's order. */
const COLUMNAS = [
  'cups',
  'distribuidora',
  'titular_nif',
  'titular_nombre',
  'direccion',
  'codigo_postal',
  'municipio',
  'codigo_ine',
  'provincia',
  'tarifa',
  'potencias_w',
  'potencia_maxima_w',
  'tension_v',
  'contador_inteligente',
  'telegestionado',
  'propiedad_contador',
  'fases_contador',
  'resolucion_minutos',
  'modo_control_potencia',
  'autoconsumo',
  'comercializadora_codigo',
  'periodicidad_facturacion',
  'ciclo_lectura',
  'fecha_alta',
  'fecha_baja',
  'datos_sips',
] as const;

/** A supply point as a row of the temporary table (snake_case, as json_populate_recordset reads it). */
function filaTemporal(linea: number, s: SuministroSips): Record<string, unknown> {
  return {
    linea,
    cups: s.cups,
    distribuidora: s.distribuidora,
    titular_nif: s.titularNif,
    titular_nombre: s.titularNombre,
    direccion: s.direccion,
    codigo_postal: s.codigoPostal,
    municipio: s.municipio,
    codigo_ine: s.codigoIne,
    provincia: s.provincia,
    tarifa: s.tarifa,
    potencias_w: s.potenciasW,
    potencia_maxima_w: s.potenciaMaximaW,
    tension_v: s.tensionV,
    contador_inteligente: s.contadorInteligente,
    telegestionado: s.telegestionado,
    propiedad_contador: s.propiedadContador,
    fases_contador: s.fasesContador,
    resolucion_minutos: s.resolucionMinutos,
    modo_control_potencia: s.modoControlPotencia,
    autoconsumo: s.autoconsumo,
    comercializadora_codigo: s.comercializadoraCodigo,
    periodicidad_facturacion: s.periodicidadFacturacion,
    ciclo_lectura: s.cicloLectura,
    fecha_alta: s.fechaAlta,
    fecha_baja: s.fechaBaja ?? null,
    datos_sips: s.datosSips,
  };
}

const lista = sql.raw(COLUMNAS.join(', '));
// What an update compares and sets: everything the file brings. The meter's number and the
// retailer's name are not in SIPS and are kept; a self-consumption modality the register already
// knows is kept when the file says only "acogido".
const AUTOCONSUMO = `case when excluded.autoconsumo = 'modalidad_no_informada' and suministros.autoconsumo <> 'ninguno'
  then suministros.autoconsumo else excluded.autoconsumo end`;
const asignaciones = sql.raw(
  COLUMNAS.filter((c) => c !== 'cups')
    .map((c) => `${c} = ${c === 'autoconsumo' ? AUTOCONSUMO : `excluded.${c}`}`)
    .join(', '),
);
const distintas = sql.raw(
  `(${COLUMNAS.filter((c) => c !== 'cups' && c !== 'autoconsumo')
    .map((c) => `suministros.${c}`)
    .join(', ')}, suministros.autoconsumo) is distinct from (${COLUMNAS.filter((c) => c !== 'cups' && c !== 'autoconsumo')
    .map((c) => `excluded.${c}`)
    .join(', ')}, ${AUTOCONSUMO})`,
);

/**
 * Loads a checked file (second pass) in the caller's transaction. Throws `RegistroRechazado` when
 * the file has faults after all (it changed since it was checked) or repeats a CUPS.
 */
export async function importarRegistroSips(tx: Db, fuente: FuenteFichero, opciones: OpcionesRegistro = {}): Promise<ResultadoRegistro> {
  // A second load in the same transaction starts from an empty table.
  await tx.execute(sql`drop table if exists sips_carga`);
  await tx.execute(sql`create temporary table sips_carga (
      linea integer not null, cups text not null, distribuidora text, titular_nif text, titular_nombre text, direccion text,
      codigo_postal text, municipio text, codigo_ine text, provincia text, tarifa text, potencias_w integer[],
      potencia_maxima_w integer, tension_v integer, contador_inteligente boolean, telegestionado boolean,
      propiedad_contador text, fases_contador text, resolucion_minutos smallint, modo_control_potencia text,
      autoconsumo text, comercializadora_codigo text, periodicidad_facturacion text, ciclo_lectura smallint,
      fecha_alta date, fecha_baja date, datos_sips jsonb
    ) on commit drop`);
  let filas = 0;
  let lote: Record<string, unknown>[] = [];
  const vaciar = async () => {
    if (lote.length === 0) return;
    await tx.execute(sql`insert into sips_carga select * from json_populate_recordset(null::sips_carga, ${JSON.stringify(lote)}::json)`);
    lote = [];
  };
  for await (const { linea, fila, fallas } of filasSips(fuente, PS_SIPS2026)) {
    const s = fallas.length ? { fallas } : suministroDe(fila, opciones);
    if ('fallas' in s) throw new RegistroRechazado(s.fallas.map((f) => ({ linea, ...f })));
    lote.push(filaTemporal(linea, s.suministro));
    filas++;
    if (lote.length >= LOTE) {
      await vaciar();
      opciones.progreso?.(filas);
    }
  }
  await vaciar();

  const repetidos = await queryRows<{ cups: string; lineas: number[] }>(
    tx,
    sql`select cups, array_agg(linea order by linea) as lineas from sips_carga group by cups having count(*) > 1 order by min(linea) limit ${MAX_FALLAS_LISTADAS}`,
  );
  if (repetidos.length > 0) {
    throw new RegistroRechazado(
      repetidos.map((r) => ({
        linea: r.lineas[1]!,
        columna: 'cups',
        motivo: `El CUPS ${r.cups} ya aparece en la línea ${r.lineas[0]}: cada suministro va una sola vez.`,
      })),
    );
  }

  // The holders before and after, whose `-distribucion` permissions may change.
  const titulares = await queryRows<{ nif: string }>(
    tx,
    sql`select distinct u.nif from users u
        where u.estado = 'activo' and u.nif in (
          select titular_nif from sips_carga
          union select s.titular_nif from suministros s join sips_carga c on c.cups = s.cups)`,
  );
  const [escritos] = await queryRows<{ nuevos: number; total: number }>(
    tx,
    sql`with escritos as (
          insert into suministros (${lista}) select ${lista} from sips_carga
          on conflict (cups) do update set ${asignaciones}, updated_at = now() where ${distintas}
          returning (xmax = 0) as nuevo)
        select (count(*) filter (where nuevo))::int as nuevos, count(*)::int as total from escritos`,
  );
  await sincronizarPermisosDistribucion(
    tx,
    titulares.map((t) => t.nif),
  );
  const { nuevos, total } = escritos!;
  return { filas, nuevos, actualizados: total - nuevos, sinCambios: filas - total };
}
