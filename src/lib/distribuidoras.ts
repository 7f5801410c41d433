/** The three distributors that share the portal (docs/api.md "The three distributors"). */

/** Code of a distributor, as used in permissions and routes. */
export type CodigoDistribuidora = 'epd' | 'eod' | 'ecd';

/** One distributor as the API and the pages describe it. */
export interface Distribuidora {
  /** Short code used in permissions (`epd-distribucion`) and routes. */
  codigo: CodigoDistribuidora;
  /** Legal name. */
  nombre: string;
  /** Code of the company at Red Eléctrica (REE), four digits. */
  codigoREE: string;
  /** First six characters of its supply points' CUPS. */
  prefijoCups: string;
  /** Path of its nodal capacity page, or null when it publishes none here. */
  paginaCapacidadNodal: string | null;
}

/** Name of the group the three companies belong to. */
export const GRUPO = 'Grupo Electra Distribución';

/** The distributors, in the order the contract lists them. */
export const DISTRIBUIDORAS: readonly Distribuidora[] = [
  {
    codigo: 'epd',
    nombre: 'Electra Peninsular Distribución, S.L.',
    codigoREE: '9901',
    prefijoCups: 'ES9901',
    paginaCapacidadNodal: '/capacidad-nodal/epd',
  },
  {
    codigo: 'eod',
    nombre: 'Electra Occidental Distribución, S.L.',
    codigoREE: '9902',
    prefijoCups: 'ES9902',
    paginaCapacidadNodal: '/capacidad-nodal/eod',
  },
  {
    codigo: 'ecd',
    nombre: 'Electra Cantábrica Distribución, S.L.',
    codigoREE: '9903',
    prefijoCups: 'ES9903',
    paginaCapacidadNodal: null,
  },
];

/** All distributor codes. */
export const CODIGOS_DISTRIBUIDORA = DISTRIBUIDORAS.map((d) => d.codigo);

/**
 * The legal name of a distributor by its code, for messages, lists and screens. An unknown code is
 * answered as it came, or as `desconocida` writes it (the FTP screen shows a stray folder in capitals).
 */
export function nombreDistribuidora(codigo: string, desconocida: (codigo: string) => string = (c) => c): string {
  return DISTRIBUIDORAS.find((d) => d.codigo === codigo)?.nombre ?? desconocida(codigo);
}
