/**
 * Demo meters, written through the services real data goes through: every demo supply
 * point gets a meter state (`guardarEstadosContador`) and the register readings of its past reading
 * dates (`guardarLecturasContador`), derived from its demo hourly curve so the readings agree with the
 * consumption screens (src/lib/lecturas/registros.ts). Most meters communicate and have supply; a few
 * generated homes show each other case (the README lists them). The reading cycles and the homes
 * without telemanagement are set where the supply points are generated (src/server/suministros/demo.ts).
 * A random stream of its own keeps the other generators' data as it was.
 */
import { sql } from 'drizzle-orm';
import type { EstadoSuministro, Interruptor } from '../../lib/lecturas/estado-contador.ts';
import { lecturasEntre, momentoLectura } from '../../lib/lecturas/programa.ts';
import { registrosEnCierres } from '../../lib/lecturas/registros.ts';
import { sumarDias } from '../../lib/calendario/fechas.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { esCodigoTarifa, numeroPeriodos, periodoEnergia } from '../../lib/medidas/periodos.ts';
import { queryRows, type Db } from '../db/client.ts';
import { suministros, users } from '../db/schema.ts';
import type { DemoStep } from '../demo/load.ts';
import { createRandom, type Random } from '../demo/random.ts';
import { zonaElectricaDeIne } from '../medidas/potencias.ts';
import { leerCurva, medidasDeCurva } from '../medidas/service.ts';
import type { Suministro } from '../suministros/service.ts';
import {
  datosCicloDe,
  guardarEstadosContador,
  guardarLecturasContador,
  zonaDe,
  type EstadoEntrada,
  type LecturaEntrada,
} from './service.ts';

const HORA = 3_600_000;

/** A meter's state without its supply point. */
type Estado = Omit<EstadoEntrada, 'suministroId'>;

/** The state of a meter that works: it communicated a little while ago, power available, supply on. */
function normal(s: Suministro, ahora: Date, random: Random): Estado {
  return {
    comunica: s.telegestionado,
    ultimaComunicacion: s.telegestionado ? new Date(ahora.getTime() - random.int(5, 170) * 60_000) : null,
    interruptor: s.modoControlPotencia === 'maximetro' ? 'sin_elemento' : 'cerrado',
    estadoSuministro: 'con_suministro',
    motivo: null,
  };
}

/** The generated homes that show the other states, by client number (cliente002…); null: no state known yet. */
const ESPECIALES: Readonly<Record<number, ((ahora: Date) => Partial<Estado>) | null>> = {
  2: (ahora) => ({ comunica: false, ultimaComunicacion: new Date(ahora.getTime() - 9 * 24 * HORA - 3 * HORA) }),
  3: () => ({ interruptor: 'abierto_exceso' as Interruptor }),
  4: () => ({
    interruptor: 'abierto_remoto' as Interruptor,
    estadoSuministro: 'cortado' as EstadoSuministro,
    motivo: 'Corte por impago solicitado por su comercializadora.',
  }),
  5: () => ({
    estadoSuministro: 'sin_suministro' as EstadoSuministro,
    motivo: 'Avería en la línea de baja tensión de su calle. Nuestro equipo trabaja en la reparación.',
  }),
  8: null,
};

/** Client number (1…) of a generated account's e-mail, or null for any other. */
function numeroCliente(email: string | undefined): number | null {
  const m = email ? /^cliente(\d{3})@correo\.example$/.exec(email) : null;
  return m ? Number(m[1]) : null;
}

/** Loads the demo meter states and register readings of every supply point already generated. */
export const demoLecturas: DemoStep = async (db, _random, now) => {
  const random = createRandom(7_100);
  const lista = await db.select().from(suministros).orderBy(suministros.id);
  const titulares = await db.select({ nif: users.nif, email: users.email }).from(users);
  const emailDe = new Map(titulares.map((t) => [t.nif, t.email]));
  const estados: EstadoEntrada[] = [];
  let lecturas = 0;
  for (const s of lista) {
    const n = numeroCliente(emailDe.get(s.titularNif));
    const especial = n !== null && n in ESPECIALES ? ESPECIALES[n] : undefined;
    const estado = { ...normal(s, now, random), ...(especial ? especial(now) : {}) };
    if (especial !== null) estados.push({ suministroId: s.id, ...estado });
    const filas = await lecturasDeLaCurva(db, s, now, random, estado.comunica ? null : estado.ultimaComunicacion);
    await guardarLecturasContador(db, filas);
    lecturas += filas.length;
  }
  await guardarEstadosContador(db, estados, { origen: 'demo', actualizadoPor: null, ahora: now });
  return { estadosContador: estados.length, lecturasContador: lecturas };
};

/**
 * The register readings of a supply point at its past reading dates inside its curve: an initial
 * value per register plus the curve's kWh of each period up to each closure. A telemanaged meter that
 * stopped communicating has its later closures estimated; a visited meter has one self-reading.
 */
async function lecturasDeLaCurva(
  db: Db,
  s: Suministro,
  ahora: Date,
  random: Random,
  sinComunicarDesde: Date | null,
): Promise<LecturaEntrada[]> {
  if (!esCodigoTarifa(s.tarifa)) return [];
  const tarifa = s.tarifa;
  const [rango] = await queryRows<{ desde: Date | string | null; hasta: Date | string | null }>(
    db,
    sql`select min(inicio) as desde, max(inicio) as hasta from medidas_horarias where suministro_id = ${s.id}`,
  );
  if (!rango?.desde || !rango.hasta) return [];
  const desde = new Date(rango.desde);
  const hasta = new Date(new Date(rango.hasta).getTime() + HORA);
  const zona = zonaDe(s);
  const zonaElectrica = zonaElectricaDeIne(s.codigoIne);
  const cierres = lecturasEntre(datosCicloDe(s, null), sumarDias(fechaLocalDe(desde, zona), 1), fechaLocalDe(ahora, zona))
    .map((l) => ({ l, momento: momentoLectura(l, zona) }))
    .filter((c) => c.momento > desde && c.momento <= hasta && c.momento <= ahora);
  if (cierres.length === 0) return [];
  const curva = await leerCurva(db, s.id, desde, hasta, 'hora');
  const escala = tarifa === '2.0TD' ? 1 : 40;
  const iniciales = {
    activaKwh: Array.from({ length: numeroPeriodos(tarifa) }, () => random.int(1_500, 25_000) * escala),
    exportadaKwh: curva.exportadaWh.some((e) => e !== null) ? random.int(300, 4_000) : null,
  };
  const lecturas = registrosEnCierres(
    medidasDeCurva(curva, 60),
    cierres.map((c) => c.momento),
    (t) => Number(periodoEnergia(t, tarifa, zonaElectrica).slice(1)) - 1,
    iniciales,
  );
  return lecturas.map((r, i) => {
    const visita = cierres[i]!.l.tipo === 'visita';
    const origen = visita
      ? i === lecturas.length - 2
        ? 'autolectura'
        : 'real'
      : sinComunicarDesde && r.momento > sinComunicarDesde
        ? 'estimada'
        : 'real';
    return { suministroId: s.id, momento: r.momento, origen, activaKwh: r.activaKwh, exportadaKwh: r.exportadaKwh };
  });
}
