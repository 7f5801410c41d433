/**
 * The demo accounts of docs/api.md. Identifiers use province code 00 (CIF) and well-known sample
 * numbers (DNI), which no real company or person holds; the companies' CIFs are their own, never one
 * of the three distributors' (src/lib/certificados/identidad.ts). Each later feature adds its own
 * demo data for these accounts through that feature's import code.
 */
import type { Permiso } from '../../lib/permisos.ts';
import { todosLosPermisos } from '../../lib/permisos.ts';

/** Password of every demo account. */
export const DEMO_PASSWORD = 'Demo1234';

/** One demo account. */
export interface DemoAccount {
  email: string;
  nif: string;
  nombre?: string;
  apellido1?: string;
  apellido2?: string;
  razonSocial?: string;
  /** Permissions granted by an administrator on top of the automatic ones. */
  extra: Permiso[];
  /** A supply company's REE code (CNMC table 1), set by an administrator. */
  codigoRee?: string;
}

/** The five accounts listed in docs/api.md, and an administrator of EPD alone (docs/decisions/014); all in the README. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: 'consumidor@electra.example', nif: '12345678Z', nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Ortega', extra: [] },
  { email: 'empresa@electra.example', nif: 'B00004010', razonSocial: 'Talleres Ribera Demo, S.L.', extra: [] },
  {
    email: 'comercializadora@electra.example',
    nif: 'B00005025',
    razonSocial: 'Energía Clara Comercializadora Demo, S.L.',
    extra: ['epd-comercializadora', 'eod-comercializadora'],
    codigoRee: '9811',
  },
  { email: 'promotor@electra.example', nif: 'B00006031', razonSocial: 'Solar Meseta Promociones Demo, S.L.', extra: [] },
  { email: 'admin@electra.example', nif: '00000001R', nombre: 'Ana', apellido1: 'Gestora', apellido2: 'Demo', extra: todosLosPermisos() },
  {
    email: 'admin-epd@electra.example',
    nif: '00000002W',
    nombre: 'Pablo',
    apellido1: 'Peninsular',
    apellido2: 'Demo',
    extra: ['epd-administrador'],
  },
];
