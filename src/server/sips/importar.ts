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
import { COLUMNAS_TITULAR_RESERVADAS, PS_SIPS2026 } from '../../lib/sips/columnas.ts';
import { pgArray } from '../db/arrays.ts';
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
    anotar({ linea: err.linea, columna: '', motivo: err.message });
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
  /** Supply points where the file was older than an activation, whose activated values were kept. */
  conservados: number;
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
  'suspendido_desde',
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
    suspendido_desde: s.suspendidoDesde ?? null,
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
 * Reads a checked file into the temporary table `sips_carga` in the caller's transaction, and
 * answers its rows. Throws `RegistroRechazado` when the file has faults after all (it changed
 * since it was checked) or repeats a CUPS.
 */
async function cargarTemporal(tx: Db, fuente: FuenteFichero, opciones: OpcionesRegistro): Promise<number> {
  // A second load in the same transaction starts from an empty table.
  await tx.execute(sql`drop table if exists sips_carga`);
  await tx.execute(sql`create temporary table sips_carga (
      linea integer not null, cups text not null, distribuidora text, titular_nif text, titular_nombre text, direccion text,
      codigo_postal text, municipio text, codigo_ine text, provincia text, tarifa text, potencias_w integer[],
      potencia_maxima_w integer, tension_v integer, contador_inteligente boolean, telegestionado boolean,
      propiedad_contador text, fases_contador text, resolucion_minutos smallint, modo_control_potencia text,
      autoconsumo text, comercializadora_codigo text, periodicidad_facturacion text, ciclo_lectura smallint,
      fecha_alta date, fecha_baja date, suspendido_desde date, datos_sips jsonb, fecha_datos date
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
    lote.push({ ...filaTemporal(linea, s.suministro), fecha_datos: fila.fechaUltimoMovimientoContrato || null });
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
  return filas;
}

/**
 * The columns a later activation set, by what was activated (docs/decisions/037): a contractual
 * modification of the portal (power, tariff, holder) or an ATR request (C1/C2 change of retailer,
 * M1 modification, A3 new contract, B1 cancellation).
 */
const COLUMNAS_ACTIVADAS: Readonly<Record<string, readonly string[]>> = {
  'modificacion potencia': ['potencias_w'],
  'modificacion tarifa': ['tarifa', 'potencias_w'],
  'modificacion titular': ['titular_nif', 'titular_nombre'],
  'atr C1': ['comercializadora_codigo'],
  'atr C2': ['comercializadora_codigo', 'tarifa', 'potencias_w', 'titular_nif', 'titular_nombre'],
  'atr M1': ['tarifa', 'potencias_w', 'titular_nif', 'titular_nombre'],
  'atr A3': ['comercializadora_codigo', 'tarifa', 'potencias_w', 'titular_nif', 'titular_nombre', 'fecha_alta', 'fecha_baja'],
  'atr B1': ['fecha_baja', 'suspendido_desde'],
};

/** The SIPS columns of the holder kept in `datos_sips`, kept with the holder when a later change of holder stands. */
const CLAVES_TITULAR = ['tipoPersona', 'tipoIdTitular', ...COLUMNAS_TITULAR_RESERVADAS.filter((c) => c !== 'idTitular')];

/** A value of the register kept because a later activation set it: which supply point, which column, both values, why. */
export interface CampoConservado {
  cups: string;
  campo: string;
  actual: string | null;
  fichero: string | null;
  motivo: string;
}

/** A column's value as text for the preview: powers joined, dates as written. */
const comoTexto = (col: string, t: string) => (col === 'potencias_w' ? `array_to_string(${t}.${col}, ' / ')` : `${t}.${col}::text`);

/**
 * Keeps in `sips_carga` the register's values of every column that an activation later than the
 * row's data set (docs/decisions/037), and answers what was kept (up to MAX_FALLAS_LISTADAS) and
 * how many supply points. A row's data are as of its `fechaUltimoMovimientoContrato`; a row
 * without that date is taken as older than any activation.
 */
async function conservarPosteriores(tx: Db): Promise<{ conservados: CampoConservado[]; suministros: number }> {
  const pares = Object.entries(COLUMNAS_ACTIVADAS).flatMap(([clave, cols]) => cols.map((c) => `(${`'${clave}'`}, '${c}')`));
  await tx.execute(sql`drop table if exists sips_conservar`);
  await tx.execute(sql`create temporary table sips_conservar on commit drop as
    with activadas as (
      select s.cups, 'modificacion ' || m.tipo as clase, (m.datos->>'fechaActivacion')::date as fecha,
        'la modificación ' || 'MC-' || lpad(coalesce(m.datos->>'numeroAnterior', m.numero::text), 6, '0') || ' activada el '
          || to_char((m.datos->>'fechaActivacion')::date, 'DD/MM/YYYY') as motivo
      from expedientes m join suministros s on s.id = (m.datos->>'suministroId')::int join sips_carga c on c.cups = s.cups
      where m.procedimiento = 'modificacion' and m.paso = 'activada' and m.datos->>'fechaActivacion' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
      union all
      select e.datos->>'cups', 'atr ' || coalesce(e.datos->>'proceso', e.tipo), (e.datos->>'activacion')::date,
        'la solicitud ATR ' || coalesce(e.datos->>'codigoSolicitud', '') || ' (' || coalesce(e.datos->>'proceso', e.tipo) || ') activada el '
          || to_char((e.datos->>'activacion')::date, 'DD/MM/YYYY')
      from expedientes e join sips_carga c on c.cups = e.datos->>'cups'
      where e.procedimiento = 'atr' and e.paso = 'activada' and e.datos->>'activacion' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
    )
    select distinct on (a.cups, k.columna) a.cups, k.columna, a.motivo
    from activadas a join (values ${sql.raw(pares.join(', '))}) as k(clase, columna) on k.clase = a.clase
    join sips_carga c on c.cups = a.cups
    where c.fecha_datos is null or a.fecha > c.fecha_datos
    order by a.cups, k.columna, a.fecha desc`);
  const columnas = [...new Set(Object.values(COLUMNAS_ACTIVADAS).flat())];
  const conservados = await queryRows<CampoConservado>(
    tx,
    sql.raw(
      `${columnas
        .map(
          (col) => `select k.cups, '${col}' as campo, ${comoTexto(col, 's')} as actual, ${comoTexto(col, 'c')} as fichero, k.motivo
      from sips_conservar k join sips_carga c on c.cups = k.cups join suministros s on s.cups = k.cups
      where k.columna = '${col}' and s.${col} is distinct from c.${col}`,
        )
        .join(' union all ')} order by cups, campo limit ${MAX_FALLAS_LISTADAS}`,
    ),
  );
  // The supply points where a kept value differs from the file's, counted before the file's values
  // are replaced (a later activation the file already agrees with keeps nothing).
  const [n] = await queryRows<{ n: number }>(
    tx,
    sql.raw(
      `select count(distinct cups)::int as n from (${columnas
        .map(
          (col) => `select k.cups from sips_conservar k join sips_carga c on c.cups = k.cups join suministros s on s.cups = k.cups
        where k.columna = '${col}' and s.${col} is distinct from c.${col}`,
        )
        .join(' union all ')}) x`,
    ),
  );
  for (const col of columnas) {
    await tx.execute(
      sql.raw(`update sips_carga c set ${col} = s.${col} from suministros s, sips_conservar k
        where s.cups = c.cups and k.cups = c.cups and k.columna = '${col}'`),
    );
  }
  // A holder kept keeps its SIPS columns (name in parts, address) too.
  await tx.execute(sql`update sips_carga c
    set datos_sips = (c.datos_sips - ${pgArray(CLAVES_TITULAR)}::text[])
      || coalesce((select jsonb_object_agg(d.key, d.value) from jsonb_each(s.datos_sips) d where d.key = any(${pgArray(CLAVES_TITULAR)}::text[])), '{}')
    from suministros s, sips_conservar k
    where s.cups = c.cups and k.cups = c.cups and k.columna = 'titular_nif'`);
  // A suspension the register knows keeps its day when the file says only that the supply is suspended.
  await tx.execute(sql`update sips_carga c set suspendido_desde = s.suspendido_desde from suministros s
    where s.cups = c.cups and c.suspendido_desde is not null and s.suspendido_desde is not null`);
  // A modality of self-consumption the register knows is kept when the file says only "acogido".
  await tx.execute(sql`update sips_carga c set autoconsumo = s.autoconsumo from suministros s
    where s.cups = c.cups and c.autoconsumo = 'modalidad_no_informada' and s.autoconsumo <> 'ninguno'`);
  return { conservados, suministros: n?.n ?? 0 };
}

/**
 * Loads a checked file (second pass) in the caller's transaction. Throws `RegistroRechazado` when
 * the file has faults after all (it changed since it was checked) or repeats a CUPS. The values a
 * later activation set are kept (docs/decisions/037).
 */
export async function importarRegistroSips(tx: Db, fuente: FuenteFichero, opciones: OpcionesRegistro = {}): Promise<ResultadoRegistro> {
  const filas = await cargarTemporal(tx, fuente, opciones);
  const { suministros: conservados } = await conservarPosteriores(tx);

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
  return { filas, nuevos, actualizados: total - nuevos, sinCambios: filas - total, conservados };
}

/** One field that a load changes: the `suministros` column, or the CNMC name of a SIPS column kept in `datos_sips`. */
export interface CampoCambiado {
  campo: string;
  antes: string | null;
  despues: string | null;
}

/** What a load would do to one supply point. */
export interface CambioSuministro {
  cups: string;
  nuevo: boolean;
  campos: CampoCambiado[];
}

/** What a load would do, told before it is done. */
export interface PreviaRegistro extends ResultadoRegistro {
  /** The supply points that would be created or changed, field by field (up to MAX_CAMBIOS_LISTADOS). */
  cambios: CambioSuministro[];
  /** The values kept because a later activation set them (up to MAX_FALLAS_LISTADAS). */
  camposConservados: CampoConservado[];
}

/** Supply points whose changes a preview lists at most. */
export const MAX_CAMBIOS_LISTADOS = 500;

/**
 * What loading a checked file would change, supply point by supply point, without changing
 * anything: run it in a transaction the caller rolls back or ends (only temporary tables are written).
 */
export async function previsualizarRegistroSips(tx: Db, fuente: FuenteFichero, opciones: OpcionesRegistro = {}): Promise<PreviaRegistro> {
  const filas = await cargarTemporal(tx, fuente, opciones);
  const { conservados: camposConservados, suministros: conservados } = await conservarPosteriores(tx);
  const cols = COLUMNAS.filter((c) => c !== 'cups' && c !== 'datos_sips');
  const diferencias = cols
    .map(
      (c) =>
        `case when s.${c} is distinct from c.${c} then jsonb_build_object('campo', '${c}', 'antes', ${comoTexto(c, 's')}, 'despues', ${comoTexto(c, 'c')}) end`,
    )
    .join(', ');
  // The changes go to a temporary table: a register of a million supply points is counted there,
  // and only the first ones listed travel.
  await tx.execute(sql`drop table if exists sips_cambios`);
  await tx.execute(
    sql.raw(`create temporary table sips_cambios on commit drop as
      select * from (
        select c.cups, s.cups is null as nuevo, c.linea,
          case when s.cups is null then '[]'::jsonb else
            coalesce((select jsonb_agg(x) from unnest(array[${diferencias}]) x where x is not null), '[]'::jsonb)
            || coalesce((select jsonb_agg(jsonb_build_object('campo', k, 'antes', s.datos_sips->>k, 'despues', c.datos_sips->>k) order by k)
                from (select jsonb_object_keys(s.datos_sips) union select jsonb_object_keys(c.datos_sips)) kk(k)
                where s.datos_sips->k is distinct from c.datos_sips->k), '[]'::jsonb)
          end as campos
        from sips_carga c left join suministros s on s.cups = c.cups) d
      where nuevo or jsonb_array_length(campos) > 0`),
  );
  const [cuentas] = await queryRows<{ nuevos: number; total: number }>(
    tx,
    sql`select (count(*) filter (where nuevo))::int as nuevos, count(*)::int as total from sips_cambios`,
  );
  const cambios = await queryRows<CambioSuministro>(
    tx,
    sql`select cups, nuevo, campos from sips_cambios order by linea limit ${MAX_CAMBIOS_LISTADOS}`,
  );
  const { nuevos, total } = cuentas!;
  return {
    filas,
    nuevos,
    actualizados: total - nuevos,
    sinCambios: filas - total,
    conservados,
    cambios,
    camposConservados,
  };
}
