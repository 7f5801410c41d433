/**
 * Database schema (PostgreSQL dialect, shared by PGlite and node-postgres).
 * Changes here need `npm run db:generate` to write the SQL migration that start applies.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The distributors of CONTRACT.md; rows are kept in step with `src/lib/distribuidoras.ts` at start. */
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
    /** pendiente (awaiting activation), activo, inactivo (deactivated by an administrator). */
    estado: text('estado').notNull().default('pendiente'),
    createdAt: createdAt(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_nif_key').on(t.nif),
    uniqueIndex('users_email_key').on(t.email),
    check('users_estado_check', sql`${t.estado} in ('pendiente', 'activo', 'inactivo')`),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
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
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actorUserId, t.at),
    index('audit_log_action_idx').on(t.action, t.at),
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
    index('mail_outbox_pending_idx').on(t.nextAttemptAt).where(sql`${t.estado} = 'pendiente'`),
    check('mail_outbox_estado_check', sql`${t.estado} in ('pendiente', 'enviado', 'fallido')`),
  ],
);
