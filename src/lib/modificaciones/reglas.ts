/**
 * The rules a contractual modification must meet (docs/decisions/011), as plain functions
 * shared by the request form (checked on submit, each message beside its field) and the API (which
 * checks again on its own data and answers 400 with the same messages). A rule that a distributor
 * would refuse with a tabla 27 reason names that code ("15 · Secuencia de potencias incorrecta …").
 */
import { esNifValido, normalizarNif } from '../nif.ts';
import { fechaSinDia } from '../medidas/pantalla/formato.ts';
import { mensajeMotivo, type CodigoMotivo } from './motivos.ts';
import {
  esBajaTension,
  exigeNormalizadas,
  LIMITE_2_0TD_W,
  normalizadasCercanas,
  potenciasNormalizadas,
  tensionNormalizacion,
  textoKw,
} from './potencias.ts';
import { esTarifa, periodosDe, TARIFAS_ELEGIBLES, type ContratoSolicitud, type ModoTitular } from './tipos.ts';

/** Longest holder name or company name (the registration's company-name limit, docs/producto.md §5). */
export const MAX_NOMBRE_TITULAR = 150;

/** A field of the request form a message belongs to. */
export type CampoSolicitud = 'suministro' | 'tipo' | 'tarifa' | 'p1' | 'p2' | 'p3' | 'p4' | 'p5' | 'p6' | 'modo' | 'nif' | 'nombre';

/** One failed rule: its tabla 27 code (null for a plain form error), the field, the Spanish message. */
export interface ErrorRegla {
  codigo: CodigoMotivo | null;
  campo: CampoSolicitud;
  mensaje: string;
}

/** What the rules need to know of the supply point. */
export interface ContextoReglas {
  contrato: ContratoSolicitud;
  /** The contract has ended. */
  enBaja: boolean;
  /** The supply is cut (estado_contador.estado_suministro = 'cortado'). */
  cortado: boolean;
  /** Reference (MC-000123) of a request of this supply point still in progress, or null. */
  solicitudEnCurso: string | null;
  /** Last day the contracted power changed, YYYY-MM-DD, or null. */
  ultimoCambioPotencia: string | null;
  /** Day the current holder took the contract over (a change of holder activated), YYYY-MM-DD, or null when it never changed here. */
  titularDesde: string | null;
  /** Today in Madrid, YYYY-MM-DD. */
  hoy: string;
}

/** What is asked, as the rules read it. A power that could not be read as kW is null. */
export type EntradaReglas =
  | { tipo: 'potencia'; potenciasW: readonly (number | null)[] }
  | { tipo: 'tarifa'; tarifa: string; potenciasW: readonly (number | null)[] }
  | { tipo: 'titular'; modo: ModoTitular; nif: string; nombre: string };

/** The field of period i (0-based). */
export function campoPeriodo(i: number): CampoSolicitud {
  return `p${i + 1}` as CampoSolicitud;
}

/** The day a power change 12 months after `fecha` becomes possible (29 February → 1 March). */
export function fechaPosibleCambio(fecha: string): string {
  const [a, m, d] = fecha.split('-').map(Number) as [number, number, number];
  const siguiente = new Date(Date.UTC(a + 1, m - 1, d));
  return siguiente.toISOString().slice(0, 10);
}

const kW = (w: number) => `${textoKw(w)} kW`;

const error = (codigo: CodigoMotivo | null, campo: CampoSolicitud, mensaje: string): ErrorRegla => ({ codigo, campo, mensaje });

/** Reasons that stop any request of this supply point: ended, cut, another in progress. */
function reglasSuministro(ctx: ContextoReglas): ErrorRegla[] {
  const out: ErrorRegla[] = [];
  if (ctx.enBaja)
    out.push(
      error(
        '72',
        'suministro',
        mensajeMotivo('72', 'el contrato de acceso de este suministro ha terminado y ya no admite modificaciones.'),
      ),
    );
  if (ctx.cortado) {
    out.push(
      error(
        '12',
        'suministro',
        mensajeMotivo('12', 'el suministro está cortado y no admite modificaciones hasta que se reponga. Consulte el estado del contador.'),
      ),
    );
  }
  if (ctx.solicitudEnCurso) {
    out.push(
      error(
        '40',
        'suministro',
        mensajeMotivo(
          '40',
          `la solicitud ${ctx.solicitudEnCurso} de este suministro sigue en trámite. Espere a que se resuelva, o anúlela si aún no se ha aceptado, antes de pedir otra.`,
        ),
      ),
    );
  }
  return out;
}

/**
 * At most one power change in 12 months for the same holder (reason 65, CNMC tabla 27): a change
 * made before the current holder took over does not bind them.
 */
export function cambioPotenciaVincula(ctx: Pick<ContextoReglas, 'ultimoCambioPotencia' | 'titularDesde'>): boolean {
  if (!ctx.ultimoCambioPotencia) return false;
  return !ctx.titularDesde || ctx.ultimoCambioPotencia >= ctx.titularDesde;
}

/** At most one power change in 12 months for the same holder (reason 65). */
function reglaDoceMeses(ctx: ContextoReglas): ErrorRegla[] {
  if (!ctx.ultimoCambioPotencia || !cambioPotenciaVincula(ctx)) return [];
  const posible = fechaPosibleCambio(ctx.ultimoCambioPotencia);
  if (ctx.hoy >= posible) return [];
  return [
    error(
      '65',
      'suministro',
      mensajeMotivo(
        '65',
        `la potencia de este suministro cambió el ${fechaSinDia(ctx.ultimoCambioPotencia)}; podrá pedir otro cambio de potencia a partir del ${fechaSinDia(posible)}.`,
      ),
    ),
  ];
}

/**
 * The powers for `tarifa` on this contract: how many, readable, within the tariff's range (52),
 * normalised where a switch controls them (47/48, or 49 past the highest single-phase value), within
 * the installation's maximum (14 in low voltage, A9 in high voltage), and non-decreasing from P1 to
 * P6 in six-period tariffs (15). One message per period at most, the first rule it fails.
 */
export function comprobarPotencias(contrato: ContratoSolicitud, tarifa: string, potenciasW: readonly (number | null)[]): ErrorRegla[] {
  const periodos = periodosDe(tarifa);
  if (potenciasW.length !== periodos) {
    return [
      error(null, 'p1', `La tarifa ${tarifa} contrata ${periodos} potencias, una por periodo (P1 a P${periodos}); indique ${periodos}.`),
    ];
  }
  const out: ErrorRegla[] = [];
  const conError = new Set<number>();
  const normalizar = exigeNormalizadas(contrato);
  const normalizadas = potenciasNormalizadas(contrato.fases, contrato.tensionV);
  const voltios = tensionNormalizacion(contrato.fases, contrato.tensionV);
  const maxNormalizada = normalizadas[normalizadas.length - 1]!;
  const monofasico = contrato.fases === 'monofasico';
  potenciasW.forEach((w, i) => {
    const campo = campoPeriodo(i);
    const p = `P${i + 1}`;
    const falla = (e: ErrorRegla) => {
      out.push(e);
      conError.add(i);
    };
    if (w === null || !Number.isInteger(w) || w <= 0) {
      falla(error(null, campo, `${p}: escriba la potencia en kW, mayor que cero y con tres decimales como mucho (por ejemplo, 4,6).`));
      return;
    }
    if (tarifa === '2.0TD' && w > LIMITE_2_0TD_W) {
      falla(
        error(
          '52',
          campo,
          mensajeMotivo(
            '52',
            `la tarifa 2.0TD admite hasta 15 kW en cada periodo y ${p} pide ${kW(w)}. Para más de 15 kW pida el cambio a la tarifa 3.0TD.`,
          ),
        ),
      );
      return;
    }
    if (normalizar && monofasico && w > maxNormalizada) {
      falla(
        error(
          '49',
          campo,
          mensajeMotivo(
            '49',
            `a ${voltios} V la potencia normalizada más alta es ${kW(maxNormalizada)} y ${p} pide ${kW(w)}: su instalación tendría que pasar a trifásica.`,
          ),
        ),
      );
      return;
    }
    if (normalizar && !normalizadas.includes(w)) {
      const { abajo, arriba } = normalizadasCercanas(w, contrato.fases, contrato.tensionV);
      const cercanas = [abajo, arriba].filter((x): x is number => x !== null).map(kW);
      const tension = monofasico ? `${voltios} V (monofásica)` : `3 × ${voltios} V (trifásica)`;
      falla(
        error(
          monofasico ? '48' : '47',
          campo,
          mensajeMotivo(
            monofasico ? '48' : '47',
            `${kW(w)} en ${p} no es una potencia normalizada a ${tension}; ${cercanas.length > 1 ? `las más próximas son ${cercanas.join(' y ')}` : `la más próxima es ${cercanas[0]}`}.`,
          ),
        ),
      );
      return;
    }
    if (w > contrato.potenciaMaximaW) {
      const codigo = esBajaTension(contrato.tensionV) ? '14' : 'A9';
      falla(
        error(
          codigo,
          campo,
          mensajeMotivo(
            codigo,
            `${p} pide ${kW(w)} y la instalación admite como mucho ${kW(contrato.potenciaMaximaW)} (su boletín o acta de puesta en servicio). Para más potencia hace falta ampliar la instalación.`,
          ),
        ),
      );
    }
  });
  if (periodos === 6) {
    for (let i = 1; i < potenciasW.length; i++) {
      const antes = potenciasW[i - 1];
      const ahora = potenciasW[i];
      if (
        conError.has(i) ||
        conError.has(i - 1) ||
        antes === null ||
        antes === undefined ||
        ahora === null ||
        ahora === undefined ||
        ahora >= antes
      )
        continue;
      out.push(
        error(
          '15',
          campoPeriodo(i),
          mensajeMotivo(
            '15',
            `en la tarifa ${tarifa} cada periodo debe tener al menos la potencia del anterior, y P${i + 1} (${kW(ahora)}) es menor que P${i} (${kW(antes)}).`,
          ),
        ),
      );
    }
  }
  if (tarifa === '3.0TD' && out.length === 0 && potenciasW.every((w) => w !== null && w <= LIMITE_2_0TD_W)) {
    out.push(
      error(
        '52',
        'p1',
        mensajeMotivo(
          '52',
          'la tarifa 3.0TD es para potencias de más de 15 kW en algún periodo; con 15 kW o menos en todos corresponde la 2.0TD.',
        ),
      ),
    );
  }
  return out;
}

/** Whether two lists of powers are the same. */
function mismas(a: readonly (number | null)[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The rules of a change of tariff: only between the low-voltage tariffs, never to or from 6.xTD (17). */
function reglasTarifa(ctx: ContextoReglas, tarifa: string, potenciasW: readonly (number | null)[]): ErrorRegla[] {
  const c = ctx.contrato;
  if (!esTarifa(tarifa)) return [error(null, 'tarifa', 'Elija la tarifa de acceso que quiere contratar.')];
  if (tarifa === c.tarifa)
    return [
      error(null, 'tarifa', `Su suministro ya tiene la tarifa ${tarifa}. Para cambiar solo la potencia, elija «Potencia contratada».`),
    ];
  if (!esBajaTension(c.tensionV)) {
    return [
      error(
        '17',
        'tarifa',
        mensajeMotivo(
          '17',
          `el suministro es de alta tensión (${textoKw(c.tensionV)} kV) y su tarifa, la ${c.tarifa}, la determina la tensión; no admite la ${tarifa}.`,
        ),
      ),
    ];
  }
  if (!TARIFAS_ELEGIBLES.includes(tarifa)) {
    return [
      error(
        '17',
        'tarifa',
        mensajeMotivo(
          '17',
          `las tarifas 6.xTD corresponden a suministros de alta tensión, y este es de ${c.tensionV} V. En baja tensión puede elegir 2.0TD o 3.0TD.`,
        ),
      ),
    ];
  }
  return comprobarPotencias(c, tarifa, potenciasW);
}

/** The rules of holder data: a valid NIF different from the holder's (36, 55) and a name (85). */
function reglasTitular(ctx: ContextoReglas, modo: ModoTitular, nifTexto: string, nombreTexto: string): ErrorRegla[] {
  const out: ErrorRegla[] = [];
  const nombre = nombreTexto.trim();
  if (modo === 'cambio') {
    const nif = normalizarNif(nifTexto);
    if (!nif) out.push(error('85', 'nif', mensajeMotivo('85', 'indique el NIF, NIE o CIF del nuevo titular.')));
    else if (!esNifValido(nif))
      out.push(
        error('36', 'nif', mensajeMotivo('36', `${nif} no es un DNI, NIE ni CIF válido. Compruebe las cifras y la letra de control.`)),
      );
    else if (nif === ctx.contrato.titularNif)
      out.push(
        error(
          '55',
          'nif',
          mensajeMotivo(
            '55',
            `${nif} ya es el titular de este suministro. Para corregir el nombre, elija «Corregir los datos del titular».`,
          ),
        ),
      );
  }
  if (!nombre) {
    out.push(
      error(
        '85',
        'nombre',
        mensajeMotivo(
          '85',
          modo === 'cambio'
            ? 'indique el nombre y apellidos o la razón social del nuevo titular.'
            : 'indique el nombre y apellidos o la razón social corregidos.',
        ),
      ),
    );
  } else if (nombre.length > MAX_NOMBRE_TITULAR) {
    out.push(error(null, 'nombre', `El nombre no puede superar ${MAX_NOMBRE_TITULAR} caracteres.`));
  } else if (modo === 'correccion' && nombre.toLocaleLowerCase('es') === ctx.contrato.titularNombre.trim().toLocaleLowerCase('es')) {
    out.push(error(null, 'nombre', 'Ese es el nombre que ya figura en el contrato. Escriba el nombre corregido.'));
  }
  return out;
}

/**
 * Every rule a request fails on this supply point, in the form's order; empty when it may be sent.
 * The supply-point reasons (72, 12, 40, and 65 for changes of power) come first.
 */
export function comprobarSolicitud(ctx: ContextoReglas, e: EntradaReglas): ErrorRegla[] {
  const out = reglasSuministro(ctx);
  switch (e.tipo) {
    case 'potencia': {
      if (mismas(e.potenciasW, ctx.contrato.potenciasW)) {
        out.push(error(null, 'p1', 'Esas son las potencias que ya tiene contratadas. Cambie al menos la de un periodo.'));
        return out;
      }
      out.push(...reglaDoceMeses(ctx), ...comprobarPotencias(ctx.contrato, ctx.contrato.tarifa, e.potenciasW));
      return out;
    }
    case 'tarifa': {
      const reglas = reglasTarifa(ctx, e.tarifa, e.potenciasW);
      const doce = mismas(e.potenciasW, ctx.contrato.potenciasW) ? [] : reglaDoceMeses(ctx);
      out.push(...(reglas.some((r) => r.codigo === '17' || r.campo === 'tarifa') ? [] : doce), ...reglas);
      return out;
    }
    case 'titular':
      out.push(...reglasTitular(ctx, e.modo, e.nif, e.nombre));
      return out;
  }
}
