/**
 * Consumption certificates (docs/decisions/009): issuing one for a holder's supply point
 * from its stored hourly curve, keeping it (what it states, its PDF and the PDF's SHA-256, who
 * asked), listing and re-downloading a holder's certificates, and the public verification by code.
 *
 * A certificate belongs to the holder it names: it is shown to the account whose NIF it states
 * (and that issued it), while that account keeps `-distribucion` in the certificate's distributor;
 * a later holder of the same supply point never sees it.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { cifrasCertificado, tieneDatos } from '../../lib/certificados/cifras.ts';
import { generarCodigo, normalizarCodigo, formatearCodigo } from '../../lib/certificados/codigo.ts';
import { urlVerificacion, VERSION_CONTENIDO, type ContenidoCertificado } from '../../lib/certificados/contenido.ts';
import { identidadDistribuidora } from '../../lib/certificados/identidad.ts';
import { diasDelPeriodo, erroresPeriodo, mesEnCurso } from '../../lib/certificados/periodo.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { rangoDias } from '../../lib/calendario/hora-civil.ts';
import { esCodigoTarifa, zonaHorariaDe } from '../../lib/medidas/periodos.ts';
import { rangoEnPalabras } from '../../lib/formato/fechas.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { certificadosConsumo, suministros } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import { ValidationError } from '../http/errors.ts';
import { zonaElectricaDeIne } from '../medidas/potencias.ts';
import { leerCurva, medidasDeCurva } from '../medidas/service.ts';
import { consumir, devolver, LIMITES, type RateLimitDeps } from '../rate-limit/service.ts';
import type { Lector, Suministro } from '../suministros/service.ts';
import { generarPdfCertificado } from './pdf.ts';

/** What issuing needs from the app's dependencies. */
export interface DepsCertificados {
  db: Db;
  clock: Clock;
  config: { publicUrl: string };
}

/** Who asks for a certificate: the account, and the administrator behind an impersonated session. */
export interface Solicitante {
  userId: string;
  suplantadoPor: string | null;
  /** For the audit log. */
  ip?: string | null;
  requestId?: string | null;
}

/** A stored certificate without its PDF bytes. */
export interface CertificadoGuardado {
  id: string;
  codigo: string;
  cups: string;
  distribuidora: CodigoDistribuidora;
  contenido: ContenidoCertificado;
  sha256: string;
  /** Size of the PDF in bytes. */
  bytes: number;
  emitidoEn: Date;
  /** Whether the account still holds the supply point (false: a former supply point of theirs). */
  titularActual: boolean;
}

/** The SHA-256 of bytes, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Issues a certificate of `suministro` (already checked to be the caller's) for the months
 * `desdeMes`…`hastaMes`. Refuses (400) a period that is not whole past months or that has no
 * measure at all. The caller applies the account's issue limit (src/server/certificados/routes.ts).
 */
export async function emitirCertificado(
  deps: DepsCertificados,
  s: Suministro,
  periodo: { desdeMes: string; hastaMes: string },
  quien: Solicitante,
): Promise<CertificadoGuardado> {
  const zonaElectrica = zonaElectricaDeIne(s.codigoIne);
  const zona = zonaHorariaDe(zonaElectrica);
  const ahora = deps.clock.now();
  const errores = erroresPeriodo(periodo.desdeMes, periodo.hastaMes, mesEnCurso(ahora, zona));
  if (errores.length) throw new ValidationError(errores.map((e) => e.mensaje));
  if (!esCodigoTarifa(s.tarifa)) throw new Error(`Tarifa sin tabla de periodos: ${s.tarifa}`);
  const tarifa = s.tarifa;

  const dias = diasDelPeriodo(periodo.desdeMes, periodo.hastaMes);
  const rango = rangoDias(dias.desde, dias.hasta, zona);
  const curva = await leerCurva(deps.db, s.id, rango.inicio, rango.fin, 'hora');
  const cifras = cifrasCertificado(medidasDeCurva(curva, 60), {
    tarifa,
    zona: zonaElectrica,
    desdeMes: periodo.desdeMes,
    hastaMes: periodo.hastaMes,
  });
  if (!tieneDatos(cifras.total)) {
    throw new ValidationError([
      `No hay ninguna medida de este suministro ${rangoEnPalabras(dias.desde, dias.hasta)}: no podemos certificar un consumo sin datos. Elija meses en los que ya haya consumo registrado (puede verlos en «Consumo horario»).`,
    ]);
  }

  // A code that happens to exist already (2^-80 per pair) is simply drawn again.
  for (let intento = 0; intento < 3; intento++) {
    const codigo = generarCodigo();
    const contenido: ContenidoCertificado = {
      version: VERSION_CONTENIDO,
      codigo,
      emitidoEn: ahora.toISOString(),
      zonaHoraria: zona,
      distribuidora: identidadDistribuidora(s.distribuidora as CodigoDistribuidora),
      titular: { nombre: s.titularNombre, nif: s.titularNif },
      suministro: {
        cups: s.cups,
        direccion: s.direccion,
        codigoPostal: s.codigoPostal,
        municipio: s.municipio,
        provincia: s.provincia,
        tarifa,
        potenciasKw: s.potenciasW.map((w) => w / 1000),
      },
      periodo: { desdeMes: periodo.desdeMes, hastaMes: periodo.hastaMes, ...dias },
      periodos: cifras.periodos,
      meses: cifras.meses,
      total: cifras.total,
      urlVerificacion: urlVerificacion(deps.config.publicUrl, codigo),
    };
    const pdf = await generarPdfCertificado(contenido);
    const sha256 = sha256Hex(pdf);
    const fila = await deps.db.transaction(async (tx) => {
      const [r] = await tx
        .insert(certificadosConsumo)
        .values({
          codigo,
          userId: quien.userId,
          suplantadoPor: quien.suplantadoPor,
          suministroId: s.id,
          cups: s.cups,
          distribuidora: s.distribuidora,
          desde: dias.desde,
          hasta: dias.hasta,
          contenido,
          pdf,
          sha256,
          emitidoEn: ahora,
        })
        .onConflictDoNothing({ target: certificadosConsumo.codigo })
        .returning({ id: certificadosConsumo.id });
      if (!r) return null;
      await audit(tx, {
        action: 'certificado.emitido',
        actorUserId: quien.userId,
        impersonatorUserId: quien.suplantadoPor,
        targetType: 'certificado',
        targetId: r.id,
        ip: quien.ip ?? null,
        requestId: quien.requestId ?? null,
        details: { cups: s.cups, desde: periodo.desdeMes, hasta: periodo.hastaMes },
        distribuidoras: [s.distribuidora],
      });
      return r;
    });
    if (fila) {
      return {
        id: fila.id,
        codigo,
        cups: s.cups,
        distribuidora: s.distribuidora as CodigoDistribuidora,
        contenido,
        sha256,
        bytes: pdf.length,
        emitidoEn: ahora,
        titularActual: true,
      };
    }
  }
  throw new Error('No se ha podido generar un código de verificación único.');
}

/** The caller as the owner of certificates: their account, NIF and `-distribucion` distributors. */
export interface Propietario extends Lector {
  userId: string;
  /** CUPS whose certificates an authorisation in force lets the account read (docs/decisions/028). */
  cupsAutorizados?: readonly string[];
}

/**
 * Which certificates an account sees (docs/decisions/009): issued to it, naming its NIF, in its
 * distributors; or issued to it on a supply point an authorisation in force opens for certificates,
 * naming the supply point's current holder (docs/decisions/028). The certificate always names the holder.
 */
function visibles(p: Propietario) {
  const propios = p.nif
    ? and(
        sql`${certificadosConsumo.contenido}->'titular'->>'nif' = ${p.nif}`,
        p.distribuidoras.length ? inArray(certificadosConsumo.distribuidora, [...p.distribuidoras]) : sql`false`,
      )
    : sql`false`;
  const autorizados = p.cupsAutorizados?.length
    ? and(
        inArray(certificadosConsumo.cups, [...p.cupsAutorizados]),
        sql`${certificadosConsumo.contenido}->'titular'->>'nif' = ${suministros.titularNif}`,
      )
    : sql`false`;
  return and(eq(certificadosConsumo.userId, p.userId), or(propios, autorizados));
}

const columnas = {
  id: certificadosConsumo.id,
  codigo: certificadosConsumo.codigo,
  cups: certificadosConsumo.cups,
  distribuidora: certificadosConsumo.distribuidora,
  contenido: certificadosConsumo.contenido,
  sha256: certificadosConsumo.sha256,
  bytes: sql<number>`octet_length(${certificadosConsumo.pdf})`.mapWith(Number),
  emitidoEn: certificadosConsumo.emitidoEn,
  titularActual: sql<boolean>`coalesce(${suministros.titularNif} = ${certificadosConsumo.contenido}->'titular'->>'nif', false)`.mapWith(
    Boolean,
  ),
};

type FilaLeida = Omit<CertificadoGuardado, 'distribuidora' | 'contenido'> & { distribuidora: string; contenido: unknown };

const guardado = (r: FilaLeida): CertificadoGuardado => ({
  ...r,
  distribuidora: r.distribuidora as CodigoDistribuidora,
  contenido: r.contenido as ContenidoCertificado,
  emitidoEn: new Date(r.emitidoEn),
});

/** The account's certificates, newest first (at most `limite`). */
export async function listarCertificados(db: Db, p: Propietario, limite = 200): Promise<CertificadoGuardado[]> {
  if (!p.nif || (p.distribuidoras.length === 0 && !p.cupsAutorizados?.length)) return [];
  const filas = await db
    .select(columnas)
    .from(certificadosConsumo)
    .leftJoin(suministros, eq(suministros.id, certificadosConsumo.suministroId))
    .where(visibles(p))
    .orderBy(desc(certificadosConsumo.emitidoEn))
    .limit(limite);
  return filas.map(guardado);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the account's certificates with its PDF bytes; undefined for anyone else's (the caller answers 404). */
export async function certificadoConPdf(db: Db, p: Propietario, id: string): Promise<(CertificadoGuardado & { pdf: Buffer }) | undefined> {
  if (!UUID.test(id) || !p.nif || (p.distribuidoras.length === 0 && !p.cupsAutorizados?.length)) return undefined;
  const [r] = await db
    .select({ ...columnas, pdf: certificadosConsumo.pdf })
    .from(certificadosConsumo)
    .leftJoin(suministros, eq(suministros.id, certificadosConsumo.suministroId))
    .where(and(eq(certificadosConsumo.id, id), visibles(p)));
  return r ? { ...guardado(r), pdf: r.pdf } : undefined;
}

/** What a verification found: the certificate as issued, or nothing. */
export type Verificacion = { encontrado: true; contenido: ContenidoCertificado; sha256: string; emitidoEn: Date } | { encontrado: false };

/**
 * Looks a typed code up (already checked to have the right shape). Every lookup that finds nothing
 * counts against the caller's address (`direccion`); a genuine one gives its unit back.
 */
export async function verificarCodigo(deps: RateLimitDeps, codigo: string, direccion: string): Promise<Verificacion> {
  const simbolos = normalizarCodigo(codigo);
  if (!simbolos) return { encontrado: false };
  const consumos = await consumir(deps, [{ limite: LIMITES.verificarCertificado, sujeto: direccion }]);
  const [r] = await deps.db
    .select({ contenido: certificadosConsumo.contenido, sha256: certificadosConsumo.sha256, emitidoEn: certificadosConsumo.emitidoEn })
    .from(certificadosConsumo)
    .where(eq(certificadosConsumo.codigo, formatearCodigo(simbolos)));
  if (!r) return { encontrado: false };
  await devolver(deps, consumos);
  return { encontrado: true, contenido: r.contenido as ContenidoCertificado, sha256: r.sha256, emitidoEn: new Date(r.emitidoEn) };
}
