/**
 * Consumption certificates: POST /api/certificados issues one for a supply point of the
 * caller's (or one an authorisation in force opens for certificates, docs/decisions/028: the
 * certificate still names the holder as holder) and a period of whole past months; GET /api/certificados lists the caller's, newest first;
 * GET /api/certificados/{id}/pdf answers the very bytes issued; GET /api/verificarCertificado (public,
 * limited per address) tells anyone holding a code whether it is genuine and what it stated, with the
 * holder's NIF partly hidden. Anyone else's supply point or certificate answers 404, never the data.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { errorCodigo } from '../../lib/certificados/codigo.ts';
import { CertificadoSchema, VerificacionSchema, type CertificadoRespuesta } from '../../lib/certificados/respuestas.ts';
import { enmascararNif } from '../../lib/certificados/contenido.ts';
import { authOf, requireArea, requireAuth } from '../auth/middleware.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import type { AuthEnv } from '../http/context.ts';
import { notFound, ValidationError } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, pdfResponse, validationResponse } from '../http/openapi.ts';
import { descargaPdf } from '../http/peticion.ts';
import { addressKey, clientAddress } from '../http/cliente.ts';
import { consumir, devolver, LIMITES, sujetoCuenta } from '../rate-limit/service.ts';
import { auditarLectura, type AccesoAutorizado } from '../autorizaciones/service.ts';
import { accesosDelLector, lectorAutorizadoDe, lectorDe, suministroLegible } from '../suministros/acceso.ts';
import {
  certificadoConPdf,
  emitirCertificado,
  listarCertificados,
  verificarCodigo,
  type CertificadoGuardado,
  type Propietario,
} from './service.ts';

const MES = /^\d{4}-(0[1-9]|1[0-2])$/;

const EmitirBody = z
  .object({
    /** CUPS of one of the caller's supply points. */
    cups: z
      .string({ error: 'Elija el suministro.' })
      .trim()
      .min(20, 'El CUPS no es válido.')
      .max(22, 'El CUPS no es válido.')
      .openapi({ example: 'ES9901000000000001QY', description: 'CUPS de uno de los suministros del usuario, de 20 o 22 caracteres.' }),
    /** First month certified, YYYY-MM. */
    desde: z
      .string({ error: 'Indique el mes de inicio.' })
      .regex(MES, 'Indique el mes de inicio como AAAA-MM.')
      .openapi({ example: '2025-11', description: 'Primer mes que se certifica, AAAA-MM.' }),
    /** Last month certified, YYYY-MM: a complete month before the current one. */
    hasta: z.string({ error: 'Indique el mes de fin.' }).regex(MES, 'Indique el mes de fin como AAAA-MM.').openapi({
      example: '2026-10',
      description:
        'Último mes que se certifica, AAAA-MM: un mes ya terminado (anterior al mes en curso), como mucho 24 meses después de `desde`.',
    }),
  })
  .openapi('EmitirCertificado');

const seguridad = [{ Bearer: [] }];
const errores = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-distribucion»'),
};

const emitir = createRoute({
  method: 'post',
  path: '/certificados',
  tags: ['Consumidores'],
  summary: 'Emitir un certificado de consumo',
  description:
    'Genera en el servidor un certificado en PDF del consumo de un suministro del usuario por mes y periodo tarifario, para meses completos ya terminados (hasta 24), y lo guarda con su código de verificación y la huella SHA-256 del PDF. Rechaza (400) un periodo sin ninguna medida o que incluya el mes en curso. Como máximo 20 certificados por hora y cuenta (429).',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: jsonBody(EmitirBody),
  responses: {
    201: jsonResponse(CertificadoSchema, 'El certificado emitido'),
    400: validationResponse('Periodo no válido o sin datos'),
    ...errores,
    404: errorResponse('No es un suministro del usuario'),
    429: errorResponse('Demasiados certificados en poco tiempo'),
  },
});

const listar = createRoute({
  method: 'get',
  path: '/certificados',
  tags: ['Consumidores'],
  summary: 'Certificados de consumo emitidos',
  description:
    'Los certificados que el usuario ha emitido como titular, o con una autorización vigente para certificados del suministro, del más reciente al más antiguo (hasta 200). Un certificado solo lo ve el titular que figura en él, o quien lo emitió mientras dure su autorización: el nuevo titular de un suministro no ve los de titulares anteriores.',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  responses: {
    200: jsonResponse(z.array(CertificadoSchema), 'Los certificados'),
    ...errores,
  },
});

const IdParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({
      param: { name: 'id', in: 'path', description: 'Identificador (UUID) del certificado, el campo `id` de Certificado.' },
      example: '4f0c9a52-6a43-4d7e-9a1b-2b7f0d3c8e11',
    }),
});

const pdf = createRoute({
  method: 'get',
  path: '/certificados/{id}/pdf',
  tags: ['Consumidores'],
  summary: 'Descargar de nuevo un certificado',
  description: 'El PDF exactamente como se emitió (los mismos bytes, con la misma huella SHA-256).',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { params: IdParams },
  responses: {
    200: pdfResponse,
    ...errores,
    404: errorResponse('No es un certificado del usuario'),
  },
});

const verificar = createRoute({
  method: 'get',
  path: '/verificarCertificado',
  tags: ['Público'],
  summary: 'Verificar un certificado de consumo',
  description:
    'Pública. Dice si un código de verificación corresponde a un certificado emitido y qué declaraba (distribuidora, CUPS, titular con el NIF parcialmente oculto, periodo, totales por mes, fecha de emisión y huella SHA-256 del PDF). Admite el código en mayúsculas o minúsculas, con o sin guiones, y O por 0, I o L por 1. Los códigos que no corresponden a ningún certificado cuentan para un límite por dirección (20 cada 15 minutos; 429).',
  request: {
    query: z.object({
      codigo: z
        .string()
        .max(100)
        .optional()
        .openapi({
          example: '7K2M-9QXD-R4TB-H0WZ',
          param: {
            description:
              'Código de verificación que figura en el certificado, XXXX-XXXX-XXXX-XXXX; en mayúsculas o minúsculas, con o sin guiones.',
          },
        }),
    }),
  },
  responses: {
    200: jsonResponse(VerificacionSchema, 'Certificado auténtico'),
    400: validationResponse('El texto no tiene forma de código'),
    404: errorResponse('Ningún certificado tiene ese código'),
    429: errorResponse('Demasiadas consultas sin resultado desde esta dirección'),
  },
});

/** The caller as the owner of certificates, with what authorisations in force open for certificates. */
async function propietarioDe<E extends AuthEnv>(c: Context<E>): Promise<{ p: Propietario; accesos: AccesoAutorizado[] }> {
  const auth = authOf(c);
  const accesos = (await accesosDelLector(c)).filter((a) => a.datos.includes('certificados'));
  return { p: { ...lectorDe(c), userId: auth.userId, cupsAutorizados: accesos.map((a) => a.suministro.cups) }, accesos };
}

/** One audit entry per supply point whose certificates were read through an authorisation (docs/decisions/028). */
async function auditarCertificados<E extends AuthEnv>(c: Context<E>, accesos: AccesoAutorizado[], leidos: readonly { cups: string }[]) {
  const cups = new Set(leidos.map((x) => x.cups));
  for (const a of accesos) {
    if (cups.has(a.suministro.cups)) await auditarLectura(c.get('deps').db, lectorAutorizadoDe(c), a, 'certificados');
  }
}

/** The name a certificate's PDF is saved under. */
function nombreFichero(x: CertificadoGuardado): string {
  return `certificado-consumo_${x.cups}_${x.contenido.periodo.desdeMes}_${x.contenido.periodo.hastaMes}.pdf`;
}

/** The API shape of a stored certificate. */
function certificadoApi(x: CertificadoGuardado): CertificadoRespuesta {
  const k = x.contenido;
  return {
    id: x.id,
    codigo: x.codigo,
    cups: x.cups,
    distribuidora: x.distribuidora,
    distribuidoraNombre: nombreDistribuidora(x.distribuidora),
    direccion: `${k.suministro.direccion}, ${k.suministro.codigoPostal} ${k.suministro.municipio}`,
    titular: k.titular.nombre,
    tarifa: k.suministro.tarifa,
    desdeMes: k.periodo.desdeMes,
    hastaMes: k.periodo.hastaMes,
    desde: k.periodo.desde,
    hasta: k.periodo.hasta,
    totalWh: k.total.totalWh,
    horasSinDato: k.total.horasSinDato,
    emitidoEn: x.emitidoEn.toISOString(),
    zonaHoraria: k.zonaHoraria,
    sha256: x.sha256,
    bytes: x.bytes,
    titularActual: x.titularActual,
    urlVerificacion: k.urlVerificacion,
    fichero: nombreFichero(x),
  };
}

/** The certificates sub-app. */
export function certificadosRoutes() {
  return featureApp()
    .openapi(emitir, async (c) => {
      const body = c.req.valid('json');
      // The holder's, or one an authorisation opens for certificates: the certificate names the holder either way.
      const s = await suministroLegible(c, body.cups, 'certificados');
      const auth = authOf(c);
      const deps = c.get('deps');
      // Counted before the PDF is made; a refused period (400) gives its unit back.
      const consumos = await consumir(deps, [{ limite: LIMITES.emitirCertificado, sujeto: sujetoCuenta(auth.userId) }]);
      let emitido: CertificadoGuardado;
      try {
        emitido = await emitirCertificado(
          deps,
          s,
          { desdeMes: body.desde, hastaMes: body.hasta },
          {
            userId: auth.userId,
            suplantadoPor: auth.impersonatorUserId,
            ip: clientAddress(c),
            requestId: c.get('requestId') ?? null,
          },
        );
      } catch (err) {
        if (err instanceof ValidationError) await devolver(deps, consumos);
        throw err;
      }
      c.header('Location', `/api/certificados/${emitido.id}/pdf`);
      return c.json(certificadoApi(emitido), 201);
    })
    .openapi(listar, async (c) => {
      const { p, accesos } = await propietarioDe(c);
      const lista = await listarCertificados(c.get('deps').db, p);
      await auditarCertificados(c, accesos, lista);
      return c.json(lista.map(certificadoApi), 200);
    })
    .openapi(pdf, async (c) => {
      const { p, accesos } = await propietarioDe(c);
      const x = await certificadoConPdf(c.get('deps').db, p, c.req.valid('param').id);
      if (!x) throw notFound('No encontramos ese certificado entre los suyos.');
      await auditarCertificados(c, accesos, [x]);
      return descargaPdf(c, x.pdf, nombreFichero(x), { ETag: `"${x.sha256}"` });
    })
    .openapi(verificar, async (c) => {
      const codigo = c.req.valid('query').codigo ?? '';
      const error = errorCodigo(codigo);
      if (error) throw new ValidationError([error]);
      const r = await verificarCodigo(c.get('deps'), codigo, addressKey(clientAddress(c)));
      if (!r.encontrado) {
        throw notFound(
          'No hay ningún certificado con ese código. Compruebe que lo ha copiado tal como figura en el certificado; si es así, el documento no lo ha emitido ninguna de nuestras distribuidoras.',
        );
      }
      const k = r.contenido;
      return c.json(
        {
          valido: true as const,
          codigo: k.codigo,
          distribuidora: { codigo: k.distribuidora.codigo, nombre: k.distribuidora.nombre, nif: k.distribuidora.nif },
          cups: k.suministro.cups,
          titular: { nombre: k.titular.nombre, nif: enmascararNif(k.titular.nif) },
          tarifa: k.suministro.tarifa,
          periodo: k.periodo,
          periodos: k.periodos,
          meses: k.meses,
          total: k.total,
          emitidoEn: r.emitidoEn.toISOString(),
          zonaHoraria: k.zonaHoraria,
          sha256: r.sha256,
        },
        200,
      );
    });
}
