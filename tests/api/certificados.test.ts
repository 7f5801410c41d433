/**
 * Consumption certificates through HTTP: the PDF read back with unpdf and every figure
 * checked against sums the database computes itself (months and 2.0TD periods in SQL, Madrid time,
 * national holidays), the stored bytes and SHA-256, ownership (404 for anyone else's supply point or
 * certificate), the period rules, the holder change, and the public verification with its limit.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { rangoDias } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { cuenta, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { puntoNuevo } from '../support/suministros.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A supply point of `nif` at a distributor with a fresh CUPS. */
const punto = puntoNuevo;

/**
 * Hourly records of the civil days [desde, hasta] in Madrid: a value that varies hour to hour, every
 * 29th hour estimated, every 53rd missing.
 */
function curva(cups: string, desde: string, hasta: string): RegistroMedida[] {
  const out: RegistroMedida[] = [];
  const { inicio, fin } = rangoDias(desde, hasta);
  for (let t = inicio.getTime(), n = 0; t < fin.getTime(); t += 3_600_000, n++) {
    if (n % 53 === 7) continue;
    const estimada = n % 29 === 3;
    out.push({
      cups,
      inicio: new Date(t),
      minutos: 60,
      importadaWh: 40 + ((n * 37) % 911),
      exportadaWh: null,
      metodo: estimada ? 'estimada' : 'real',
      firme: !estimada,
      origen: 'CSV',
    });
  }
  return out;
}

interface Titular {
  u: CuentaPrueba;
  token: string;
  cups: string;
  id: number;
}

/** An account holding one supply point (with `medidas` from `curva` when given). */
async function titular(
  opts: { d?: 'epd' | 'eod' | 'ecd'; medidas?: [string, string]; nif?: string; nombre?: string } = {},
): Promise<Titular> {
  const u = await cuenta(server);
  const s = punto(opts.nif ?? u.nif, opts.d, opts.nombre ? { titularNombre: opts.nombre } : {});
  const { ids } = await guardarSuministros(server.database.db, [s]);
  if (opts.medidas) {
    const r = await importarMedidas(server.database.db, curva(s.cups, ...opts.medidas));
    expect(r.ok).toBe(true);
  }
  const { jwtToken } = await sesion(server, u.email);
  return { u, token: jwtToken, cups: s.cups, id: ids.get(s.cups)! };
}

interface Certificado {
  id: string;
  codigo: string;
  cups: string;
  desdeMes: string;
  hastaMes: string;
  totalWh: number;
  horasSinDato: number;
  sha256: string;
  bytes: number;
  titularActual: boolean;
  urlVerificacion: string;
  fichero: string;
}

async function emitir(t: Pick<Titular, 'token' | 'cups'>, desde: string, hasta: string): Promise<Response> {
  return llamar(server, 'POST', '/api/certificados', { token: t.token, body: { cups: t.cups, desde, hasta } });
}

async function emitido(t: Pick<Titular, 'token' | 'cups'>, desde: string, hasta: string): Promise<Certificado> {
  const res = await emitir(t, desde, hasta);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Certificado;
}

async function descargar(token: string, id: string): Promise<Response> {
  return llamar(server, 'GET', `/api/certificados/${id}/pdf`, { token });
}

/** The text of a PDF, whitespace collapsed to single spaces. */
async function textoPdf(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

// The portal groups thousands from four digits on (src/lib/formato/numeros.ts): written here with Intl itself.
const kwh = (wh: number) =>
  new Intl.NumberFormat('es-ES', { minimumFractionDigits: 3, maximumFractionDigits: 3, useGrouping: 'always' }).format(wh / 1000);
const entero = (n: number) => new Intl.NumberFormat('es-ES', { useGrouping: 'always' }).format(n);
const MESES = ['Enero', 'Febrero', 'Marzo', 'Abril', 'Mayo', 'Junio', 'Julio', 'Agosto', 'Septiembre', 'Octubre', 'Noviembre', 'Diciembre'];
const nombreMes = (mes: string) => `${MESES[Number(mes.slice(5, 7)) - 1]} de ${mes.slice(0, 4)}`;

/** Per Madrid month and 2.0TD period, the database's own sums (holidays: the national fixed ones). */
async function sumasDeLaBase(id: number, desde: string, hasta: string) {
  return queryRows<{ mes: string; periodo: string; wh: number; horas: number; estimadaWh: number; estimadas: number }>(
    server.database.db,
    sql`with h as (
          select importada_wh as wh, real, (inicio at time zone 'Europe/Madrid') as l from medidas_horarias
          where suministro_id = ${id}
            and inicio >= (${desde}::date)::timestamp at time zone 'Europe/Madrid'
            and inicio < ((${hasta}::date) + 1)::timestamp at time zone 'Europe/Madrid')
        select to_char(l, 'YYYY-MM') as mes,
          case when extract(isodow from l) >= 6 or to_char(l, 'MM-DD') in ('01-01', '01-06', '05-01', '08-15', '10-12', '11-01', '12-06', '12-08', '12-25') then 'P3'
               when extract(hour from l) in (10, 11, 12, 13, 18, 19, 20, 21) then 'P1'
               when extract(hour from l) in (8, 9, 14, 15, 16, 17, 22, 23) then 'P2'
               else 'P3' end as periodo,
          sum(wh)::int as wh, count(*)::int as horas,
          coalesce(sum(wh) filter (where not real), 0)::int as "estimadaWh", (count(*) filter (where not real))::int as estimadas
        from h group by 1, 2 order by 1, 2`,
  );
}

/** Hours of a Madrid civil month, by the database's clock. */
async function horasDelMes(mes: string): Promise<number> {
  const [r] = await queryRows<{ h: number }>(
    server.database.db,
    sql`select (extract(epoch from ((${mes + '-01'}::date + interval '1 month')::timestamp at time zone 'Europe/Madrid') - (${mes + '-01'}::date)::timestamp at time zone 'Europe/Madrid') / 3600)::int as h`,
  );
  return r!.h;
}

describe('POST /api/certificados and the PDF', () => {
  it('states in the PDF every figure the database sums, month by month and period by period', async () => {
    // October 2025 has the 25-hour day, March 2026 the 23-hour one; September has no data at all.
    const t = await titular({ medidas: ['2025-10-01', '2026-03-31'], nombre: 'Lucía Martín Ortega' });
    const c = await emitido(t, '2025-09', '2026-03');
    const res = await descargar(t.token, c.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const texto = await textoPdf(bytes);

    const filas = await sumasDeLaBase(t.id, '2025-09-01', '2026-03-31');
    const meses = ['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03'];
    const total = { P1: 0, P2: 0, P3: 0, wh: 0, horas: 0, conDato: 0, estimadas: 0, estimadaWh: 0 };
    for (const mes of meses) {
      const delMes = filas.filter((f) => f.mes === mes);
      const horas = await horasDelMes(mes);
      if (mes === '2025-10') expect(horas).toBe(745);
      if (mes === '2026-03') expect(horas).toBe(743);
      const porPeriodo = (['P1', 'P2', 'P3'] as const).map((p) => delMes.find((f) => f.periodo === p)?.wh ?? 0);
      const wh = porPeriodo.reduce((a, b) => a + b, 0);
      const conDato = delMes.reduce((a, f) => a + f.horas, 0);
      const estimadas = delMes.reduce((a, f) => a + f.estimadas, 0);
      const estimadaWh = delMes.reduce((a, f) => a + f.estimadaWh, 0);
      if (conDato === 0) {
        expect(texto).toContain(`${nombreMes(mes)} — — — Sin datos`);
      } else {
        expect(texto).toContain(`${nombreMes(mes)} ${porPeriodo.map(kwh).join(' ')} ${kwh(wh)}`);
      }
      expect(texto).toContain(
        `${nombreMes(mes)} ${entero(horas)} ${entero(conDato - estimadas)} ${entero(estimadas)} ${entero(horas - conDato)} ${kwh(estimadaWh)}`,
      );
      (['P1', 'P2', 'P3'] as const).forEach((p, i) => (total[p] += porPeriodo[i]!));
      total.wh += wh;
      total.horas += horas;
      total.conDato += conDato;
      total.estimadas += estimadas;
      total.estimadaWh += estimadaWh;
    }
    expect(texto).toContain(`Total del periodo ${kwh(total.P1)} ${kwh(total.P2)} ${kwh(total.P3)} ${kwh(total.wh)}`);
    expect(texto).toContain(
      `Total del periodo ${entero(total.horas)} ${entero(total.conDato - total.estimadas)} ${entero(total.estimadas)} ${entero(total.horas - total.conDato)} ${kwh(total.estimadaWh)}`,
    );
    const pct = (p: number) =>
      new Intl.NumberFormat('es-ES', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })
        .format(p)
        .replace(/\s/g, ' ');
    expect(texto).toContain(
      `el ${pct((total.wh - total.estimadaWh) / total.wh)} (${kwh(total.wh - total.estimadaWh)} kWh) procede de medidas reales`,
    );
    expect(texto).toContain(`${entero(total.horas - total.conDato)} horas sin dato`);
    expect(texto).toContain('no les atribuye consumo');
    // The answer says the same as the PDF.
    expect(c.totalWh).toBe(total.wh);
    expect(c.horasSinDato).toBe(total.horas - total.conDato);

    // Identity, holder, supply point, code and verification address.
    for (const s of [
      'Electra Peninsular Distribución, S.L.',
      'B00001016',
      'Avenida de la Corriente Alterna, 12, 28000 Madrid',
      'R1-9901',
      'Lucía Martín Ortega',
      t.u.nif,
      t.cups,
      'Calle Mayor, 1, 28801 Alcalá de Henares (Madrid)',
      '2.0TD',
      'P1 (Punta): 4,6 kW · P2 (Valle): 4,6 kW',
      'del 1 de septiembre de 2025 al 31 de marzo de 2026',
      'Emitido el 2 de noviembre de 2026 a las 10:00 (hora peninsular)',
    ]) {
      expect(texto).toContain(s);
    }
    expect(c.codigo).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(texto).toContain(`Código de verificación: ${c.codigo}`);
    expect(c.urlVerificacion).toBe(`http://portal.test/verificar-certificado?codigo=${c.codigo}`);
    expect(texto).toContain(c.urlVerificacion);

    // Tagged, Spanish, titled.
    const doc = await getDocumentProxy(bytes);
    const info = (await doc.getMetadata()).info as Record<string, unknown>;
    expect(info.Language).toBe('es-ES');
    expect(info.Title).toBe(`Certificado de consumo ${t.cups}`);
    expect(info.Author).toBe('Electra Peninsular Distribución, S.L.');
    const arbol = JSON.stringify(await (await doc.getPage(1)).getStructTree());
    for (const rol of ['"Document"', '"H1"', '"H2"', '"Table"', '"TH"', '"TD"']) expect(arbol).toContain(rol);
  });

  it('embeds every font it uses, so any holder’s name is written as it is (PDF/UA)', async () => {
    // Letters outside WinAnsi: the standard Helvetica wrote this name as other characters.
    const nombre = 'Łukasz Dvořák Ñúñez-Şahin';
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'], nombre });
    const c = await emitido(t, '2026-01', '2026-01');
    const bytes = new Uint8Array(await (await descargar(t.token, c.id)).arrayBuffer());
    expect(await textoPdf(bytes)).toContain(`Titular ${nombre}`);

    // The file's objects, by number (pdfkit writes dictionaries uncompressed).
    const crudo = Buffer.from(bytes).toString('latin1');
    const objetos = new Map([...crudo.matchAll(/(\d+) 0 obj([\s\S]*?)endobj/g)].map((m) => [m[1]!, m[2]!]));
    const fuentes = [...objetos.values()].filter((o) => /\/Type \/Font\b/.test(o));
    expect(fuentes.length).toBeGreaterThan(0);
    for (const f of fuentes) {
      const subtipo = /\/Subtype \/(\w+)/.exec(f)![1];
      if (subtipo === 'Type0') {
        // A composite font: its glyphs are in its descendant, and it maps them back to text.
        expect(f).toMatch(/\/ToUnicode \d+ 0 R/);
        continue;
      }
      const descriptor = /\/FontDescriptor (\d+) 0 R/.exec(f)?.[1];
      expect(descriptor, `font without a descriptor (not embedded): ${/\/BaseFont \/(\S+)/.exec(f)?.[1]}`).toBeDefined();
      expect(objetos.get(descriptor!)).toMatch(/\/FontFile[23]? \d+ 0 R/);
    }
    expect(crudo).not.toMatch(/\/BaseFont \/Helvetica/);
  });

  it('downloads again the very bytes issued, with the SHA-256 it stored', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const c = await emitido(t, '2026-01', '2026-01');
    const a = Buffer.from(await (await descargar(t.token, c.id)).arrayBuffer());
    const b = Buffer.from(await (await descargar(t.token, c.id)).arrayBuffer());
    expect(a.equals(b)).toBe(true);
    const sha = createHash('sha256').update(a).digest('hex');
    expect(sha).toBe(c.sha256);
    expect(a.length).toBe(c.bytes);
    const [fila] = await queryRows<{
      sha256: string;
      pdf: Uint8Array;
      contenido: { total: { totalWh: number }; titular: { nif: string } };
    }>(server.database.db, sql`select sha256, pdf, contenido from certificados_consumo where id = ${c.id}`);
    expect(fila!.sha256).toBe(sha);
    expect(Buffer.from(fila!.pdf).equals(a)).toBe(true);
    expect(fila!.contenido.total.totalWh).toBe(c.totalWh);
    expect(fila!.contenido.titular.nif).toBe(t.u.nif);
  });

  it('lists the caller’s certificates newest first, and nobody else’s', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-02-28'] });
    const otro = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    await emitido(otro, '2026-01', '2026-01');
    const primero = await emitido(t, '2026-01', '2026-01');
    server.clock.advance(60_000);
    const segundo = await emitido(t, '2026-01', '2026-02');
    const res = await llamar(server, 'GET', '/api/certificados', { token: t.token });
    expect(res.status).toBe(200);
    const lista = (await res.json()) as Certificado[];
    expect(lista.map((x) => x.id)).toEqual([segundo.id, primero.id]);
    expect(lista[0]).toMatchObject({
      cups: t.cups,
      desdeMes: '2026-01',
      hastaMes: '2026-02',
      titularActual: true,
      fichero: `certificado-consumo_${t.cups}_2026-01_2026-02.pdf`,
    });
  });
});

describe('ownership', () => {
  it('answers 404 with no data for another holder’s CUPS and certificate, and for an unknown id', async () => {
    const a = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const b = await titular({ medidas: ['2026-01-01', '2026-01-31'], nombre: 'Nombre Ajeno Secreto' });
    const deB = await emitido(b, '2026-01', '2026-01');
    const cupsAjeno = await emitir({ token: a.token, cups: b.cups }, '2026-01', '2026-01');
    expect(cupsAjeno.status).toBe(404);
    const pdfAjeno = await descargar(a.token, deB.id);
    expect(pdfAjeno.status).toBe(404);
    const cuerpo = await pdfAjeno.text();
    expect(cuerpo).not.toContain(b.cups);
    expect(cuerpo).not.toContain('Nombre Ajeno Secreto');
    expect((await descargar(a.token, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await descargar(a.token, 'no-es-un-id')).status).toBe(404);
    const lista = (await (await llamar(server, 'GET', '/api/certificados', { token: a.token })).json()) as Certificado[];
    expect(lista).toEqual([]);
  });

  it('answers 401 without a session and 403 to an account that holds no supply point', async () => {
    expect((await llamar(server, 'GET', '/api/certificados')).status).toBe(401);
    expect(
      (await llamar(server, 'POST', '/api/certificados', { body: { cups: construirCups('9901', 5), desde: '2026-01', hasta: '2026-01' } }))
        .status,
    ).toBe(401);
    expect((await llamar(server, 'GET', '/api/certificados/00000000-0000-4000-8000-000000000000/pdf')).status).toBe(401);
    const sin = await cuenta(server);
    const { jwtToken } = await sesion(server, sin.email);
    expect((await llamar(server, 'GET', '/api/certificados', { token: jwtToken })).status).toBe(403);
    expect(
      (
        await llamar(server, 'POST', '/api/certificados', {
          token: jwtToken,
          body: { cups: construirCups('9901', 5), desde: '2026-01', hasta: '2026-01' },
        })
      ).status,
    ).toBe(403);
  });

  it('hides a certificate from the next holder of the supply point; the holder it names still sees it', async () => {
    const antiguo = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    // The former holder keeps another EPD supply point, so keeps epd-distribucion.
    await guardarSuministros(server.database.db, [punto(antiguo.u.nif, 'epd')]);
    const c = await emitido(antiguo, '2026-01', '2026-01');
    const nuevo = await cuenta(server);
    await guardarSuministros(server.database.db, [{ ...punto(nuevo.nif, 'epd'), cups: antiguo.cups }]);
    const { jwtToken } = await sesion(server, nuevo.email);
    expect((await (await llamar(server, 'GET', '/api/certificados', { token: jwtToken })).json()) as Certificado[]).toEqual([]);
    expect((await descargar(jwtToken, c.id)).status).toBe(404);
    // The new holder issues their own for the same months: it names them.
    const suyo = await emitido({ token: jwtToken, cups: antiguo.cups }, '2026-01', '2026-01');
    expect(suyo.id).not.toBe(c.id);
    const delAntiguo = (await (await llamar(server, 'GET', '/api/certificados', { token: antiguo.token })).json()) as Certificado[];
    expect(delAntiguo.map((x) => [x.id, x.titularActual])).toEqual([[c.id, false]]);
    expect((await descargar(antiguo.token, c.id)).status).toBe(200);
  });
});

describe('impersonation', () => {
  it('records the administrator behind an impersonated session as well as the holder', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const admin = await cuenta(server, { extra: ['epd-administrador'], prefijo: 'admin' });
    const propia = await sesion(server, admin.email);
    const res = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: propia.jwtToken, body: { username: t.u.email } });
    expect(res.status).toBe(200);
    const { jwtToken } = (await res.json()) as { jwtToken: string };
    const c = await emitido({ token: jwtToken, cups: t.cups }, '2026-01', '2026-01');
    const [fila] = await queryRows<{ user_id: string; suplantado_por: string }>(
      server.database.db,
      sql`select user_id, suplantado_por from certificados_consumo where id = ${c.id}`,
    );
    expect(fila).toEqual({ user_id: t.u.id, suplantado_por: admin.id });
    const [entrada] = await queryRows<{ actor_user_id: string; impersonator_user_id: string; details: { cups: string } }>(
      server.database.db,
      sql`select actor_user_id, impersonator_user_id, details from audit_log where action = 'certificado.emitido' and target_id = ${c.id}`,
    );
    expect(entrada).toMatchObject({ actor_user_id: t.u.id, impersonator_user_id: admin.id, details: { cups: t.cups } });
    // The holder sees it as theirs.
    expect(
      ((await (await llamar(server, 'GET', '/api/certificados', { token: t.token })).json()) as Certificado[]).map((x) => x.id),
    ).toEqual([c.id]);
  });
});

describe('period rules', () => {
  it('refuses a period with no measure at all, the month in progress, a future month and more than 24 months', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const casos: [string, string, RegExp][] = [
      ['2025-05', '2025-06', /^No hay ninguna medida de este suministro del 1 de mayo al 30 de junio de 2025/],
      ['2026-10', '2026-11', /El mes en curso todavía no ha terminado/],
      ['2026-12', '2027-01', /posterior al actual/],
      ['2024-01', '2026-01', /como máximo 24 meses/],
      ['2026-02', '2026-01', /anterior al de inicio/],
      ['2026-1', '2026-01', /AAAA-MM/],
    ];
    for (const [desde, hasta, mensaje] of casos) {
      const res = await emitir(t, desde, hasta);
      expect(res.status, `${desde}…${hasta}`).toBe(400);
      const cuerpo = (await res.json()) as string[];
      expect(cuerpo.join(' ')).toMatch(mensaje);
    }
    const [n] = await queryRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from certificados_consumo where cups = ${t.cups}`,
    );
    expect(n!.n).toBe(0);
  });

  it('limits each account to 20 certificates an hour, and a refused period does not count', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    for (let i = 0; i < 3; i++) expect((await emitir(t, '2025-05', '2025-05')).status).toBe(400);
    for (let i = 0; i < 20; i++) expect((await emitir(t, '2026-01', '2026-01')).status).toBe(201);
    const res = await emitir(t, '2026-01', '2026-01');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('GET /api/verificarCertificado', () => {
  it('confirms a genuine code and says what the certificate stated, with the NIF partly hidden', async () => {
    const t = await titular({ medidas: ['2025-12-01', '2026-01-31'], nombre: 'Titular Verificable' });
    const cuando = server.clock.now().toISOString();
    const c = await emitido(t, '2025-12', '2026-01');
    const res = await server.fetch(`/api/verificarCertificado?codigo=${c.codigo}`);
    expect(res.status).toBe(200);
    const v = (await res.json()) as {
      valido: boolean;
      cups: string;
      titular: { nombre: string; nif: string };
      distribuidora: { nombre: string };
      periodo: { desdeMes: string; hastaMes: string };
      meses: { mes: string; totalWh: number }[];
      total: { totalWh: number };
      sha256: string;
      emitidoEn: string;
    };
    expect(v).toMatchObject({
      valido: true,
      cups: t.cups,
      distribuidora: { nombre: 'Electra Peninsular Distribución, S.L.' },
      periodo: { desdeMes: '2025-12', hastaMes: '2026-01' },
      sha256: c.sha256,
    });
    expect(v.titular).toEqual({ nombre: 'Titular Verificable', nif: `***${t.u.nif.slice(3, 7)}**` });
    expect(JSON.stringify(v)).not.toContain(t.u.nif);
    const filas = await sumasDeLaBase(t.id, '2025-12-01', '2026-01-31');
    for (const m of v.meses) expect(m.totalWh).toBe(filas.filter((f) => f.mes === m.mes).reduce((a, f) => a + f.wh, 0));
    expect(v.total.totalWh).toBe(c.totalWh);
    expect(v.emitidoEn).toBe(cuando);
  });

  it('reads a mistyped but recognisable code as the genuine one', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const c = await emitido(t, '2026-01', '2026-01');
    const tecleado = ` ${c.codigo.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l')} `;
    const res = await server.fetch(`/api/verificarCertificado?codigo=${encodeURIComponent(tecleado)}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { codigo: string }).codigo).toBe(c.codigo);
  });

  it('answers a forged code with 404 and a message that reveals nothing, and a malformed one with 400', async () => {
    const res = await server.fetch('/api/verificarCertificado?codigo=ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    expect(res.status).toBe(404);
    const cuerpo = (await res.json()) as { message: string };
    expect(cuerpo.message).toMatch(/^No hay ningún certificado con ese código/);
    expect(Object.keys(cuerpo)).toEqual(['message']);
    const mal = await server.fetch('/api/verificarCertificado?codigo=ABC');
    expect(mal.status).toBe(400);
    expect(((await mal.json()) as string[])[0]).toMatch(/tiene 16 letras y números/);
    expect((await server.fetch('/api/verificarCertificado?codigo=UUUU-UUUU-UUUU-UUUU')).status).toBe(400);
    expect((await server.fetch('/api/verificarCertificado')).status).toBe(400);
  });

  it('limits unknown codes per address to 20 in 15 minutes; genuine codes and other addresses are not held back', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const c = await emitido(t, '2026-01', '2026-01');
    const desde = (dir: string, codigo: string) => server.fetchFrom(dir, `/api/verificarCertificado?codigo=${codigo}`);
    const dir = '127.0.0.91';
    for (let i = 0; i < 25; i++) expect((await desde(dir, c.codigo)).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await desde(dir, `ZZZZ-ZZZZ-ZZZZ-${String(1000 + i).replace(/1/g, 'A')}`)).status).toBe(404);
    const limitado = await desde(dir, 'ZZZZ-ZZZZ-ZZZZ-ZZZY');
    expect(limitado.status).toBe(429);
    expect(Number(limitado.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limitado.json()) as { message: string }).message).toMatch(/demasiados intentos/);
    // Over the limit even a genuine code waits (the lookup happens after the count); another address is free.
    expect((await desde(dir, c.codigo)).status).toBe(429);
    expect((await desde('127.0.0.92', c.codigo)).status).toBe(200);
    server.clock.advance(15 * 60_000);
    expect((await desde(dir, c.codigo)).status).toBe(200);
  });
});
