/**
 * Every claim the portal accepts writes an R1 step 01 message valid against the CNMC's schema
 * (ReclamacionPeticion.xsd in src/server/atr/xsd; docs/decisions/039): for each subtype of table 82
 * the portal offers, a claim filed through the API, with only its required fields and with every
 * field it may take, is written by src/server/contacto/r1.ts and validated by xmllint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CasoContactoDetalle } from '../../src/lib/contacto/respuestas.ts';
import { DEFINICION_CAMPOS, SUBTIPOS_RECLAMACION, type CampoReclamacion } from '../../src/lib/contacto/tablas-r1.ts';
import { construirCups } from '../../src/lib/cups.ts';
import { validarConEsquema } from '../../src/server/atr/xml.ts';
import { codigoSolicitudR1, ESQUEMA_R101, mensajeR101 } from '../../src/server/contacto/r1.ts';
import { cuenta, llamar, nuevoCif, nuevoDni, sesion } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A valid value of each field, varied by `i` (a person or a company, a Spanish or a foreign phone). */
function valorValido(campo: CampoReclamacion, i: number): string | number {
  const def = DEFINICION_CAMPOS[campo];
  const empresa = i % 2 === 1;
  switch (campo) {
    case 'nifTitular':
      return empresa ? nuevoCif() : nuevoDni();
    case 'nombreTitular':
      return empresa ? 'Talleres Henares, S.L.' : i % 4 === 0 ? 'María José García de la Fuente' : 'Lucía Martín';
    case 'telefono':
      return empresa ? '+33 6 12 34 56 78' : '600 123 456';
    case 'ubicacionProvincia':
      return '28';
    case 'ubicacionMunicipio':
      return '28005';
    case 'ubicacionCodigoPostal':
      return '28801';
    case 'fechaHasta':
      return '2026-11-30';
    case 'fechaDesde':
      return '2026-11-29';
    default:
      break;
  }
  switch (def.clase) {
    case 'cups':
      return construirCups('9903', 4242);
    case 'fecha':
    case 'fechaHora':
      return '2026-11-30';
    case 'importe':
      return 1234.5;
    case 'numero':
      return 12_345;
    case 'iban':
      return 'ES91 2100 0418 4502 0005 1332';
    case 'codigo':
      return Object.keys(def.tabla!).at(-1)!;
    case 'cau': {
      // The CAU is the 22-character CUPS (a 20-character one followed by 0F), A and three digits.
      const cups = construirCups('9903', 4242);
      return `${cups.length === 20 ? `${cups}0F` : cups}A001`;
    }
    default:
      // Texts at their longest, where the schema's lengths bite.
      return 'A'.repeat(def.max ?? 10);
  }
}

/** The element of the R1 01 message that carries each field (nothing the claimant gave is left out). */
const ELEMENTO: Readonly<Record<CampoReclamacion, string>> = {
  nifTitular: '<Identificador>',
  nombreTitular: '',
  telefono: '<Telefono>',
  personaContacto: '<PersonaDeContacto>',
  cups: '<CUPS>',
  fechaIncidente: '<FechaIncidente>',
  tipoAtencionIncorrecta: '<TipoDeAtencionIncorrecta>',
  codigoIncidencia: '<CodigoIncidencia>',
  importeReclamado: '<ImporteReclamado>',
  numeroFactura: '<NumFacturaATR>',
  conceptoFacturado: '<TipoConceptoFacturado>',
  codigoSolicitud: '<CodigoSolicitud>',
  cuentaBancaria: '<IBAN>',
  solicitudNuevoSuministro: '<NumExpedienteAcometida>',
  fechaDesde: '<FechaDesde>',
  fechaHasta: '<FechaHasta>',
  reclamacionAnterior: '<CodigoSolicitudReclamacion>',
  ubicacion: '<DesUbicacionIncidencia>',
  ubicacionProvincia: '<Provincia>',
  ubicacionMunicipio: '<Municipio>',
  ubicacionCodigoPostal: '<CodPostal>',
  conceptoContratacion: '<ParametroContratacion>',
  lectura: '<CodigoPeriodoDH>A1<',
  lecturaP2: '<CodigoPeriodoDH>A2<',
  lecturaP3: '<CodigoPeriodoDH>A3<',
  lecturaP4: '<CodigoPeriodoDH>A4<',
  lecturaP5: '<CodigoPeriodoDH>A5<',
  lecturaP6: '<CodigoPeriodoDH>A6<',
  fechaLectura: '<FechaLectura>',
  expedienteFraude: '<NumExpedienteFraude>',
  disconformidadAutoconsumo: '<TipoDisconformidadAutoconsumo>',
  motivoConsulta: '<MotivoConsulta>',
  cau: '<CAU>',
};

/** Files one claim of subtype `codigo` at ECD with `campos` through the API; the detail answered. */
async function presentar(codigo: string, campos: Record<string, unknown>): Promise<CasoContactoDetalle> {
  const s = SUBTIPOS_RECLAMACION.find((x) => x.codigo === codigo)!;
  // An account per claim: each account may take 20 steps an hour.
  const u = await cuenta(server, { prefijo: 'r1' });
  const token = (await sesion(server, u.email)).jwtToken;
  const datos = { rol: s.soloComercializadora ? '06' : '02', tipo: s.tipo, subtipo: s.codigo, campos, mensaje: `Reclamación ${codigo}.` };
  const b = (await (
    await llamar(server, 'POST', '/api/contacto/reclamaciones', { token, body: { distribuidora: 'ecd', datos } })
  ).json()) as {
    id: string;
  };
  const res = await llamar(server, 'POST', `/api/contacto/reclamaciones/${b.id}/presentar`, { token, body: {} });
  expect([codigo, res.status]).toEqual([codigo, 200]);
  return (await res.json()) as CasoContactoDetalle;
}

describe('R1 01 de cada reclamación aceptada', () => {
  it('cada subtipo, con sus campos obligatorios y con todos, se escribe como un R1 01 válido según el esquema de la CNMC', async () => {
    const textos: { codigo: string; xml: string }[] = [];
    let i = 0;
    for (const s of SUBTIPOS_RECLAMACION) {
      const obligatorios = Object.fromEntries(s.campos.filter((c) => !DEFINICION_CAMPOS[c].opcional).map((c) => [c, valorValido(c, i)]));
      const todos = Object.fromEntries(s.campos.map((c) => [c, valorValido(c, i + 1)]));
      for (const campos of s.campos.some((c) => DEFINICION_CAMPOS[c].opcional) ? [obligatorios, todos] : [obligatorios]) {
        const d = await presentar(s.codigo, campos);
        const xml = mensajeR101({
          referencia: d.referencia,
          distribuidora: d.distribuidora,
          presentadoEn: d.presentadoEn!,
          reclamacion: d.reclamacion!,
        });
        for (const c of Object.keys(campos) as CampoReclamacion[])
          if (c === 'nombreTitular')
            // The holder's name is the Cliente's, or the contact person's when no NIF is given (018, 019).
            for (const palabra of String(campos[c]).split(' ')) expect(xml, `${s.codigo} ${c}`).toContain(palabra);
          else expect(xml, `${s.codigo} ${c}`).toContain(ELEMENTO[c]);
        textos.push({ codigo: s.codigo, xml });
      }
      i++;
    }
    const errores = await validarConEsquema(
      ESQUEMA_R101,
      textos.map((t) => t.xml),
    );
    const malos = textos.map((t, j) => ({ codigo: t.codigo, errores: errores[j]! })).filter((x) => x.errores.length > 0);
    expect(malos).toEqual([]);
    expect(textos.length).toBeGreaterThan(SUBTIPOS_RECLAMACION.length);
  }, 300_000);

  it('el esquema rechaza lo que el portal no aceptaría: un expediente de fraude de 17 caracteres', async () => {
    const d = await presentar('057', { nifTitular: nuevoDni(), nombreTitular: 'Lucía Martín', expedienteFraude: 'F'.repeat(16) });
    const xml = mensajeR101({ referencia: d.referencia, distribuidora: 'ecd', presentadoEn: d.presentadoEn!, reclamacion: d.reclamacion! });
    expect((await validarConEsquema(ESQUEMA_R101, [xml]))[0]).toEqual([]);
    const largo = xml.replace('F'.repeat(16), 'F'.repeat(17));
    expect((await validarConEsquema(ESQUEMA_R101, [largo]))[0]!.join(' ')).toMatch(/NumExpedienteFraude/);
  });

  it('la distribuidora descarga la reclamación como R1 01; un borrador no lo es y otra distribuidora no la ve', async () => {
    const d = await presentar('026', { ubicacion: 'Calle de los Colegios, 14', ubicacionProvincia: '28', ubicacionMunicipio: '28005' });
    const gestor = await cuenta(server, { prefijo: 'gestor-r1', extra: ['ecd-administrador'] });
    const otro = await cuenta(server, { prefijo: 'gestor-r1-epd', extra: ['epd-administrador'] });
    const token = (await sesion(server, gestor.email)).jwtToken;
    const res = await llamar(server, 'GET', `/api/administrador/contacto/${d.id}/r1.xml`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toContain(`<CodigoDeSolicitud>${codigoSolicitudR1(d.referencia)}</CodigoDeSolicitud>`);
    expect((await validarConEsquema(ESQUEMA_R101, [xml]))[0]).toEqual([]);
    const ajeno = (await sesion(server, otro.email)).jwtToken;
    expect((await llamar(server, 'GET', `/api/administrador/contacto/${d.id}/r1.xml`, { token: ajeno })).status).toBe(404);
    // A draft is not the distributor's yet; a query is not a claim.
    const u = await cuenta(server, { prefijo: 'r1-borrador' });
    const t = (await sesion(server, u.email)).jwtToken;
    const crear = async (ruta: string, datos: unknown) =>
      ((await (await llamar(server, 'POST', ruta, { token: t, body: { distribuidora: 'ecd', datos } })).json()) as { id: string }).id;
    const borrador = await crear('/api/contacto/reclamaciones', { rol: '08' });
    expect((await llamar(server, 'GET', `/api/administrador/contacto/${borrador}/r1.xml`, { token })).status).toBe(404);
    const consulta = await crear('/api/contacto/consultas', { tema: 'otro', asunto: 'Una duda', mensaje: '¿Cómo leo el contador?' });
    expect((await llamar(server, 'POST', `/api/contacto/consultas/${consulta}/presentar`, { token: t, body: {} })).status).toBe(200);
    expect((await llamar(server, 'GET', `/api/administrador/contacto/${consulta}/r1.xml`, { token })).status).toBe(409);
  });

  it('el código de solicitud es el año y el número de la referencia', () => {
    expect(codigoSolicitudR1('RC-2026-000123')).toBe('202600000123');
  });
});
