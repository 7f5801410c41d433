/**
 * "No tengo luz": what explains that a supply point has no power, decided from data the portal
 * already holds, in this order (docs/decisions/023-no-tengo-luz.md):
 *   1. the meter says the supply is cut (a cut asked for by the retailer or an authority: it
 *      explains the lack of power whatever else happens in the area);
 *   2. an open network incident of the supply's distributor that is in effect now and lists the
 *      supply point or happens in its area (RD 1955/2000 art. 101: scheduled interruptions are
 *      announced beforehand; faults are published as they are known);
 *   3. the meter's power control switch tripped by excess demand (ICP, or the smart meter's own
 *      switch) or opened remotely by the distributor;
 *   4. the meter reports no supply because of a fault the distributor already knows;
 *   5. nothing known: a fault report is registered.
 * Plain TypeScript, shared by the API (which decides) and the tests; it never sees who holds the
 * supply point, so nothing it answers can name them.
 */
import type { EstadoSuministro, Interruptor } from '../lecturas/estado-contador.ts';

/** An open incident as the decision needs it (public fields only). */
export interface IncidenciaCandidata {
  id: string;
  estadoIncidenciaRed: 'Programada' | 'En curso' | 'Activa';
  descripcion: string;
  municipio: string;
  inicio: string;
  finPrevisto: string | null;
  /** suministro: it lists the CUPS; zona: it happens in its postal code or municipality. */
  afecta: 'suministro' | 'zona';
}

/** The meter's last known state (estado_contador), or null when none is known. */
export interface EstadoMedidor {
  interruptor: Interruptor;
  estadoSuministro: EstadoSuministro;
}

/** What the meter explains, when it does. */
export type SituacionContador = 'cortado' | 'icp' | 'abierto_remoto' | 'sin_suministro';

/** The decision: an incident, the meter, or nothing known (a report is registered). */
export type Diagnostico =
  { tipo: 'incidencia'; incidencia: IncidenciaCandidata } | { tipo: 'contador'; situacion: SituacionContador } | { tipo: 'aviso' };

/**
 * Whether an open incident is in effect at `ahora`: a fault or works under way always are; scheduled
 * works once their start has come (before it they cannot be why the power is off now).
 */
export function enVigor(i: Pick<IncidenciaCandidata, 'estadoIncidenciaRed' | 'inicio'>, ahora: Date): boolean {
  return i.estadoIncidenciaRed !== 'Programada' || Date.parse(i.inicio) <= ahora.getTime();
}

/** Scheduled works that have not started yet: told as information, never as the cause. */
export function proximas<T extends Pick<IncidenciaCandidata, 'estadoIncidenciaRed' | 'inicio'>>(lista: readonly T[], ahora: Date): T[] {
  return lista.filter((i) => !enVigor(i, ahora));
}

/**
 * Decides what explains the lack of power. `incidencias` are the open incidents that concern the
 * supply point (listed ones first, as src/server/incidencias/service.ts orders them).
 */
export function diagnosticar(incidencias: readonly IncidenciaCandidata[], estado: EstadoMedidor | null, ahora: Date): Diagnostico {
  if (estado?.estadoSuministro === 'cortado') return { tipo: 'contador', situacion: 'cortado' };
  const vigente = incidencias.find((i) => enVigor(i, ahora));
  if (vigente) return { tipo: 'incidencia', incidencia: vigente };
  if (estado?.interruptor === 'abierto_exceso') return { tipo: 'contador', situacion: 'icp' };
  if (estado?.interruptor === 'abierto_remoto') return { tipo: 'contador', situacion: 'abierto_remoto' };
  if (estado?.estadoSuministro === 'sin_suministro') return { tipo: 'contador', situacion: 'sin_suministro' };
  return { tipo: 'aviso' };
}

/** A heading and plain-Spanish steps for each meter situation; never the stored reason (it may name a debt). */
export const TEXTOS_CONTADOR: Readonly<Record<SituacionContador, { titulo: string; pasos: readonly string[] }>> = {
  cortado: {
    titulo: 'El suministro de este punto está cortado',
    pasos: [
      'No es una avería: el corte se hace a petición de la comercializadora del contrato o por una orden de la administración.',
      'La persona titular del contrato debe ponerse en contacto con su comercializadora; cuando se resuelva la causa, nos pedirá la reconexión y la haremos en el plazo reglamentario.',
      'No manipule la instalación ni el contador para reconectarla.',
    ],
  },
  icp: {
    titulo: 'Su interruptor de control de potencia (ICP) ha saltado',
    pasos: [
      'Se han conectado a la vez más aparatos de los que permite la potencia contratada.',
      'Desconecte alguno de mucho consumo (horno, placa, lavadora, calefacción o aire acondicionado).',
      'El contador devuelve la luz por sí solo en unos segundos; si no lo hace, pulse el botón de rearme del contador o suba el interruptor general de su cuadro eléctrico.',
      'Si después sigue sin luz, revise también el interruptor diferencial de su cuadro y, si no vuelve, llame a nuestro teléfono de averías.',
    ],
  },
  abierto_remoto: {
    titulo: 'Hemos abierto a distancia el interruptor de su contador',
    pasos: [
      'Lo hacemos para trabajar con seguridad en la red o por una orden que debemos cumplir.',
      'Lo cerraremos en cuanto termine la causa. Si necesita más información, llame a nuestro teléfono de averías.',
    ],
  },
  sin_suministro: {
    titulo: 'Ya sabemos que este punto está sin luz por una avería en nuestra red',
    pasos: [
      'Nuestro equipo trabaja para reponer el suministro; no hace falta que nos avise de nuevo.',
      'Si ve un peligro (un cable caído, chispas), aléjese y llame también al 112.',
    ],
  },
};

/** What a person should do while a network incident is being repaired. */
export const PASOS_INCIDENCIA: readonly string[] = [
  'No hace falta que nos avise: ya estamos trabajando en ello.',
  'Desenchufe los aparatos sensibles (ordenadores, televisores) para cuando vuelva la luz.',
  'Si ve un peligro (un cable caído, chispas), aléjese y llame también al 112.',
];

/** What a person should do once a fault report is registered. */
export const PASOS_AVISO: readonly string[] = [
  'Antes de nada, compruebe que el interruptor general y el diferencial de su cuadro eléctrico están subidos: si han saltado, la avería está en su instalación interior.',
  'Si tienen luz sus vecinos, el problema puede estar en su instalación: llame a un instalador autorizado.',
  'Si no, nuestro equipo revisará la red de su zona. Para cualquier urgencia, llame a nuestro teléfono de averías indicando la referencia.',
];
