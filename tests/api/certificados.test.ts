/**
 * Consumption certificates through HTTP: the PDF read back with unpdf and every figure
 * checked against sums the database computes itself (months and 2.0TD periods in SQL, Madrid time,
 * national holidays), the stored bytes and SHA-256, ownership (404 for anyone else's supply point or
 * certificate), the period rules, the holder change, and the public verification with its limit.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { registrosDeDias, titularConMedidas } from '../support/medidas.ts';
import { cuenta, llamar, sesion } from '../support/privado.ts';
import { unaVez } from '../support/ganchos.ts';
import { servidorDelFichero } from '../support/server.ts';
import { guardasDeTitular, puntoNuevo } from '../support/suministros.ts';

const server = servidorDelFichero();

/**
 * Hourly records of the civil days [desde, hasta] in Madrid: a value that varies hour to hour, every
 * 29th hour estimated, every 53rd missing.
 */
const curva = (cups: string, desde: string, hasta: string) =>
  registrosDeDias(cups, desde, hasta, (n) =>
    n % 53 === 7 ? null : { importadaWh: 40 + ((n * 37) % 911), metodo: n % 29 === 3 ? 'estimada' : 'real', firme: n % 29 !== 3 },
  );

type Titular = Awaited<ReturnType<typeof titularConMedidas>>;

/** An account holding one EPD supply point (in the name of `nombre`, if given), with measures from `curva` of the days `medidas`. */
const titular = (opts: { medidas?: [string, string]; nombre?: string } = {}) =>
  titularConMedidas(server, opts.medidas && ((cups) => curva(cups, ...opts.medidas!)), opts.nombre ? { titularNombre: opts.nombre } : {});

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
  describe('over seven months, one without data', () => {
    /** The certificate, its PDF read back, and the figures the database sums of each month and of the period. */
    const visto = unaVez(async () => {
      // October 2025 has the 25-hour day, March 2026 the 23-hour one; September has no data at all.
      const t = await titular({ medidas: ['2025-10-01', '2026-03-31'], nombre: 'Lucía Martín Ortega' });
      const c = await emitido(t, '2025-09', '2026-03');
      const res = await descargar(t.token, c.id);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const filas = await sumasDeLaBase(t.id, '2025-09-01', '2026-03-31');
      const meses: {
        mes: string;
        horas: number;
        porPeriodo: number[];
        wh: number;
        conDato: number;
        estimadas: number;
        estimadaWh: number;
      }[] = [];
      const total = { P1: 0, P2: 0, P3: 0, wh: 0, horas: 0, conDato: 0, estimadas: 0, estimadaWh: 0 };
      for (const mes of ['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']) {
        const delMes = filas.filter((f) => f.mes === mes);
        const porPeriodo = (['P1', 'P2', 'P3'] as const).map((p) => delMes.find((f) => f.periodo === p)?.wh ?? 0);
        const sumar = (campo: 'horas' | 'estimadas' | 'estimadaWh') => delMes.reduce((a, f) => a + f[campo], 0);
        const m = { mes, horas: await horasDelMes(mes), porPeriodo, wh: porPeriodo.reduce((a, b) => a + b, 0), conDato: sumar('horas') };
        meses.push({ ...m, estimadas: sumar('estimadas'), estimadaWh: sumar('estimadaWh') });
      }
      for (const m of meses) {
        (['P1', 'P2', 'P3'] as const).forEach((p, i) => (total[p] += m.porPeriodo[i]!));
        for (const campo of ['wh', 'horas', 'conDato', 'estimadas', 'estimadaWh'] as const) total[campo] += m[campo];
      }
      return { t, c, res, bytes, texto: await textoPdf(bytes), meses, total };
    });

    it('downloads as a PDF', () => {
      expect(visto.res.status).toBe(200);
      expect(visto.res.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(visto.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    });

    it('counts the hours of each Madrid month, 745 in October and 743 in March', () => {
      expect(visto.meses.find((m) => m.mes === '2025-10')!.horas).toBe(745);
      expect(visto.meses.find((m) => m.mes === '2026-03')!.horas).toBe(743);
    });

    it('states the kWh of each month by period, or that it has no data', () => {
      for (const m of visto.meses) {
        if (m.conDato === 0) {
          expect(visto.texto).toContain(`${nombreMes(m.mes)} — — — Sin datos`);
        } else {
          expect(visto.texto).toContain(`${nombreMes(m.mes)} ${m.porPeriodo.map(kwh).join(' ')} ${kwh(m.wh)}`);
        }
      }
    });

    it('states the hours of each month: real, estimated and without data, and the estimated kWh', () => {
      for (const m of visto.meses) {
        expect(visto.texto).toContain(
          `${nombreMes(m.mes)} ${entero(m.horas)} ${entero(m.conDato - m.estimadas)} ${entero(m.estimadas)} ${entero(m.horas - m.conDato)} ${kwh(m.estimadaWh)}`,
        );
      }
    });

    it('states the totals of the period', () => {
      const { total } = visto;
      expect(visto.texto).toContain(`Total del periodo ${kwh(total.P1)} ${kwh(total.P2)} ${kwh(total.P3)} ${kwh(total.wh)}`);
      expect(visto.texto).toContain(
        `Total del periodo ${entero(total.horas)} ${entero(total.conDato - total.estimadas)} ${entero(total.estimadas)} ${entero(total.horas - total.conDato)} ${kwh(total.estimadaWh)}`,
      );
    });

    it('states the share of real measures and the hours without data, to which it attributes no consumption', () => {
      const { total } = visto;
      const pct = (p: number) =>
        new Intl.NumberFormat('es-ES', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })
          .format(p)
          .replace(/\s/g, ' ');
      expect(visto.texto).toContain(
        `el ${pct((total.wh - total.estimadaWh) / total.wh)} (${kwh(total.wh - total.estimadaWh)} kWh) procede de medidas reales`,
      );
      expect(visto.texto).toContain(`${entero(total.horas - total.conDato)} horas sin dato`);
      expect(visto.texto).toContain('no les atribuye consumo');
    });

    it('answers the same totals as the PDF', () => {
      expect(visto.c.totalWh).toBe(visto.total.wh);
      expect(visto.c.horasSinDato).toBe(visto.total.horas - visto.total.conDato);
    });

    it('names the distributor, the holder, the supply point, the period and when it was issued', () => {
      for (const s of [
        'Electra Peninsular Distribución, S.L.',
        'B00001016',
        'Avenida de la Corriente Alterna, 12, 28000 Madrid',
        'R1-9901',
        'Lucía Martín Ortega',
        visto.t.u.nif,
        visto.t.cups,
        'Calle Mayor, 1, 28801 Alcalá de Henares (Madrid)',
        '2.0TD',
        'P1 (Punta): 4,6 kW · P2 (Valle): 4,6 kW',
        'del 1 de septiembre de 2025 al 31 de marzo de 2026',
        'Emitido el 2 de noviembre de 2026 a las 10:00 (hora peninsular)',
      ]) {
        expect(visto.texto).toContain(s);
      }
    });

    it('prints its verification code and address', () => {
      expect(visto.c.codigo).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
      expect(visto.texto).toContain(`Código de verificación: ${visto.c.codigo}`);
      expect(visto.c.urlVerificacion).toBe(`http://portal.test/verificar-certificado?codigo=${visto.c.codigo}`);
      expect(visto.texto).toContain(visto.c.urlVerificacion);
    });

    it('is tagged, in Spanish and titled', async () => {
      const doc = await getDocumentProxy(new Uint8Array(visto.bytes));
      const info = (await doc.getMetadata()).info as Record<string, unknown>;
      expect(info.Language).toBe('es-ES');
      expect(info.Title).toBe(`Certificado de consumo ${visto.t.cups}`);
      expect(info.Author).toBe('Electra Peninsular Distribución, S.L.');
      const arbol = JSON.stringify(await (await doc.getPage(1)).getStructTree());
      for (const rol of ['"Document"', '"H1"', '"H2"', '"Table"', '"TH"', '"TD"']) expect(arbol).toContain(rol);
    });
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
  it('answers 404 to issuing a certificate for another holder’s CUPS', async () => {
    const a = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const b = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const cupsAjeno = await emitir({ token: a.token, cups: b.cups }, '2026-01', '2026-01');
    expect(cupsAjeno.status).toBe(404);
  });

  it('answers 404 with none of their data for another holder’s certificate', async () => {
    const a = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const b = await titular({ medidas: ['2026-01-01', '2026-01-31'], nombre: 'Nombre Ajeno Secreto' });
    const deB = await emitido(b, '2026-01', '2026-01');
    const pdfAjeno = await descargar(a.token, deB.id);
    expect(pdfAjeno.status).toBe(404);
    const cuerpo = await pdfAjeno.text();
    expect(cuerpo).not.toContain(b.cups);
    expect(cuerpo).not.toContain('Nombre Ajeno Secreto');
  });

  it('lists none of another holder’s certificates', async () => {
    const a = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const b = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    await emitido(b, '2026-01', '2026-01');
    const lista = (await (await llamar(server, 'GET', '/api/certificados', { token: a.token })).json()) as Certificado[];
    expect(lista).toEqual([]);
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'no-es-un-id'])('answers 404 for the unknown id %s', async (id) => {
    const a = await titular();
    expect((await descargar(a.token, id)).status).toBe(404);
  });

  guardasDeTitular(server, [
    ['GET', '/api/certificados'],
    ['POST', '/api/certificados', { cups: construirCups('9901', 5), desde: '2026-01', hasta: '2026-01' }],
    ['GET', '/api/certificados/00000000-0000-4000-8000-000000000000/pdf'],
  ]);

  describe('when the supply point changes hands', () => {
    /** The former holder, who issued a certificate, and the next holder's session. */
    const cambio = unaVez(async () => {
      const antiguo = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
      // The former holder keeps another EPD supply point, so keeps epd-distribucion.
      await guardarSuministros(server.database.db, [puntoNuevo(antiguo.u.nif, 'epd')]);
      const c = await emitido(antiguo, '2026-01', '2026-01');
      const n = await cuenta(server);
      await guardarSuministros(server.database.db, [{ ...puntoNuevo(n.nif, 'epd'), cups: antiguo.cups }]);
      return { antiguo, c, nuevo: (await sesion(server, n.email)).jwtToken };
    });

    it('hides the certificate from the next holder', async () => {
      expect((await (await llamar(server, 'GET', '/api/certificados', { token: cambio.nuevo })).json()) as Certificado[]).toEqual([]);
      expect((await descargar(cambio.nuevo, cambio.c.id)).status).toBe(404);
    });

    it('lets the next holder issue their own for the same months', async () => {
      const suyo = await emitido({ token: cambio.nuevo, cups: cambio.antiguo.cups }, '2026-01', '2026-01');
      expect(suyo.id).not.toBe(cambio.c.id);
    });

    it('still shows it to the holder it names, as no longer the current one', async () => {
      const delAntiguo = (await (
        await llamar(server, 'GET', '/api/certificados', { token: cambio.antiguo.token })
      ).json()) as Certificado[];
      expect(delAntiguo.map((x) => [x.id, x.titularActual])).toEqual([[cambio.c.id, false]]);
      expect((await descargar(cambio.antiguo.token, cambio.c.id)).status).toBe(200);
    });
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
  const CASOS: [string, string, string, RegExp][] = [
    ['with no measure at all', '2025-05', '2025-06', /^No hay ninguna medida de este suministro del 1 de mayo al 30 de junio de 2025/],
    ['with the month in progress', '2026-10', '2026-11', /El mes en curso todavía no ha terminado/],
    ['with a future month', '2026-12', '2027-01', /posterior al actual/],
    ['of more than 24 months', '2024-01', '2026-01', /como máximo 24 meses/],
    ['that ends before it starts', '2026-02', '2026-01', /anterior al de inicio/],
    ['with a malformed month', '2026-1', '2026-01', /AAAA-MM/],
  ];

  it.each(CASOS)('refuses a period %s, in Spanish', async (_, desde, hasta, mensaje) => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const res = await emitir(t, desde, hasta);
    expect(res.status, `${desde}…${hasta}`).toBe(400);
    const cuerpo = (await res.json()) as string[];
    expect(cuerpo.join(' ')).toMatch(mensaje);
  });

  it('issues nothing for a refused period', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    for (const [, desde, hasta] of CASOS) await emitir(t, desde, hasta);
    const [n] = await queryRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from certificados_consumo where cups = ${t.cups}`,
    );
    expect(n!.n).toBe(0);
  });

  it('limits each account to 20 certificates an hour, not counting refused periods', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    for (let i = 0; i < 3; i++) expect((await emitir(t, '2025-05', '2025-05')).status).toBe(400);
    for (let i = 0; i < 20; i++) expect((await emitir(t, '2026-01', '2026-01')).status).toBe(201);
    const res = await emitir(t, '2026-01', '2026-01');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('GET /api/verificarCertificado', () => {
  describe('of a genuine code', () => {
    interface Verificacion {
      valido: boolean;
      cups: string;
      titular: { nombre: string; nif: string };
      distribuidora: { nombre: string };
      periodo: { desdeMes: string; hastaMes: string };
      meses: { mes: string; totalWh: number }[];
      total: { totalWh: number };
      sha256: string;
      emitidoEn: string;
    }
    const visto = unaVez(async () => {
      const t = await titular({ medidas: ['2025-12-01', '2026-01-31'], nombre: 'Titular Verificable' });
      const cuando = server.clock.now().toISOString();
      const c = await emitido(t, '2025-12', '2026-01');
      const res = await server.fetch(`/api/verificarCertificado?codigo=${c.codigo}`);
      return { t, cuando, c, res, v: (await res.json()) as Verificacion };
    });

    it('confirms the certificate: supply point, distributor, period and SHA-256', () => {
      expect(visto.res.status).toBe(200);
      expect(visto.v).toMatchObject({
        valido: true,
        cups: visto.t.cups,
        distribuidora: { nombre: 'Electra Peninsular Distribución, S.L.' },
        periodo: { desdeMes: '2025-12', hastaMes: '2026-01' },
        sha256: visto.c.sha256,
      });
    });

    it('names the holder with the NIF partly hidden', () => {
      expect(visto.v.titular).toEqual({ nombre: 'Titular Verificable', nif: `***${visto.t.u.nif.slice(3, 7)}**` });
      expect(JSON.stringify(visto.v)).not.toContain(visto.t.u.nif);
    });

    it('states the sums of each month and of the period, as the database sums them', async () => {
      const filas = await sumasDeLaBase(visto.t.id, '2025-12-01', '2026-01-31');
      for (const m of visto.v.meses) expect(m.totalWh).toBe(filas.filter((f) => f.mes === m.mes).reduce((a, f) => a + f.wh, 0));
      expect(visto.v.total.totalWh).toBe(visto.c.totalWh);
    });

    it('states when it was issued', () => {
      expect(visto.v.emitidoEn).toBe(visto.cuando);
    });
  });

  it('reads a mistyped but recognisable code as the genuine one', async () => {
    const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
    const c = await emitido(t, '2026-01', '2026-01');
    const tecleado = ` ${c.codigo.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l')} `;
    const res = await server.fetch(`/api/verificarCertificado?codigo=${encodeURIComponent(tecleado)}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { codigo: string }).codigo).toBe(c.codigo);
  });

  it('answers a forged code with 404 and a message that reveals nothing', async () => {
    const res = await server.fetch('/api/verificarCertificado?codigo=ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    expect(res.status).toBe(404);
    const cuerpo = (await res.json()) as { message: string };
    expect(cuerpo.message).toMatch(/^No hay ningún certificado con ese código/);
    expect(Object.keys(cuerpo)).toEqual(['message']);
  });

  it('answers a code too short with 400, saying what a code is', async () => {
    const mal = await server.fetch('/api/verificarCertificado?codigo=ABC');
    expect(mal.status).toBe(400);
    expect(((await mal.json()) as string[])[0]).toMatch(/tiene 16 letras y números/);
  });

  it.each([
    ['a code with letters a code never has', '?codigo=UUUU-UUUU-UUUU-UUUU'],
    ['no code', ''],
  ])('answers %s with 400', async (_, consulta) => {
    expect((await server.fetch(`/api/verificarCertificado${consulta}`)).status).toBe(400);
  });

  describe('unknown codes per address', () => {
    const desde = (dir: string, codigo: string) => server.fetchFrom(dir, `/api/verificarCertificado?codigo=${codigo}`);

    /** Issues a certificate, and asks its code 25 times and 20 unknown ones from `dir`; answers the genuine code. */
    async function agotada(dir: string): Promise<string> {
      const t = await titular({ medidas: ['2026-01-01', '2026-01-31'] });
      const { codigo } = await emitido(t, '2026-01', '2026-01');
      for (let i = 0; i < 25; i++) expect((await desde(dir, codigo)).status).toBe(200);
      for (let i = 0; i < 20; i++) expect((await desde(dir, `ZZZZ-ZZZZ-ZZZZ-${String(1000 + i).replace(/1/g, 'A')}`)).status).toBe(404);
      return codigo;
    }

    it('are limited to 20 in 15 minutes, genuine codes not counted', async () => {
      await agotada('127.0.0.91');
      const limitado = await desde('127.0.0.91', 'ZZZZ-ZZZZ-ZZZZ-ZZZY');
      expect(limitado.status).toBe(429);
      expect(Number(limitado.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await limitado.json()) as { message: string }).message).toMatch(/demasiados intentos/);
    });

    it('hold back even a genuine code over the limit, as the lookup happens after the count', async () => {
      const codigo = await agotada('127.0.0.93');
      await desde('127.0.0.93', 'ZZZZ-ZZZZ-ZZZZ-ZZZY');
      expect((await desde('127.0.0.93', codigo)).status).toBe(429);
    });

    it('do not hold back another address', async () => {
      const codigo = await agotada('127.0.0.94');
      await desde('127.0.0.94', 'ZZZZ-ZZZZ-ZZZZ-ZZZY');
      expect((await desde('127.0.0.92', codigo)).status).toBe(200);
    });

    it('let the address ask again after 15 minutes', async () => {
      const codigo = await agotada('127.0.0.95');
      await desde('127.0.0.95', 'ZZZZ-ZZZZ-ZZZZ-ZZZY');
      server.clock.advance(15 * 60_000);
      expect((await desde('127.0.0.95', codigo)).status).toBe(200);
    });
  });
});
