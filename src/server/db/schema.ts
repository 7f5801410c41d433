/**
 * Database schema (PostgreSQL dialect, shared by PGlite and node-postgres).
 * Changes here need `npm run db:generate` to write the SQL migration that start applies.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TotalesMes } from '../medidas/curva-texto.ts';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** PostgreSQL `bytea` as a Node Buffer (node-postgres answers a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Accented letters and ñ/ç, and what user search folds them to (PGlite has no unaccent extension). */
export const LETRAS_ACENTUADAS = 'ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇáàâäãéèêëíìîïóòôöõúùûüñç';
/** Same length as LETRAS_ACENTUADAS, letter by letter. */
export const LETRAS_SIN_ACENTO = 'AAAAAEEEEIIIIOOOOOUUUUNCaaaaaeeeeiiiiooooouuuunc';

/**
 * The words of a user's names and company name, accents folded and lower-cased, as a full-text
 * vector: its GIN index answers word-prefix searches (`mart:*`) with built-in PostgreSQL only, the
 * same on PGlite and on a server (no pg_trgm, no unaccent). Queries must use this very expression.
 */
export function vectorNombresUsuario(t: {
  nombre: AnyPgColumn;
  apellido1: AnyPgColumn;
  apellido2: AnyPgColumn;
  razonSocial: AnyPgColumn;
}): SQL {
  return sql`to_tsvector('simple'::regconfig, lower(translate(${t.nombre} || ' ' || ${t.apellido1} || ' ' || ${t.apellido2} || ' ' || ${t.razonSocial}, ${sql.raw(`'${LETRAS_ACENTUADAS}'`)}, ${sql.raw(`'${LETRAS_SIN_ACENTO}'`)})))`;
}

/** The distributors of docs/api.md; rows are kept in step with `src/lib/distribuidoras.ts` at start. */
export const distribuidoras = pgTable('distribuidoras', {
  /** Short code: epd, eod, ecd. */
  codigo: text('codigo').primaryKey(),
  /** Legal name. */
  nombre: text('nombre').notNull(),
  /** REE agent code, four digits. */
  codigoRee: text('codigo_ree').notNull().unique(),
  /** CUPS prefix of its supply points. */
  prefijoCups: text('prefijo_cups').notNull().unique(),
  /** Whether it publishes nodal access capacity on the portal. */
  publicaCapacidadNodal: boolean('publica_capacidad_nodal').notNull(),
});

/** Portal accounts: people (DNI/NIE) and companies (CIF). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** NIF, NIE or CIF, upper case, without spaces; null only for an administrator created from the environment. */
    nif: text('nif'),
    /** E-mail address, lower case: the login name. */
    email: text('email').notNull(),
    /** First name of a person; empty for a company. */
    nombre: text('nombre').notNull().default(''),
    /** First surname of a person; empty for a company. */
    apellido1: text('apellido1').notNull().default(''),
    /** Second surname of a person; empty for a company. */
    apellido2: text('apellido2').notNull().default(''),
    /** Company name; empty for a person. */
    razonSocial: text('razon_social').notNull().default(''),
    /** argon2id hash (PHC string). */
    passwordHash: text('password_hash').notNull(),
    /**
     * A supply company's code in the CNMC's table 1 (four digits, REE), set by an administrator: the
     * `CodigoREEEmpresaEmisora` of its ATR messages (docs/sector.md §4). Null for everyone else.
     */
    codigoRee: text('codigo_ree'),
    /** pendiente (awaiting activation), activo, inactivo (deactivated by an administrator). */
    estado: text('estado').notNull().default('pendiente'),
    createdAt: createdAt(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The account's footprint: the distributors of the supply points its NIF holds and of its
     * permissions other than -contacto and -accesoyconexion, sorted. Kept by triggers on users,
     * user_permissions and suministros (migration 0009), so scoping a list by distributor is a check
     * on the row, not a probe of two tables per row (docs/decisions/014).
     */
    huella: text('huella')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    uniqueIndex('users_nif_key').on(t.nif),
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_codigo_ree_key').on(t.codigoRee),
    check('users_codigo_ree_check', sql`${t.codigoRee} ~ '^[0-9]{4}$'`),
    check('users_estado_check', sql`${t.estado} in ('pendiente', 'activo', 'inactivo')`),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    // User administration: newest first, by state, NIF and e-mail prefixes, name words.
    index('users_creado_idx').on(t.createdAt.desc(), t.id),
    index('users_estado_creado_idx').on(t.estado, t.createdAt.desc(), t.id),
    index('users_nif_prefijo_idx').on(t.nif.op('text_pattern_ops')),
    index('users_email_prefijo_idx').on(t.email.op('text_pattern_ops')),
    index('users_nombres_idx').using('gin', vectorNombresUsuario(t)),
  ],
);

/** Permissions granted to users: one row per distributor and area. */
export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** distribucion, comercializadora, accesoyconexion, contacto or administrador. */
    area: text('area').notNull(),
    /** The user who granted it; null when the portal granted it by its own rules. */
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.distribuidora, t.area] }),
    index('user_permissions_area_idx').on(t.area, t.distribuidora),
    check(
      'user_permissions_area_check',
      sql`${t.area} in ('distribucion', 'comercializadora', 'accesoyconexion', 'contacto', 'administrador')`,
    ),
  ],
);

/** Who did what and when. Never holds passwords, tokens or link ids. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The user on whose account the action ran (null when anonymous). */
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The administrator behind an impersonated session, when there is one. */
    impersonatorUserId: uuid('impersonator_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What happened, e.g. `usuario.alta`, `sesion.login_fallido`. */
    action: text('action').notNull(),
    /** Kind and id of what the action touched. */
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** Client address as the server saw it. */
    ip: text('ip'),
    /** Request id that ties the entry to the logs. */
    requestId: text('request_id'),
    /** Extra facts about the action, never secrets. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * The distributors the entry concerns (a supply point's, an incident's, or the footprint of the
     * account it is about): an administrator of some distributors sees only the entries wholly
     * within them (docs/decisions/014). Null on entries written before it existed: those only an
     * administrator of every distributor sees.
     */
    distribuidoras: text('distribuidoras').array(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actorUserId, t.at),
    index('audit_log_action_idx').on(t.action, t.at),
    // The audit view's filter by user matches the impersonator too.
    index('audit_log_impersonator_idx')
      .on(t.impersonatorUserId, t.at)
      .where(sql`${t.impersonatorUserId} is not null`),
  ],
);

/** Transactional outbox: each mail is written in the transaction that causes it, then sent by a worker. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: createdAt(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** pendiente, enviado or fallido (gave up after the last retry). */
    estado: text('estado').notNull().default('pendiente'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.estado} = 'pendiente'`),
    check('mail_outbox_estado_check', sql`${t.estado} in ('pendiente', 'enviado', 'fallido')`),
  ],
);

/** Network interruptions (docs/producto.md §3 "Network incident"): scheduled works and faults, by distributor. */
export const incidenciasRed = pgTable(
  'incidencias_red',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** Programada (scheduled), En curso (works under way), Activa (fault), Cerrada (over: never shown publicly). */
    estado: text('estado').notNull(),
    /** What happens, in Spanish, for the public. */
    descripcion: text('descripcion').notNull(),
    /** Municipality name and its INE code (5 digits), and the province name. */
    municipio: text('municipio').notNull(),
    codigoIne: text('codigo_ine').notNull(),
    provincia: text('provincia').notNull(),
    /** Postal codes affected. */
    codigosPostales: text('codigos_postales')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Supply points (CUPS, 20 characters) affected, when known one by one. */
    cups: text('cups')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Supply points affected, as an estimate for the public. */
    clientesAfectados: integer('clientes_afectados'),
    inicio: timestamp('inicio', { withTimezone: true }).notNull(),
    /** Expected end; null while unknown. */
    finPrevisto: timestamp('fin_previsto', { withTimezone: true }),
    /** Real end, set when it is closed. */
    fin: timestamp('fin', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('incidencias_red_abiertas_idx')
      .on(t.distribuidora, t.inicio)
      .where(sql`${t.estado} <> 'Cerrada'`),
    index('incidencias_red_cups_idx').using('gin', t.cups),
    check('incidencias_red_estado_check', sql`${t.estado} in ('Programada', 'En curso', 'Activa', 'Cerrada')`),
    check('incidencias_red_ine_check', sql`${t.codigoIne} ~ '^[0-9]{5}$'`),
  ],
);

/**
 * Published access capacity per node (docs/sector.md §7, RD 1183/2020 art. 5, Circular 1/2021 art. 12):
 * one row per distributor, monthly publication, kind (generation or demand) and connection point.
 */
export const capacidadNodal = pgTable(
  'capacidad_nodal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** First day of the month the figures were published for. */
    publicacion: date('publicacion', { mode: 'string' }).notNull(),
    /** generacion or demanda. */
    tipo: text('tipo').notNull().default('generacion'),
    comunidadAutonoma: text('comunidad_autonoma').notNull(),
    provincia: text('provincia').notNull(),
    municipio: text('municipio').notNull(),
    /** Substation name. */
    subestacion: text('subestacion').notNull(),
    /** Identifier of the connection point (busbar), unique within a publication. */
    nudo: text('nudo').notNull(),
    /** Voltage level in kV. */
    tensionKv: numeric('tension_kv', { precision: 6, scale: 2, mode: 'number' }).notNull(),
    /** Location, ETRS89 geographic (degrees). */
    latitud: numeric('latitud', { precision: 9, scale: 6, mode: 'number' }).notNull(),
    longitud: numeric('longitud', { precision: 9, scale: 6, mode: 'number' }).notNull(),
    /** Capacities in MW: available, occupied, admitted and not yet resolved. */
    disponibleMw: numeric('disponible_mw', { precision: 10, scale: 3, mode: 'number' }).notNull(),
    ocupadaMw: numeric('ocupada_mw', { precision: 10, scale: 3, mode: 'number' }).notNull(),
    admitidaNoResueltaMw: numeric('admitida_no_resuelta_mw', { precision: 10, scale: 3, mode: 'number' }).notNull(),
    /** Transmission node most affected (Nudo de afección mayoritaria en la Red de Transporte). */
    nudoAfeccionRdt: text('nudo_afeccion_rdt'),
    comentario: text('comentario'),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('capacidad_nodal_nudo_key').on(t.distribuidora, t.tipo, t.publicacion, t.nudo),
    check('capacidad_nodal_tipo_check', sql`${t.tipo} in ('generacion', 'demanda')`),
    check('capacidad_nodal_mw_check', sql`${t.disponibleMw} >= 0 and ${t.ocupadaMw} >= 0 and ${t.admitidaNoResueltaMw} >= 0`),
  ],
);

/**
 * Published firm DEMAND access capacity per connection point (Circular 1/2024 art. 16; columns of the
 * CNMC resolution of 30-04-2025 on the formats for publishing access capacity, docs/sector.md §7.2).
 * One publication per distributor: an import replaces the distributor's rows as a whole. The
 * `capacidad_nodal` table keeps generation (Circular 1/2021), whose layout is different.
 */
export const capacidadDemanda = pgTable(
  'capacidad_demanda',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** First day of the month the figures were published for (Circular 1/2024: monthly update). */
    publicacion: date('publicacion', { mode: 'string' }).notNull(),
    /** "Gestor de Red" as the file writes it, when it does. */
    gestorRed: text('gestor_red'),
    provincia: text('provincia').notNull(),
    municipio: text('municipio').notNull(),
    /** "Subestación" / "Nombre Subestación". */
    subestacion: text('subestacion').notNull(),
    /** "Identificador de la subestación" / "Matrícula Sub.", when given. */
    subestacionId: text('subestacion_id'),
    /** "Nivel de tensión (kV)". */
    tensionKv: numeric('tension_kv', { precision: 6, scale: 2, mode: 'number' }).notNull(),
    /** "Identificador del Punto de Conexión": unique within the distributor's publication. */
    nudo: text('nudo').notNull(),
    /** "Denominación del Punto de Conexión", when given. */
    denominacion: text('denominacion'),
    /** "Coordenada UTM X / Y" in metres, ETRS89, in the UTM zone of `huso` (as published). */
    utmX: numeric('utm_x', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    utmY: numeric('utm_y', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    /** UTM zone of the coordinates: 30 unless the file says otherwise (28 in Canarias). */
    huso: integer('huso').notNull(),
    /** The same point in ETRS89 geographic degrees, computed at import, for the map. */
    latitud: numeric('latitud', { precision: 9, scale: 6, mode: 'number' }).notNull(),
    longitud: numeric('longitud', { precision: 9, scale: 6, mode: 'number' }).notNull(),
    /** "Capacidad firme disponible (MW)". */
    disponibleMw: numeric('disponible_mw', { precision: 10, scale: 3, mode: 'number' }).notNull(),
    /** "Capacidad de acceso firme de demanda ocupada (MW)". */
    ocupadaMw: numeric('ocupada_mw', { precision: 10, scale: 3, mode: 'number' }).notNull(),
    /** "Capacidad de acceso firme admitida y no evaluada (MW)". */
    admitidaNoEvaluadaMw: numeric('admitida_no_evaluada_mw', { precision: 10, scale: 3, mode: 'number' }).notNull(),
    /** "Capacidad comprometida por cuestiones regulatorias" = 1: transmission node in a concurso. */
    comprometidaRegulatoria: boolean('comprometida_regulatoria').notNull().default(false),
    /** "Posiciones ocupadas" / "Posiciones libres" (breakdown by position, substations > 66 kV). */
    posicionesOcupadas: integer('posiciones_ocupadas'),
    posicionesLibres: integer('posiciones_libres'),
    /** "Nudo afección RdT". */
    nudoAfeccionRdt: text('nudo_afeccion_rdt'),
    /** "Nudo limitado por Scc" = 1. */
    limitadoScc: boolean('limitado_scc').notNull().default(false),
    /** "Nudo 0*" = 1: no capacity at calculation time but could have some per the methodological note. */
    nudoCero: boolean('nudo_cero').notNull().default(false),
    /** "Comentario Regulatorio". */
    comentarioRegulatorio: text('comentario_regulatorio'),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('capacidad_demanda_nudo_key').on(t.distribuidora, t.nudo),
    check('capacidad_demanda_mw_check', sql`${t.disponibleMw} >= 0 and ${t.ocupadaMw} >= 0 and ${t.admitidaNoEvaluadaMw} >= 0`),
    check('capacidad_demanda_huso_check', sql`${t.huso} between 27 and 31`),
    check('capacidad_demanda_posiciones_check', sql`coalesce(${t.posicionesOcupadas}, 0) >= 0 and coalesce(${t.posicionesLibres}, 0) >= 0`),
  ],
);

/**
 * Refresh tokens (ASVS 5.0 §10.4): stored only as SHA-256 hashes, rotated on every use. Tokens of
 * one login share a family; presenting an already-rotated token revokes the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** All tokens descending from one login. */
    familyId: uuid('family_id').notNull(),
    /** SHA-256 (hex) of the token the cookie carries. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    /** Absolute end of the family: rotation never extends it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When it was exchanged for its successor; a later use is a reuse, past a short grace. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    /** Successor issued when it was rotated (answered again to concurrent tabs within the grace). */
    replacedBy: uuid('replaced_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Why it was revoked: logout, reuse, password change, deactivation… */
    revokedReason: text('revoked_reason'),
    /** The administrator acting through this session, when it is an impersonation. */
    impersonatorUserId: uuid('impersonator_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Browser and address at login, to list the user's sessions. */
    userAgent: text('user_agent'),
    ip: text('ip'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx')
      .on(t.userId)
      .where(sql`${t.revokedAt} is null`),
  ],
);

/** Single-use ids mailed in links (activation, password reset, e-mail change), stored only as hashes. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** activacion, restablecimiento or cambio_email. */
    tipo: text('tipo').notNull(),
    /** SHA-256 (hex) of the id in the link. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Set when a newer id of the same kind replaced it. */
    invalidatedAt: timestamp('invalidated_at', { withTimezone: true }),
    /** The new address, for an e-mail change. */
    nuevoEmail: text('nuevo_email'),
  },
  (t) => [
    uniqueIndex('user_tokens_hash_key').on(t.tokenHash),
    index('user_tokens_user_idx').on(t.userId, t.tipo),
    check('user_tokens_tipo_check', sql`${t.tipo} in ('activacion', 'restablecimiento', 'cambio_email')`),
  ],
);

/** Fixed-window counters for rate limits, shared by every process on the same database. */
export const rateLimits = pgTable('rate_limits', {
  /** What is limited and for whom, e.g. `login:cuenta:<user id>` or `alta:ip:<address>`. */
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/**
 * Supply points (docs/sector.md §1, §3.2): the contract and installation facts a consumer sees. A
 * consumer sees exactly the rows whose `titular_nif` is their account's NIF, in the distributors of
 * their `-distribucion` permissions. Powers are kept in W, as the SIPS file does.
 */
export const suministros = pgTable(
  'suministros',
  {
    /** Compact key for the measure tables (millions of rows reference it). */
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** CUPS, 20 characters, or 22 with the border-point suffix; check letters verified on import. */
    cups: text('cups').notNull(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** NIF, NIE or CIF of the holder, upper case. */
    titularNif: text('titular_nif').notNull(),
    /** Holder's name as the contract states it. */
    titularNombre: text('titular_nombre').notNull(),
    /** Street address of the supply. */
    direccion: text('direccion').notNull(),
    codigoPostal: text('codigo_postal').notNull(),
    municipio: text('municipio').notNull(),
    /** INE municipality code (5 digits) and province code (its first 2). */
    codigoIne: text('codigo_ine').notNull(),
    provincia: text('provincia').notNull(),
    /** Access tariff: 2.0TD, 3.0TD, 6.1TD… (docs/sector.md §6.4). */
    tarifa: text('tarifa').notNull(),
    /** Contracted power per period in W, P1 first (2 values for 2.0TD, 6 otherwise). */
    potenciasW: integer('potencias_w').array().notNull(),
    /** Maximum power the installation admits (BIE/APM), W: the ceiling of a power increase. */
    potenciaMaximaW: integer('potencia_maxima_w').notNull(),
    /** Supply voltage, V. */
    tensionV: integer('tension_v').notNull(),
    /** Smart meter (telemanaged) or not; who owns the meter (tabla 32); single or three phase. */
    contadorInteligente: boolean('contador_inteligente').notNull(),
    telegestionado: boolean('telegestionado').notNull(),
    propiedadContador: text('propiedad_contador').notNull(),
    /** Meter serial number; null when the register came from a SIPS file, which does not carry it. */
    numeroContador: text('numero_contador'),
    fasesContador: text('fases_contador').notNull(),
    /** Measure resolution the meter provides: 60 (hourly) or 15 (quarter-hourly) minutes. */
    resolucionMinutos: smallint('resolucion_minutos').notNull().default(60),
    /** Power control mode (SIPS col. 47): icp, maximetro, telegestion, sin_control. */
    modoControlPotencia: text('modo_control_potencia').notNull(),
    /**
     * Self-consumption (tabla 113 simplified): ninguno, sin_excedentes, con_excedentes_compensacion,
     * con_excedentes_sin_compensacion, or modalidad_no_informada (SIPS2026 says only "acogido", docs/decisions/016).
     */
    autoconsumo: text('autoconsumo').notNull().default('ninguno'),
    /** Retailer: REE code and name. */
    comercializadoraCodigo: text('comercializadora_codigo').notNull(),
    /** Null when the register came from a SIPS file, which carries only the code. */
    comercializadoraNombre: text('comercializadora_nombre'),
    /** Billing period: mensual or bimestral (SIPS col. 38). */
    periodicidadFacturacion: text('periodicidad_facturacion').notNull().default('mensual'),
    /**
     * Reading cycle: the day of the month (1–28) on which the distributor takes the billing reading
     * (a remote closure at 00:00 for a telemanaged meter, a reader's visit otherwise).
     */
    cicloLectura: smallint('ciclo_lectura').notNull().default(1),
    /**
     * Day the contracted power last changed (at most one change in 12 months, docs/sector.md §4.6 reason 65);
     * null: never since the start.
     */
    fechaUltimoCambioPotencia: date('fecha_ultimo_cambio_potencia', { mode: 'string' }),
    /** Contract start and end (end null while in force). */
    fechaAlta: date('fecha_alta', { mode: 'string' }).notNull(),
    fechaBaja: date('fecha_baja', { mode: 'string' }),
    /**
     * Day the supply was suspended (cut) at its retailer's request, CNMC table 10 reason 03 of a B1,
     * while it stays so; null when the supply is in service. The access contract stays in force
     * (docs/decisions/048). SIPS2026 `suspensionSuminstroImpago` is S exactly when it is set.
     */
    suspendidoDesde: date('suspendido_desde', { mode: 'string' }),
    /**
     * The SIPS2026 columns the other columns do not hold (cadastral reference, holder's name in
     * parts and address, rights, CNAE, BIE/APM…), by their CNMC names (docs/sector.md §3.3), so the
     * register is written back as the distributor's file brought it (docs/decisions/016).
     */
    datosSips: jsonb('datos_sips').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('suministros_cups_key').on(t.cups),
    // The monthly SIPS files read a distributor's register in CUPS order.
    index('suministros_distribuidora_cups_idx').on(t.distribuidora, t.cups),
    index('suministros_titular_idx').on(t.titularNif, t.distribuidora),
    check('suministros_tarifa_check', sql`${t.tarifa} in ('2.0TD', '3.0TD', '6.1TD', '6.2TD', '6.3TD', '6.4TD')`),
    check('suministros_resolucion_check', sql`${t.resolucionMinutos} in (15, 60)`),
    check('suministros_ciclo_lectura_check', sql`${t.cicloLectura} between 1 and 28`),
    check('suministros_cups_check', sql`${t.cups} ~ '^ES[0-9]{16}[A-Z]{2}([0-9][FPRCXYZ])?$'`),
    check(
      'suministros_autoconsumo_check',
      sql`${t.autoconsumo} in ('ninguno', 'sin_excedentes', 'con_excedentes_compensacion', 'con_excedentes_sin_compensacion', 'modalidad_no_informada')`,
    ),
  ],
);

/** Monthly maximum demanded power per tariff period (maxímetro or smart meter), with when it happened. */
export const potenciasMaximas = pgTable(
  'potencias_maximas',
  {
    suministroId: integer('suministro_id')
      .notNull()
      .references(() => suministros.id, { onDelete: 'cascade' }),
    /** First day of the month (Madrid calendar). */
    mes: date('mes', { mode: 'string' }).notNull(),
    /** Tariff period 1–6. */
    periodo: smallint('periodo').notNull(),
    /** Maximum demanded power, W (quarter-hour average, as meters register it). */
    potenciaW: integer('potencia_w').notNull(),
    /** Quarter-hour (UTC start) in which it was reached. */
    momento: timestamp('momento', { withTimezone: true }).notNull(),
    /** real or estimada. */
    metodo: text('metodo').notNull().default('real'),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.suministroId, t.mes, t.periodo] }),
    check('potencias_maximas_periodo_check', sql`${t.periodo} between 1 and 6`),
  ],
);

/**
 * The hourly curve packed by supply point and UTC month (docs/decisions/008): a read model of
 * `medidas_horarias` that the importer rewrites, in the same transaction, for every month it touches.
 * A year of one supply point is 12–13 rows instead of 8,760, so the curve screen's query stays a few
 * index lookups however many supply points the distributor has.
 */
export const medidasHorariasMes = pgTable(
  'medidas_horarias_mes',
  {
    suministroId: integer('suministro_id')
      .notNull()
      .references(() => suministros.id, { onDelete: 'cascade' }),
    /** First instant of the UTC month; slot i of the arrays is the hour starting i hours later. */
    mes: timestamp('mes', { withTimezone: true }).notNull(),
    /** Imported Wh of each hour of the month, null where no measure has arrived (a JSON array). */
    importadaWh: json('importada_wh').$type<(number | null)[]>().notNull(),
    /** Exported Wh of each hour; null for the whole month when no hour has any. */
    exportadaWh: json('exportada_wh').$type<(number | null)[] | null>(),
    /**
     * Inductive (quadrant R1) and capacitive (R4) reactive VArh of each hour, as the F5D gives them
     * (docs/decisions/054); null for the whole month when no hour has any.
     */
    inductivaVarh: json('inductiva_varh').$type<(number | null)[] | null>(),
    capacitivaVarh: json('capacitiva_varh').$type<(number | null)[] | null>(),
    /**
     * One letter per hour: '-' no measure; real measures 'F' firm, 'N' not firm, 'R' firmness unknown;
     * estimated ones 'f', 'n', 'e' likewise.
     */
    calidad: text('calidad').notNull(),
    /**
     * The month's sums per energy period (docs/decisions/012), with a fingerprint of the period of
     * each hour they were summed with; null until summed (the importer sums the months it packs).
     */
    totales: jsonb('totales').$type<TotalesMes>(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.suministroId, t.mes] })],
);

/** Register readings of a meter (billing closures, readers' visits, customers' self-readings). */
export const lecturasContador = pgTable(
  'lecturas_contador',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    suministroId: integer('suministro_id')
      .notNull()
      .references(() => suministros.id, { onDelete: 'cascade' }),
    /** When the registers were read (a billing closure: 00:00 local time of the cycle day). */
    momento: timestamp('momento', { withTimezone: true }).notNull(),
    /** real (remote or by a reader), estimada (by the distributor), autolectura (by the customer). */
    origen: text('origen').notNull(),
    /** Active energy registers, whole kWh, one per energy period of the tariff, P1 first. */
    activaKwh: integer('activa_kwh').array().notNull(),
    /** Exported energy register, whole kWh; null without generation. */
    exportadaKwh: integer('exportada_kwh'),
    /**
     * A self-reading its supply company passed on by a W1 (src/server/lecturas/w1.ts): the company's
     * REE code (CNMC table 1) and the request's CodigoDeSolicitud; both null otherwise.
     */
    aportadaPor: text('aportada_por'),
    codigoSolicitud: text('codigo_solicitud'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('lecturas_contador_momento_key').on(t.suministroId, t.momento),
    check('lecturas_contador_origen_check', sql`${t.origen} in ('real', 'estimada', 'autolectura')`),
  ],
);

/**
 * The distributor's D1 01 notices to a supply company (CNMC «notificación de cambios ATR desde
 * distribuidor», table 109 reasons 01–03: the meter's telemanagement became operative or stopped
 * being so; src/server/lecturas/d1.ts), written to the company's salida, and the company's answer
 * (D1 02, its acceptance or `MensajeRechazoD1`) when one arrives in its entrada.
 */
export const notificacionesD1 = pgTable(
  'notificaciones_d1',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    suministroId: integer('suministro_id')
      .notNull()
      .references(() => suministros.id, { onDelete: 'cascade' }),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** The company's exchange account that received it, and its REE code (CNMC table 1). */
    usuarioId: uuid('usuario_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    comercializadora: text('comercializadora').notNull(),
    /** CodigoDeSolicitud, 12 digits: the year and the row's number. */
    codigoSolicitud: text('codigo_solicitud').notNull(),
    /** Table 109 reason. */
    motivo: text('motivo').notNull(),
    /** FechaPrevistaAplicacionCambioATR: the day the change applies. */
    fechaAplicacion: date('fecha_aplicacion', { mode: 'string' }).notNull(),
    ruta: text('ruta').notNull(),
    enviadaEn: timestamp('enviada_en', { withTimezone: true }).notNull(),
    /** aceptada or rechazada once the company answered; null until then. */
    respuesta: text('respuesta'),
    respondidaEn: timestamp('respondida_en', { withTimezone: true }),
    /** The rejection's reasons as the company wrote them (code and comment). */
    motivosRechazo: jsonb('motivos_rechazo').$type<{ codigo: string; comentario: string }[]>(),
  },
  (t) => [
    uniqueIndex('notificaciones_d1_codigo_key').on(t.distribuidora, t.codigoSolicitud),
    index('notificaciones_d1_suministro_idx').on(t.suministroId, t.enviadaEn),
    check('notificaciones_d1_respuesta_check', sql`${t.respuesta} in ('aceptada', 'rechazada')`),
  ],
);

/**
 * What the distributor knows of a meter now: whether it communicates, its power control element
 * and the supply. Changed by telemanagement imports and by administrators; one row per supply point.
 */
export const estadosContador = pgTable(
  'estado_contador',
  {
    suministroId: integer('suministro_id')
      .primaryKey()
      .references(() => suministros.id, { onDelete: 'cascade' }),
    /** The smart meter answers the concentrator (false also for meters without telemanagement). */
    comunica: boolean('comunica').notNull(),
    /** Last successful communication; null when it never communicated. */
    ultimaComunicacion: timestamp('ultima_comunicacion', { withTimezone: true }),
    /**
     * Power control element: cerrado (power available), abierto_exceso (tripped by demand above the
     * contracted power), abierto_remoto (opened by the distributor), sin_elemento (maximeter, no switch).
     */
    interruptor: text('interruptor').notNull(),
    /** con_suministro, sin_suministro (a fault or an interruption), cortado (cut on request: non-payment, termination). */
    estadoSuministro: text('estado_suministro').notNull(),
    /** Why, in Spanish, for the holder (the reason for a cut, the fault being repaired); null when nothing to say. */
    motivo: text('motivo'),
    /** telegestion, administrador, importacion or demo. */
    origen: text('origen').notNull(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoPor: uuid('actualizado_por').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('estado_contador_interruptor_check', sql`${t.interruptor} in ('cerrado', 'abierto_exceso', 'abierto_remoto', 'sin_elemento')`),
    check('estado_contador_suministro_check', sql`${t.estadoSuministro} in ('con_suministro', 'sin_suministro', 'cortado')`),
    check('estado_contador_origen_check', sql`${t.origen} in ('telegestion', 'administrador', 'importacion', 'demo')`),
  ],
);

/** Consumption certificates as issued: what they stated, the PDF itself and its verification code. */
export const certificadosConsumo = pgTable(
  'certificados_consumo',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Verification code printed on the certificate; unguessable. */
    codigo: text('codigo').notNull(),
    /** Who asked for it; the administrator behind an impersonated session, if any. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    suplantadoPor: uuid('suplantado_por').references(() => users.id, { onDelete: 'set null' }),
    suministroId: integer('suministro_id')
      .notNull()
      .references(() => suministros.id),
    cups: text('cups').notNull(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** First and last civil day certified. */
    desde: date('desde', { mode: 'string' }).notNull(),
    hasta: date('hasta', { mode: 'string' }).notNull(),
    /** Everything the certificate states, as issued: holder, tariff, powers, months by period, totals, real share. */
    contenido: jsonb('contenido').notNull(),
    /** The PDF as issued, and its SHA-256 (hex) so anyone can check a copy. */
    pdf: bytea('pdf').notNull(),
    sha256: text('sha256').notNull(),
    emitidoEn: timestamp('emitido_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('certificados_consumo_codigo_key').on(t.codigo),
    index('certificados_consumo_usuario_idx').on(t.userId, t.emitidoEn),
    index('certificados_consumo_suministro_idx').on(t.suministroId, t.emitidoEn),
  ],
);

/**
 * A holder's calendar subscription to their scheduled readings (decision 013): one secret address per
 * account, kept only as the SHA-256 of its token (the address is shown once, when it is made).
 */
export const suscripcionesCalendario = pgTable(
  'suscripciones_calendario',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the token in the address. */
    tokenHash: text('token_hash').notNull(),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    /** Last time a calendar read it. */
    usadoEn: timestamp('usado_en', { withTimezone: true }),
  },
  (t) => [uniqueIndex('suscripciones_calendario_token_key').on(t.tokenHash)],
);

/**
 * The monthly SIPS files of each distributor (docs/sector.md §3; docs/decisions/016): one row per
 * distributor, month, kind and layout, with what the file holds and how to check it.
 */
export const sipsFicheros = pgTable(
  'sips_ficheros',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** First day of the month the file is of. */
    mes: date('mes', { mode: 'string' }).notNull(),
    /** PS_ELECTRICIDAD or CONSUMOS_ELECTRICIDAD. */
    tipo: text('tipo').notNull(),
    /** v2 or sips2026. */
    version: text('version').notNull(),
    /** The CNMC file name, e.g. 202611_SIPS2026_PS_ELECTRICIDAD_epd.csv (stored gzip-compressed). */
    nombre: text('nombre').notNull(),
    /** generando while it is written, listo when it can be served, fallido when writing stopped. */
    estado: text('estado').notNull(),
    /** Data rows (the header not counted), bytes of the CSV and of its gzip, SHA-256 of the CSV. */
    filas: integer('filas'),
    bytes: bigint('bytes', { mode: 'number' }),
    bytesGzip: bigint('bytes_gzip', { mode: 'number' }),
    sha256: text('sha256'),
    /** Why writing stopped (fallido). */
    error: text('error'),
    iniciadoEn: timestamp('iniciado_en', { withTimezone: true }).notNull().defaultNow(),
    generadoEn: timestamp('generado_en', { withTimezone: true }),
    /** The administrator who asked for it; null when the monthly job wrote it. */
    generadoPor: uuid('generado_por').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('sips_ficheros_clave').on(t.distribuidora, t.mes, t.tipo, t.version),
    check('sips_ficheros_tipo_check', sql`${t.tipo} in ('PS_ELECTRICIDAD', 'CONSUMOS_ELECTRICIDAD')`),
    check('sips_ficheros_version_check', sql`${t.version} in ('v2', 'sips2026')`),
    check('sips_ficheros_estado_check', sql`${t.estado} in ('generando', 'listo', 'fallido')`),
  ],
);

/** The gzip bytes of a SIPS file, in pieces of at most 1 MiB, in order: any server process can serve them. */
export const sipsFicherosTrozos = pgTable(
  'sips_ficheros_trozos',
  {
    ficheroId: integer('fichero_id')
      .notNull()
      .references(() => sipsFicheros.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    datos: bytea('datos').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ficheroId, t.n] })],
);

/**
 * A case (expediente, docs/decisions/017): a numbered file of one procedure (an access and
 * connection request today; queries, claims and ATR requests share it) between an applicant account
 * and a distributor, with its current step, whose turn it is and the deadline of that turn. The
 * procedure's own data is in `datos`; its timeline, messages and documents hang from it.
 */
export const expedientes = pgTable(
  'expedientes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The public number; the reference shown is the procedure's prefix, the year and this number. */
    numero: integer('numero').notNull().generatedAlwaysAsIdentity(),
    /** The procedure: acceso (RD 1183/2020), consulta, reclamacion, atr, modificacion. */
    procedimiento: text('procedimiento').notNull(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** The applicant's account. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The procedure's step (borrador until it is filed). */
    paso: text('paso').notNull(),
    /** Whose turn it is: solicitante, distribuidora, or null once the case is closed. */
    turno: text('turno'),
    /** Last day (Europe/Madrid civil date) of the current turn's deadline; null when the step has none. */
    vence: date('vence', { mode: 'string' }),
    /** The rule that set `vence`, in Spanish, as both sides see it. */
    plazoRegla: text('plazo_regla'),
    /** The procedure's kind of case (for an access request: demanda, generacion, autoconsumo, almacenamiento, hibrida). */
    tipo: text('tipo'),
    /** The procedure's own data (the request form). */
    datos: jsonb('datos').$type<Record<string, unknown>>().notNull().default({}),
    presentadoEn: timestamp('presentado_en', { withTimezone: true }),
    cerradoEn: timestamp('cerrado_en', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('expedientes_numero_key').on(t.numero),
    index('expedientes_usuario_idx').on(t.userId, t.procedimiento, t.createdAt),
    // The staff queue: a distributor's open filed cases of a procedure by deadline (overdue ones
    // have the earliest), then by filing: the queue's ORDER BY walks this index and stops at a page.
    index('expedientes_cola_idx')
      .on(t.distribuidora, t.procedimiento, t.vence, t.presentadoEn, t.id)
      .where(sql`${t.cerradoEn} is null and ${t.presentadoEn} is not null`),
    // A queue asked for one step (a closed state included, as the ATR staff ask for «activada»): the
    // cases of a procedure in that step, in the queue's order, so a page stops early instead of
    // sorting every closed case of the distributor (docs/decisions/053).
    index('expedientes_paso_idx')
      .on(t.distribuidora, t.procedimiento, t.paso, t.vence, t.presentadoEn, t.id)
      .where(sql`${t.presentadoEn} is not null`),
    // The contact queue reads queries and claims together (docs/decisions/018): its own partial
    // index in the same order, so a page stops early instead of sorting both procedures' cases.
    index('expedientes_cola_contacto_idx')
      .on(t.distribuidora, t.vence, t.presentadoEn, t.id)
      .where(sql`${t.procedimiento} in ('consulta', 'reclamacion') and ${t.cerradoEn} is null and ${t.presentadoEn} is not null`),
    // ATR requests (docs/decisions/020): the open ones of a supply point (tabla 27 codes 37–40), and a
    // company's request by its CodigoDeSolicitud (an anulación names it).
    index('expedientes_atr_cups_idx')
      .on(sql`(${t.datos}->>'cups')`)
      .where(sql`${t.procedimiento} = 'atr' and ${t.cerradoEn} is null`),
    index('expedientes_atr_solicitud_idx')
      .on(t.userId, sql`(${t.datos}->>'codigoSolicitud')`)
      .where(sql`${t.procedimiento} = 'atr'`),
    // Contractual modifications (docs/decisions/052): a supply point's requests (the one in progress,
    // the last activations), the staff list by distributor, and a request by the number it had before
    // it moved onto the core.
    index('expedientes_modificacion_suministro_idx')
      .on(sql`((${t.datos}->>'suministroId')::int)`, t.createdAt)
      .where(sql`${t.procedimiento} = 'modificacion'`),
    // The staff list's order, in progress first and then newest, walked backwards until a page of the
    // distributors asked for is filled (one distributor or all of an administrator's); the distributor
    // is in the index so the list's total is counted from it alone.
    index('expedientes_modificacion_idx')
      .on(sql`(${t.cerradoEn} is null)`, t.createdAt, t.numero, t.distribuidora)
      .where(sql`${t.procedimiento} = 'modificacion'`),
    index('expedientes_modificacion_numero_anterior_idx')
      .on(sql`((${t.datos}->>'numeroAnterior')::int)`)
      .where(sql`${t.procedimiento} = 'modificacion'`),
    check('expedientes_turno_check', sql`${t.turno} in ('solicitante', 'distribuidora')`),
  ],
);

/**
 * The timeline of a case: one row per step taken or message sent, by whom and from which side,
 * with the deadline it set. Messages between the applicant and the distributor are the `mensaje`.
 */
export const expedienteEventos = pgTable(
  'expediente_eventos',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    expedienteId: uuid('expediente_id')
      .notNull()
      .references(() => expedientes.id, { onDelete: 'cascade' }),
    /** The action taken (presentar, pedir_subsanacion, admitir_silencio, …). */
    accion: text('accion').notNull(),
    /** The step the case was left in. */
    paso: text('paso').notNull(),
    /** solicitante, distribuidora, or sistema (the scheduled jobs). */
    lado: text('lado').notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    suplantadoPor: uuid('suplantado_por').references(() => users.id, { onDelete: 'set null' }),
    momento: timestamp('momento', { withTimezone: true }).notNull().defaultNow(),
    mensaje: text('mensaje'),
    /** What the action recorded (the propuesta previa's conditions, the grounds of a denial…). */
    datos: jsonb('datos').$type<Record<string, unknown>>(),
    /** The deadline this step set, if any. */
    vence: date('vence', { mode: 'string' }),
  },
  (t) => [
    index('expediente_eventos_expediente_idx').on(t.expedienteId, t.momento),
    check('expediente_eventos_lado_check', sql`${t.lado} in ('solicitante', 'distribuidora', 'sistema')`),
  ],
);

/**
 * A document of a case, from either side: checked by its bytes (PDF, JPEG, PNG), stored under its
 * id with the name it came with. Uploaded first as pending (`eventoId` null), it is attached to the
 * next step its side takes; a pending document can still be removed by whoever uploaded it.
 */
export const documentos = pgTable(
  'documentos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    expedienteId: uuid('expediente_id')
      .notNull()
      .references(() => expedientes.id, { onDelete: 'cascade' }),
    eventoId: bigint('evento_id', { mode: 'number' }).references(() => expedienteEventos.id, { onDelete: 'set null' }),
    lado: text('lado').notNull(),
    /** What the document is (the procedure's list: autorizacion, garantia, memoria, propuesta_previa, permisos, otro…). */
    clase: text('clase').notNull(),
    /** The file's name as uploaded (checked: no path, no control characters). */
    nombre: text('nombre').notNull(),
    /** application/pdf, image/jpeg or image/png, from the bytes. */
    tipoMime: text('tipo_mime').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    subidoPor: uuid('subido_por').references(() => users.id, { onDelete: 'set null' }),
    subidoEn: timestamp('subido_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('documentos_expediente_idx').on(t.expedienteId, t.subidoEn),
    check('documentos_lado_check', sql`${t.lado} in ('solicitante', 'distribuidora')`),
    check('documentos_tipo_check', sql`${t.tipoMime} in ('application/pdf', 'image/jpeg', 'image/png')`),
  ],
);

/** A document's bytes in pieces of at most 256 KiB, in order: every server process reaches every document. */
export const documentosTrozos = pgTable(
  'documentos_trozos',
  {
    documentoId: uuid('documento_id')
      .notNull()
      .references(() => documentos.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    datos: bytea('datos').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentoId, t.n] })],
);

/**
 * The file exchange of supply companies (docs/decisions/019): every file and folder an account sees
 * over SFTP and on the FTP screen, under `/<distribuidora>/entrada` (what the company sends),
 * `/<distribuidora>/salida` (what the distributor sends it) and the folders it makes. Those fixed
 * folders are not rows: they exist for each distributor the account holds `-comercializadora` for.
 * Paths are kept whole and normalised (`/epd/entrada/x.xml`), with their parent folder beside them.
 */
export const ficherosIntercambio = pgTable(
  'ficheros_intercambio',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    usuarioId: uuid('usuario_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    ruta: text('ruta').notNull(),
    /** The folder the entry is in (`/epd/entrada`). */
    padre: text('padre').notNull(),
    carpeta: boolean('carpeta').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256'),
    /** Who wrote it: the company itself, or the distributor (its answers in salida/). */
    origen: text('origen').notNull().default('empresa'),
    modificadoEn: timestamp('modificado_en', { withTimezone: true }).notNull().defaultNow(),
    /** When the exchange read a file that landed in entrada/ (null: waiting to be read). */
    procesadoEn: timestamp('procesado_en', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ficheros_intercambio_ruta').on(t.usuarioId, t.ruta),
    index('ficheros_intercambio_padre').on(t.usuarioId, t.padre),
    index('ficheros_intercambio_pendientes')
      .on(t.modificadoEn)
      .where(sql`${t.procesadoEn} is null and not ${t.carpeta}`),
    check('ficheros_intercambio_origen_check', sql`${t.origen} in ('empresa', 'distribuidora')`),
  ],
);

/** A file's bytes in pieces of at most 1 MiB, in order. */
export const ficherosIntercambioTrozos = pgTable(
  'ficheros_intercambio_trozos',
  {
    ficheroId: bigint('fichero_id', { mode: 'number' })
      .notNull()
      .references(() => ficherosIntercambio.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    datos: bytea('datos').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ficheroId, t.n] })],
);

/** The SSH public keys an account logs in to the SFTP exchange with (OpenSSH `authorized_keys` lines). */
export const clavesSsh = pgTable(
  'claves_ssh',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    usuarioId: uuid('usuario_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ssh-ed25519, ecdsa-sha2-nistp256…, ssh-rsa. */
    tipo: text('tipo').notNull(),
    /** The key's blob in base64, as in authorized_keys. */
    clave: text('clave').notNull(),
    /** SHA256:… as `ssh-keygen -lf` prints it. */
    huella: text('huella').notNull(),
    comentario: text('comentario').notNull().default(''),
    creadaEn: timestamp('creada_en', { withTimezone: true }).notNull().defaultNow(),
    usadaEn: timestamp('usada_en', { withTimezone: true }),
  },
  (t) => [uniqueIndex('claves_ssh_huella').on(t.usuarioId, t.huella)],
);

/**
 * Fault reports from "No tengo luz" (docs/decisions/023): a person without power whose supply point
 * no known incident or meter state explains. Each keeps the supply point's area (postal code and
 * municipality, copied from the register) so the staff queue groups them; never the holder's data.
 * Staff confirm a group as a network incident (`incidencia_id`) or dismiss a report.
 */
export const averias = pgTable(
  'averias',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The public number; the reference is AV-<year>-<number> (src/lib/averias/referencia.ts). */
    numero: integer('numero').notNull().generatedAlwaysAsIdentity(),
    /** Public reference, fixed at registration. */
    referencia: text('referencia').notNull(),
    distribuidora: text('distribuidora')
      .notNull()
      .references(() => distribuidoras.codigo),
    /** CUPS, 20-character base. */
    cups: text('cups').notNull(),
    codigoPostal: text('codigo_postal').notNull(),
    municipio: text('municipio').notNull(),
    codigoIne: text('codigo_ine').notNull(),
    provincia: text('provincia').notNull(),
    /** Optional contact the person leaves on the public form. */
    telefono: text('telefono'),
    email: text('email'),
    /** publico (the public page) or area_privada (a logged-in holder). */
    origen: text('origen').notNull(),
    /** The logged-in account that reported it, if any. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** pendiente, incidencia (confirmed as a network incident) or descartada. */
    estado: text('estado').notNull().default('pendiente'),
    incidenciaId: uuid('incidencia_id').references(() => incidenciasRed.id, { onDelete: 'set null' }),
    resueltoEn: timestamp('resuelto_en', { withTimezone: true }),
    resueltoPor: uuid('resuelto_por').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('averias_numero_key').on(t.numero),
    uniqueIndex('averias_referencia_key').on(t.referencia),
    // The staff queue: a distributor's pending reports, newest first.
    index('averias_cola_idx')
      .on(t.distribuidora, t.createdAt)
      .where(sql`${t.estado} = 'pendiente'`),
    // A second report of the same supply point while one is pending answers the same reference:
    // unique, so two reports sent at the same instant (a surge after a blackout) store one row.
    uniqueIndex('averias_cups_pendiente_idx')
      .on(t.cups)
      .where(sql`${t.estado} = 'pendiente'`),
    check('averias_estado_check', sql`${t.estado} in ('pendiente', 'incidencia', 'descartada')`),
    check('averias_origen_check', sql`${t.origen} in ('publico', 'area_privada')`),
  ],
);

/**
 * A holder's choice to be told by e-mail of the network interruptions that concern one of their
 * supply points (docs/decisions/025-avisos-de-corte.md). A stop ends it (`baja_en`) rather than
 * deleting it, so the stop link of an older mail answers "already stopped" instead of "unknown"; a
 * new subscription is a new row, so an old link never stops it.
 */
export const avisosCorteSuscripciones = pgTable(
  'avisos_corte_suscripciones',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** CUPS as the supply point's row holds it (20 or 22 characters). */
    cups: text('cups').notNull(),
    creadaEn: timestamp('creada_en', { withTimezone: true }).notNull().defaultNow(),
    /** When it stopped; null while it is in force. */
    bajaEn: timestamp('baja_en', { withTimezone: true }),
    /** cuenta (the holder's screen) or enlace (the stop link of a mail). */
    bajaPor: text('baja_por'),
  },
  (t) => [
    // At most one subscription in force per account and supply point.
    uniqueIndex('avisos_corte_suscripciones_vigente_key')
      .on(t.userId, t.cups)
      .where(sql`${t.bajaEn} is null`),
    check('avisos_corte_suscripciones_baja_check', sql`(${t.bajaEn} is null) = (${t.bajaPor} is null)`),
    check('avisos_corte_suscripciones_baja_por_check', sql`${t.bajaPor} in ('cuenta', 'enlace')`),
  ],
);

/**
 * One row per interruption alert mailed: the key (incident, event, version, address) makes an
 * event mail an address at most once, whatever retries or repeated actions happen.
 */
export const avisosCorteEnviados = pgTable(
  'avisos_corte_enviados',
  {
    incidenciaId: uuid('incidencia_id')
      .notNull()
      .references(() => incidenciasRed.id, { onDelete: 'cascade' }),
    /** publicada, cambiada, cancelada, comienza or termina. */
    evento: text('evento').notNull(),
    /** Which change a `cambiada` is (the instant it was saved); empty for the events that happen once. */
    version: text('version').notNull(),
    /** Lower-case address the alert went to. */
    email: text('email').notNull(),
    /** Supply points of that address the alert named. */
    suministros: integer('suministros').notNull(),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.incidenciaId, t.evento, t.version, t.email] }),
    check('avisos_corte_enviados_evento_check', sql`${t.evento} in ('publicada', 'cambiada', 'cancelada', 'comienza', 'termina')`),
  ],
);

/**
 * Authorisations a holder gives another NIF to read chosen data of chosen supply points until an end
 * date (docs/decisions/028-autorizaciones.md). By NIF, not by account: an account registered later
 * with that NIF sees them too. Revoking stamps `revocada_en` rather than deleting, so both sides keep
 * the history and the audit log's references stay meaningful.
 */
export const autorizaciones = pgTable(
  'autorizaciones',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The holder's NIF when it was given: it stays valid only while the supply points are still theirs. */
    titularNif: text('titular_nif').notNull(),
    /** The holder's name as the authorised side sees it ("Autorizado por …"). */
    titularNombre: text('titular_nombre').notNull(),
    /** The account that gave it. */
    titularUserId: uuid('titular_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The NIF, NIE or CIF authorised, normalised (upper case, no separators). */
    autorizadoNif: text('autorizado_nif').notNull(),
    /** Name or company name of the authorised, as the holder wrote it. */
    autorizadoNombre: text('autorizado_nombre').notNull(),
    /** What it opens besides the contract data it always opens: curvas, potencias, certificados. */
    datos: text('datos').array().notNull(),
    /** First and last civil day in force (Spain). */
    inicio: date('inicio', { mode: 'string' }).notNull(),
    fin: date('fin', { mode: 'string' }).notNull(),
    creadaEn: timestamp('creada_en', { withTimezone: true }).notNull().defaultNow(),
    /** When the holder revoked it; null otherwise. */
    revocadaEn: timestamp('revocada_en', { withTimezone: true }),
  },
  (t) => [
    index('autorizaciones_autorizado_idx').on(t.autorizadoNif, t.fin),
    index('autorizaciones_titular_idx').on(t.titularNif, t.creadaEn),
    check('autorizaciones_fechas_check', sql`${t.fin} >= ${t.inicio}`),
    check('autorizaciones_datos_check', sql`cardinality(${t.datos}) > 0 and ${t.datos} <@ array['curvas', 'potencias', 'certificados']`),
  ],
);

/** The supply points one authorisation opens. */
export const autorizacionesSuministros = pgTable(
  'autorizaciones_suministros',
  {
    autorizacionId: uuid('autorizacion_id')
      .notNull()
      .references(() => autorizaciones.id, { onDelete: 'cascade' }),
    suministroId: integer('suministro_id')
      .notNull()
      .references(() => suministros.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.autorizacionId, t.suministroId] }),
    index('autorizaciones_suministros_suministro_idx').on(t.suministroId),
  ],
);
