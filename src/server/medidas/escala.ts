/**
 * Demo data at scale (`--supply-points`, `--months`), for benchmarks and load tests: N
 * supply points with generated holders and M months of hourly curves each, written through
 * `guardarSuministros` and `importarMedidas` like any real file, a batch of supply points per
 * transaction so memory stays flat whatever N is.
 */
import { construirCups } from '../../lib/cups.ts';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { sumarDias } from '../../lib/calendario/fechas.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import type { Db } from '../db/client.ts';
import { createRandom } from '../demo/random.ts';
import { guardarSuministros, type SuministroEntrada } from '../suministros/service.ts';
import { configuracionDemoAleatoria, generarSerieDemo } from './demo-perfiles.ts';
import { importarMedidas } from './importar.ts';

/** What to generate. */
export interface OpcionesEscala {
  /** Supply points. */
  suministros: number;
  /** Months of hourly data up to yesterday. */
  meses: number;
  /** Seed: the same options give the same data. */
  semilla?: number;
  /** First number of the 12-digit CUPS ids, so several runs can add to one database. */
  primerId?: number;
  /** Supply points per transaction. */
  lote?: number;
  /** Called after each batch with the supply points done. */
  progreso?: (hechos: number) => void;
}

/** DNI letter of a number (mod 23), for the generated holders. */
const letra = (n: number) => 'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]!;

/** Where a generated supply point is, and its distributor. */
export interface LugarEscala {
  distribuidora: (typeof DISTRIBUIDORAS)[number];
  codigoPostal: string;
  municipio: string;
  codigoIne: string;
  provincia: string;
}

/**
 * The supply point number `id` of the generated data: CUPS `id` at its distributor, an invented
 * holder with a valid DNI, and the contract of its demo profile `conf`.
 */
export function suministroDeEscala(id: number, conf: ReturnType<typeof configuracionDemoAleatoria>, lugar: LugarEscala): SuministroEntrada {
  const d = lugar.distribuidora;
  const numero = 30_000_000 + (id % 60_000_000);
  const potenciasW = conf.potenciasKw.map((kw) => Math.round(kw * 1000));
  return {
    cups: construirCups(d.codigoREE, id),
    distribuidora: d.codigo,
    titularNif: `${numero}${letra(numero)}`,
    titularNombre: `Titular ${id}`,
    direccion: `Calle de la Prueba, ${(id % 200) + 1}`,
    codigoPostal: lugar.codigoPostal,
    municipio: lugar.municipio,
    codigoIne: lugar.codigoIne,
    provincia: lugar.provincia,
    tarifa: conf.tarifa,
    potenciasW,
    potenciaMaximaW: Math.max(...potenciasW) * 2,
    tensionV: conf.tarifa === '2.0TD' ? 230 : conf.tarifa === '3.0TD' ? 400 : 20_000,
    contadorInteligente: true,
    telegestionado: true,
    propiedadContador: 'distribuidora',
    numeroContador: String(id),
    fasesContador: conf.tarifa === '2.0TD' ? 'monofasico' : 'trifasico',
    resolucionMinutos: 60,
    modoControlPotencia: conf.tarifa === '2.0TD' ? 'telegestion' : 'maximetro',
    autoconsumo: conf.solarKwp > 0 ? 'con_excedentes_compensacion' : 'ninguno',
    comercializadoraCodigo: '0901',
    comercializadoraNombre: 'Energía Clara Comercializadora Demo, S.L.',
    periodicidadFacturacion: 'mensual',
    cicloLectura: (id % 28) + 1,
    fechaAlta: '2020-01-01',
    fechaBaja: null,
  };
}

/** Generates and imports; answers how many supply points and hours were written. */
export async function cargarEscala(db: Db, o: OpcionesEscala, ahora = new Date()): Promise<{ suministros: number; horas: number }> {
  const random = createRandom(o.semilla ?? 42);
  const hasta = sumarDias(fechaLocalDe(ahora), -1);
  const desde = sumarDias(hasta, -Math.round(o.meses * 30.4375) + 1);
  const lote = o.lote ?? 25;
  const primerId = o.primerId ?? 10_000_000;
  let horas = 0;
  for (let i = 0; i < o.suministros; i += lote) {
    const puntos: { s: SuministroEntrada; perfil: ReturnType<typeof configuracionDemoAleatoria> }[] = [];
    for (let k = i; k < Math.min(i + lote, o.suministros); k++) {
      const conf = configuracionDemoAleatoria(random);
      // Every one in Madrid, the distributors in turn.
      const lugar = {
        distribuidora: DISTRIBUIDORAS[k % DISTRIBUIDORAS.length]!,
        codigoPostal: '28001',
        municipio: 'Madrid',
        codigoIne: '28079',
        provincia: 'Madrid',
      };
      puntos.push({ perfil: conf, s: suministroDeEscala(primerId + k, conf, lugar) });
    }
    await guardarSuministros(
      db,
      puntos.map((p) => p.s),
    );
    const registros = puntos.flatMap((p, j) => [
      ...generarSerieDemo({
        cups: p.s.cups,
        perfil: p.perfil.perfil,
        desde,
        hasta,
        semilla: (o.semilla ?? 42) * 1_000_003 + i + j,
        consumoAnualKwh: p.perfil.consumoAnualKwh,
        solarKwp: p.perfil.solarKwp,
      }),
    ]);
    const r = await importarMedidas(db, registros);
    if (!r.ok) throw new Error(`Datos de escala no válidos: ${r.errores[0]?.motivo ?? ''}`);
    horas += r.horas.nuevas + r.horas.actualizadas + r.horas.conservadas;
    o.progreso?.(Math.min(i + lote, o.suministros));
  }
  return { suministros: o.suministros, horas };
}
