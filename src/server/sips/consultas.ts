/**
 * The rows of the SIPS files as the database writes them (docs/sector.md §3.2–§3.4;
 * docs/decisions/016): one SELECT per layout whose single column is the finished CSV line, so the
 * monthly file of a million supply points flows from PostgreSQL to the compressor without a row
 * object in between, and the CUPS query answers with exactly the lines the files carry.
 *
 * The PS columns the portal models come from the `suministros` columns; the others from
 * `datos_sips`, where the import kept them by CNMC name. The identity and address of a holder who
 * is a natural person are left empty (docs/decisions/036). The consumption of a month comes from the
 * measures store: the month's sums per energy period (`medidas_horarias_mes.totales`, Wh) and the
 * maximum demanded power per period (`potencias_maximas`, W), by civil month, and the reactive energy
 * per period where an F5D gave it (docs/decisions/054). What the portal does not have (reactive energy
 * of a point whose files carry none, the kind of reading) is written empty, never as zero.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  CODIGO_TARIFA,
  COLUMNAS_TITULAR_RESERVADAS,
  columnasSips,
  TENSION_TABLA_64,
  type TipoFicheroSips,
  type VersionSips,
} from '../../lib/sips/columnas.ts';
import { pgArray } from '../db/arrays.ts';
import { AUTOCONSUMO_113, CODIGO_CONTROL, CODIGO_PROPIEDAD } from './registro.ts';

/** A SQL literal of a short code or name (the maps below hold only letters, digits, dots and spaces). */
const literal = (v: string) => `'${v.replaceAll("'", "''")}'`;

/** `case <expr> when k then v … end` from a map. */
const caso = (expr: string, mapa: Readonly<Record<string, string>>) =>
  `case ${expr} ${Object.entries(mapa)
    .map(([k, v]) => `when ${literal(k)} then ${literal(v)}`)
    .join(' ')} end`;

/** The tabla 64 code of a voltage nobody kept a code for: 230 V is 02 (1X230) or 06 (3X400/230) by phases. */
const TENSION = `case when s.tension_v = 230 and s.fases_contador = 'trifasico' then '06' when s.tension_v = 230 then '02'
  when s.tension_v = 400 then '06' else ${caso(
    's.tension_v::text',
    Object.fromEntries(
      Object.entries(TENSION_TABLA_64)
        .map(([codigo, v]) => [String(v), codigo])
        .reverse(),
    ),
  )} end`;

/**
 * The keys of `datos_sips` a line reads. They are read in one pass per row (`jsonb_to_record` in
 * the FROM clause): a `->>` per column would take the jsonb apart once per column, 60 times a row.
 */
const claves = new Set<string>();
/** A kept SIPS value by CNMC name, as text (null when the file had it empty). */
const dato = (nombre: string) => {
  claves.add(nombre);
  return `x.${JSON.stringify(nombre)}`;
};
const fecha = (col: string) => `to_char(${col}, 'YYYY-MM-DD')`;

/** The SQL of each PS column the `suministros` columns give; any other column is read from `datos_sips`. */
const PS: Readonly<Record<string, string>> = {
  codigoEmpresaDistribuidora: 'd.codigo_ree',
  nombreEmpresaDistribuidora: 'd.nombre',
  cups: 's.cups',
  codigoProvinciaPS: 'left(s.codigo_ine, 2)',
  desProvinciaPS: 's.provincia',
  codigoMunicipioPS: 's.codigo_ine',
  municipioPS: 's.codigo_ine',
  desMunicipioPS: 's.municipio',
  codigoPostalPS: 's.codigo_postal',
  // A supply point loaded without its address in parts carries the whole address line in viaPS.
  viaPS: `coalesce(${dato('viaPS')}, s.direccion)`,
  fechaAltaSuministro: fecha('s.fecha_alta'),
  codigoTarifaATREnVigor: caso('s.tarifa', CODIGO_TARIFA),
  codigoTensionV: `coalesce(${dato('codigoTensionV')}, ${TENSION})`,
  potenciaMaximaBIEW: `coalesce(${dato('potenciaMaximaBIEW')}, s.potencia_maxima_w::text)`,
  codigoClasificacionPS: `coalesce(${dato('codigoClasificacionPS')}, case when s.resolucion_minutos = 15 then '03' else '05' end)`,
  ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((p) => [`potenciasContratadasEnWP${p}`, `s.potencias_w[${p}]::text`])),
  codigoComercializadorVigente: 's.comercializadora_codigo',
  suspensionSuminstroImpago: `case when s.suspendido_desde is not null then 'S' else 'N' end`,
  codigoComercializadora: 's.comercializadora_codigo',
  // A CIF starts with a letter of a legal entity's kind; an NIE with X, Y or Z (docs/sector.md §2).
  tipoPersona: `coalesce(${dato('tipoPersona')}, case when s.titular_nif ~ '^[ABCDEFGHJNPQRSUVW]' then 'J' else 'F' end)`,
  tipoIdTitular: `coalesce(${dato('tipoIdTitular')}, case when s.titular_nif ~ '^[XYZ]' then 'NE' else 'NI' end)`,
  idTitular: 's.titular_nif',
  nombreTitular: `coalesce(${dato('nombreTitular')}, s.titular_nombre)`,
  codigoLecturaRemota: `case when s.telegestionado then coalesce(nullif(${dato('codigoLecturaRemota')}, '03'), '01') else '03' end`,
  codigoTelegestion: `case when s.telegestionado then coalesce(nullif(${dato('codigoLecturaRemota')}, '03'), '01') else '03' end`,
  codigoFasesEquipoMedida: `case s.fases_contador when 'trifasico' then 'T' else 'M' end`,
  acogimientoAutoconsumo: `case s.autoconsumo when 'ninguno' then 'N' else 'S' end`,
  codigoAutoconsumo: caso('s.autoconsumo', AUTOCONSUMO_113),
  codigoPeriodicidadFacturacion: `case s.periodicidad_facturacion when 'bimestral' then '02' else '01' end`,
  codigoModoControlPotencia: caso('s.modo_control_potencia', CODIGO_CONTROL),
  codigoPropiedadEquipoMedida: caso('s.propiedad_contador', CODIGO_PROPIEDAD),
  CNAE: dato('cnae'),
};

/**
 * The columns `<prefijo>1…6` of a month's sums per period `totales.<suma>`: the civil month's hours at
 * either end (see consultaConsumos) fall in the tariff's last period, corrected there by `ajuste`.
 */
const porPeriodoSql = (prefijo: string, suma: string, ajuste: string) =>
  Object.fromEntries(
    [1, 2, 3, 4, 5, 6].map((n) => [
      `${prefijo}${n}`,
      `round((m.totales->'${suma}'->>${n - 1})::numeric
        + case when ${n} = jsonb_array_length(m.totales->'${suma}') then ${ajuste} else 0 end)::bigint::text`,
    ]),
  );

/** The SQL of each consumption column, over `s` (the supply point), `m` (the month) and `p` (its maximum powers). */
const CONSUMOS: Readonly<Record<string, string>> = {
  cups: 's.cups',
  fechaInicioMesConsumo: fecha('m.mes_local'),
  fechaFinMesConsumo: fecha(`(m.mes_local + interval '1 month' - interval '1 day')`),
  codigoTarifaATR: caso('s.tarifa', CODIGO_TARIFA),
  // The civil month's hours at either end (see consultaConsumos) fall in the tariff's last period.
  ...porPeriodoSql('consumoEnergiaActivaEnWhP', 'importadaWh', 'm.ajuste_wh'),
  // Reactive energy (docs/decisions/054): SIPS2 has one figure per period, the inductive; SIPS2026
  // splits inductive and capacitive. Empty for a month whose sums have none (no F5D gave it).
  ...porPeriodoSql('consumoEnergiaReactivaEnVArhP', 'inductivaVarh', 'm.ajuste_ind'),
  ...porPeriodoSql('consumoEnergíaReactivaInductivaEnVArhP', 'inductivaVarh', 'm.ajuste_ind'),
  ...porPeriodoSql('consumoEnergíaReactivaCapacitivaEnVArhP', 'capacitivaVarh', 'm.ajuste_cap'),
  ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`potenciaDemandadaEnWP${n}`, `p.p${n}::text`])),
  // Tabla 35: a 2.0TD meter discriminates three periods (9), the others six (A).
  codigoDHEquipoDeMedida: `case when s.tarifa = '2.0TD' then '9' else 'A' end`,
};

/** How a row is handed over: its CSV line, or a JSON array of its fields as text (for the API's JSON answers). */
export type FormaFila = 'csv' | 'json';

/**
 * A row of a layout as one SQL text expression: the CSV line (`sips_campo` quotes a field,
 * migration 0010), or a JSON array of the same fields, empty where there is no value.
 */
function linea(tipo: TipoFicheroSips, version: VersionSips, forma: FormaFila = 'csv'): SQL {
  const clave = `${tipo} ${version} ${forma}`;
  let texto = lineas.get(clave);
  if (texto === undefined) lineas.set(clave, (texto = textoLinea(tipo, version, forma)));
  return sql.raw(texto);
}

/** The SQL text of each row expression, built once: the CUPS query asks for one on every request. */
const lineas = new Map<string, string>();

/**
 * The SQL of a PS column. A holder's identity and address go only for a legal person, told by the
 * file's `tipoPersona` and by a CIF's first letter both: any doubt leaves them out (docs/decisions/036).
 */
function expresionPs(nombre: string): string {
  const expr = PS[nombre] ?? dato(nombre);
  return COLUMNAS_TITULAR_RESERVADAS.includes(nombre)
    ? `case when (${PS.tipoPersona}) = 'J' and s.titular_nif ~ '^[ABCDEFGHJNPQRSUVW]' then (${expr}) end`
    : expr;
}

function textoLinea(tipo: TipoFicheroSips, version: VersionSips, forma: FormaFila): string {
  const exprs = columnasSips(tipo, version).map((c) =>
    tipo === 'PS_ELECTRICIDAD' ? expresionPs(c.nombre) : (CONSUMOS[c.nombre] ?? 'null'),
  );
  // An array constructor, not json_build_array: a function takes at most 100 arguments and SIPS2026 has 103 columns.
  if (forma === 'json') return `to_json(array[${exprs.map((e) => `coalesce((${e})::text, '')`).join(', ')}])::text`;
  // `||`, not concat_ws, for the same reason.
  return `${exprs.map((e) => `sips_campo(${e})`).join(" || ',' || ")} || E'\\r\\n'`;
}

/** Which supply points: a whole distributor, or some CUPS of it. */
export type AmbitoSips = { distribuidora: string; cups?: readonly string[] };

const donde = (a: AmbitoSips): SQL =>
  a.cups
    ? sql`s.distribuidora = ${a.distribuidora} and s.cups = any(${pgArray(a.cups)}::text[])`
    : sql`s.distribuidora = ${a.distribuidora}`;

/** The PS lines of a distributor's supply points in force, in CUPS order. */
export function consultaPs(version: VersionSips, ambito: AmbitoSips, forma: FormaFila = 'csv'): SQL {
  // The line first: it names the keys of datos_sips the FROM clause then reads.
  const expr = linea('PS_ELECTRICIDAD', version, forma);
  return sql`select s.cups, ${expr} as linea
    from suministros s join distribuidoras d on d.codigo = s.distribuidora
    cross join lateral jsonb_to_record(s.datos_sips) as x(${sql.raw([...claves].map((c) => `${JSON.stringify(c)} text`).join(', '))})
    where ${donde(ambito)} and s.fecha_baja is null
    order by s.cups`;
}

/**
 * The hours at the end of the UTC month starting at `utc` (a timestamptz column) that belong to the
 * next civil month of the zone `zona`: 1 or 2 in Madrid (winter or summer time on the 1st), 0 or 1
 * in the Canaries.
 */
const horasCola = (utc: string, zona: string) =>
  `(extract(epoch from ((${utc} at time zone 'UTC' + interval '1 month') at time zone 'UTC')
    - ((${utc} at time zone 'UTC' + interval '1 month') at time zone ${zona})) / 3600)::int`;

/** The Wh of the last `k` hours (0–2) of a packed month's array, as numeric (0 for missing hours). */
const whCola = (arr: string, k: string) =>
  `(case when ${k} >= 1 then coalesce((${arr}->>-1)::numeric, 0) else 0 end
    + case when ${k} >= 2 then coalesce((${arr}->>-2)::numeric, 0) else 0 end)`;

/** How many of the last `k` hours (0–2) of a packed month's array have a measure. */
const medidasCola = (arr: string, k: string) =>
  `((case when ${k} >= 1 and ${arr}->>-1 is not null then 1 else 0 end)
    + (case when ${k} >= 2 and ${arr}->>-2 is not null then 1 else 0 end))`;

/**
 * The consumption lines of the 24 complete months before `mes` (the first day of the file's
 * month), one per supply point and civil month with summed measures, in CUPS and month order.
 *
 * A month of the file is a civil month of the supply point's clock (Madrid, or the Canaries),
 * as every reading and bill counts it; the packed months the sums come from are UTC months
 * (decision 008). Civil month M is UTC month M without its last hours (those after midnight of
 * day 1 of M+1, local time) and with the last hours of UTC month M-1 (those after midnight of day
 * 1 of M). Those hours are 00:00–02:00 local time, always in the tariff's last period (valle of
 * 2.0TD, P6 of the six-period tariffs, every day of the year in every zone: Circular 3/2020 art. 7
 * and 8; checked by tests/unit/sips-formato.test.ts), so only that period is corrected: by the
 * hours themselves, read from the end of the packed arrays.
 */
export function consultaConsumos(version: VersionSips, ambito: AmbitoSips, mes: string, forma: FormaFila = 'csv'): SQL {
  const zona = `case when left(s.codigo_ine, 2) in ('35', '38') then 'Atlantic/Canary' else 'Europe/Madrid' end`;
  const kFin = horasCola('mm.mes', zona);
  const kInicio = horasCola('ant.mes', zona);
  return sql`select ${linea('CONSUMOS_ELECTRICIDAD', version, forma)} as linea
    from suministros s
    join lateral (
      select (mm.mes at time zone 'UTC')::date as mes_local, mm.totales,
        coalesce(${sql.raw(whCola('ant.importada_wh', kInicio))}, 0) - ${sql.raw(whCola('mm.importada_wh', kFin))} as ajuste_wh,
        coalesce(${sql.raw(whCola('ant.inductiva_varh', kInicio))}, 0) - ${sql.raw(whCola('mm.inductiva_varh', kFin))} as ajuste_ind,
        coalesce(${sql.raw(whCola('ant.capacitiva_varh', kInicio))}, 0) - ${sql.raw(whCola('mm.capacitiva_varh', kFin))} as ajuste_cap
      from medidas_horarias_mes mm
      left join medidas_horarias_mes ant on ant.suministro_id = mm.suministro_id
        and ant.mes = ((mm.mes at time zone 'UTC') - interval '1 month') at time zone 'UTC'
      where mm.suministro_id = s.id and mm.totales is not null
        and mm.mes >= (${mes}::date - interval '24 months') at time zone 'UTC' and mm.mes < ${mes}::date at time zone 'UTC'
        -- A civil month with no measured hour has no line.
        and (select sum(h::int) from jsonb_array_elements_text(mm.totales->'horas') h)
          - ${sql.raw(medidasCola('mm.importada_wh', kFin))} + coalesce(${sql.raw(medidasCola('ant.importada_wh', kInicio))}, 0) > 0
    ) m on true
    left join lateral (
      select ${sql.raw([1, 2, 3, 4, 5, 6].map((n) => `max(potencia_w) filter (where periodo = ${n}) as p${n}`).join(', '))}
      from potencias_maximas where suministro_id = s.id and mes = m.mes_local
    ) p on true
    where ${donde(ambito)}
    order by s.cups, m.mes_local`;
}
