/**
 * Demo supply points (docs/api.md "demo accounts"): the household of consumidor@electra.example at
 * EPD and EOD (one with solar self-consumption), the company of empresa@electra.example with a 3.0TD
 * and a 6.1TD supply with quarter-hourly meters, and one home for each of the first generated
 * accounts (cliente001…), so the administration list shows consumers too. CUPS ids 1 and 2 of EPD
 * and EOD are the ones the demo network incidents name (src/server/incidencias/demo.ts).
 * Loaded through the SIPS2026 register import, the path a distributor's own file takes, which also grants `-distribucion`.
 */
import { inArray } from 'drizzle-orm';
import { construirCups } from '../../lib/cups.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { Random } from '../demo/random.ts';
import { correoClienteDemo } from '../usuarios/demo.ts';
import { cargarRegistroDemo } from '../sips/demo.ts';
import type { SuministroEntrada } from './service.ts';

/** How a demo supply point consumes: the measure generator draws its curve from this. */
export type PerfilDemo = 'hogar' | 'hogar_solar' | 'negocio' | 'industria';

/** A demo supply point and the profile of its curve. */
export interface SuministroDemo {
  suministro: SuministroEntrada;
  perfil: PerfilDemo;
}

/** Municipalities (INE register codes) where each distributor supplies, with a postal code. */
const MUNICIPIOS: Record<CodigoDistribuidora, readonly { municipio: string; ine: string; provincia: string; cp: string }[]> = {
  epd: [
    { municipio: 'Alcalá de Henares', ine: '28005', provincia: 'Madrid', cp: '28801' },
    { municipio: 'Getafe', ine: '28065', provincia: 'Madrid', cp: '28901' },
    { municipio: 'Toledo', ine: '45168', provincia: 'Toledo', cp: '45001' },
    { municipio: 'Segovia', ine: '40194', provincia: 'Segovia', cp: '40001' },
    { municipio: 'Guadalajara', ine: '19130', provincia: 'Guadalajara', cp: '19001' },
  ],
  eod: [
    { municipio: 'Mérida', ine: '06083', provincia: 'Badajoz', cp: '06800' },
    { municipio: 'Cáceres', ine: '10037', provincia: 'Cáceres', cp: '10001' },
    { municipio: 'Dos Hermanas', ine: '41038', provincia: 'Sevilla', cp: '41700' },
    { municipio: 'Huelva', ine: '21041', provincia: 'Huelva', cp: '21001' },
  ],
  ecd: [
    { municipio: 'Santander', ine: '39075', provincia: 'Cantabria', cp: '39001' },
    { municipio: 'Torrelavega', ine: '39087', provincia: 'Cantabria', cp: '39300' },
    { municipio: 'Gijón', ine: '33024', provincia: 'Asturias', cp: '33201' },
  ],
};

const CALLES = [
  'Calle Mayor',
  'Avenida de la Constitución',
  'Calle Real',
  'Calle del Carmen',
  'Plaza de España',
  'Calle San Juan',
  'Paseo del Prado',
];
const COMERCIALIZADORAS = [
  // The demo supply company's own code (REE 9811): the supply points it supplies.
  { codigo: '9811', nombre: 'Energía Clara Comercializadora Demo, S.L.' },
  { codigo: '0902', nombre: 'Luz del Sur Comercializadora Demo, S.A.' },
  { codigo: '0903', nombre: 'Comercializadora de Referencia Demo, S.A.' },
] as const;

/** Normalised household powers (kW) in the ITC-BT-10 steps people contract most. */
const POTENCIAS_HOGAR_KW = [3.45, 4.6, 5.75, 6.9] as const;

const w = (kw: number) => Math.round(kw * 1000);

/** A reading cycle day (1–28) spread over the month by distributor and CUPS id, so the demo's readings do not all fall on one day. */
const cicloDemo = (codigoREE: string, n: number) => ((Number(codigoREE) + n * 11) % 28) + 1;

/**
 * Generated homes whose meter is not integrated in telemanagement, by client number (cliente006…):
 * a reader visits them, so the scheduled readings and the meter state screens show that case too.
 */
const SIN_TELEGESTION: Readonly<Record<number, Partial<SuministroEntrada>>> = {
  6: { telegestionado: false, modoControlPotencia: 'icp', periodicidadFacturacion: 'bimestral' },
  // Supplied by the demo supply company, which passes on its customer's self-readings (W1, src/server/atr/demo.ts).
  7: {
    telegestionado: false,
    modoControlPotencia: 'icp',
    comercializadoraCodigo: COMERCIALIZADORAS[0].codigo,
    comercializadoraNombre: COMERCIALIZADORAS[0].nombre,
  },
};

/** A supply point of distributor `d`, id `n` (the 12-digit part of the CUPS), with sensible defaults. */
function suministro(
  random: Random,
  d: CodigoDistribuidora,
  n: number,
  titular: { nif: string; nombre: string },
  datos: Partial<SuministroEntrada> & Pick<SuministroEntrada, 'tarifa' | 'potenciasW'>,
): SuministroEntrada {
  const dist = DISTRIBUIDORAS.find((x) => x.codigo === d)!;
  const lugar = random.pick(MUNICIPIOS[d]);
  const com = random.pick(COMERCIALIZADORAS);
  return {
    cups: construirCups(dist.codigoREE, n),
    distribuidora: d,
    titularNif: titular.nif,
    titularNombre: titular.nombre,
    direccion: `${random.pick(CALLES)}, ${random.int(1, 120)}`,
    codigoPostal: lugar.cp,
    municipio: lugar.municipio,
    codigoIne: lugar.ine,
    provincia: lugar.provincia,
    potenciaMaximaW: Math.max(...datos.potenciasW) * 2,
    tensionV: 230,
    contadorInteligente: true,
    telegestionado: true,
    propiedadContador: 'distribuidora',
    numeroContador: `${dist.codigoREE}${String(random.int(10_000_000, 99_999_999))}`,
    fasesContador: 'monofasico',
    resolucionMinutos: 60,
    modoControlPotencia: 'telegestion',
    autoconsumo: 'ninguno',
    comercializadoraCodigo: com.codigo,
    comercializadoraNombre: com.nombre,
    periodicidadFacturacion: 'mensual',
    cicloLectura: cicloDemo(dist.codigoREE, n),
    fechaAlta: `20${random.int(10, 22)}-${String(random.int(1, 12)).padStart(2, '0')}-01`,
    fechaBaja: null,
    ...datos,
  };
}

/** The demo supply points for the demo accounts and the first `clientes` generated accounts. */
export async function suministrosDemo(db: Db, random: Random, clientes: number, now: Date): Promise<SuministroDemo[]> {
  const lista: SuministroDemo[] = [];
  const lucia = { nif: '12345678Z', nombre: 'Lucía Martín Ortega' };
  const talleres = { nif: 'B00004010', nombre: 'Talleres Ribera Demo, S.L.' };
  lista.push({
    perfil: 'hogar',
    suministro: {
      ...suministro(random, 'epd', 1, lucia, { tarifa: '2.0TD', potenciasW: [w(4.6), w(4.6)] }),
      direccion: 'Calle Libreros, 14, 3.º B',
      municipio: 'Alcalá de Henares',
      codigoIne: '28005',
      provincia: 'Madrid',
      codigoPostal: '28801',
      potenciaMaximaW: w(9.2),
    },
  });
  // The demo supply points that the demo incidents list by CUPS (src/server/incidencias/demo.ts) are
  // placed where those incidents happen, so "my interruptions" shows consistent places.
  const merida = { municipio: 'Mérida', codigoIne: '06083', provincia: 'Badajoz', codigoPostal: '06800' };
  const alcala = { municipio: 'Alcalá de Henares', codigoIne: '28005', provincia: 'Madrid', codigoPostal: '28801' };
  lista.push({
    perfil: 'hogar_solar',
    suministro: suministro(random, 'eod', 1, lucia, {
      tarifa: '2.0TD',
      potenciasW: [w(5.75), w(5.75)],
      potenciaMaximaW: w(9.2),
      autoconsumo: 'con_excedentes_compensacion',
      direccion: 'Calle Santa Eulalia, 37',
      ...merida,
    }),
  });
  lista.push({
    perfil: 'negocio',
    suministro: suministro(random, 'epd', 2, talleres, {
      direccion: 'Calle Francisco Alonso, 12, nave 4',
      ...alcala,
      tarifa: '3.0TD',
      potenciasW: [20, 20, 25, 25, 25, 40].map(w),
      potenciaMaximaW: w(55),
      tensionV: 400,
      fasesContador: 'trifasico',
      resolucionMinutos: 15,
      modoControlPotencia: 'maximetro',
    }),
  });
  lista.push({
    perfil: 'industria',
    suministro: suministro(random, 'eod', 2, talleres, {
      direccion: 'Polígono El Prado, parcela 21',
      ...merida,
      tarifa: '6.1TD',
      potenciasW: [88, 88, 88, 88, 88, 100].map(w),
      potenciaMaximaW: w(250),
      tensionV: 20_000,
      fasesContador: 'trifasico',
      resolucionMinutos: 15,
      modoControlPotencia: 'maximetro',
      propiedadContador: 'cliente',
    }),
  });
  const emails = Array.from({ length: clientes }, (_, i) => correoClienteDemo(i + 1));
  const titulares = emails.length
    ? await db
        .select({ email: users.email, nif: users.nif, nombre: users.nombre, apellido1: users.apellido1, razonSocial: users.razonSocial })
        .from(users)
        .where(inArray(users.email, emails))
    : [];
  titulares.sort((a, b) => a.email.localeCompare(b.email));
  titulares.forEach((t, i) => {
    const d = (['epd', 'eod', 'ecd'] as const)[i % 3]!;
    const kw = random.pick(POTENCIAS_HOGAR_KW);
    const empresa = t.razonSocial !== '';
    lista.push({
      perfil: empresa ? 'negocio' : random.chance(0.2) ? 'hogar_solar' : 'hogar',
      suministro: suministro(
        random,
        d,
        100 + i,
        { nif: t.nif!, nombre: empresa ? t.razonSocial : `${t.nombre} ${t.apellido1}` },
        {
          tarifa: '2.0TD',
          potenciasW: [w(kw), w(kw)],
          potenciaMaximaW: w(9.2),
          ...SIN_TELEGESTION[i + 1],
        },
      ),
    });
  });
  for (const s of lista) if (s.perfil === 'hogar_solar') s.suministro.autoconsumo = 'con_excedentes_compensacion';
  // Written as the distributor's SIPS2026 register file and loaded through the register import (docs/decisions/016).
  await cargarRegistroDemo(
    db,
    lista.map((s) => s.suministro),
    now,
  );
  return lista;
}
