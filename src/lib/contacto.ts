/**
 * Contact details of the three distributors, as the legal notice states them. One source for the
 * /informacion page, the footer and any screen that tells a user whom to call.
 */
import type { CodigoDistribuidora } from './distribuidoras.ts';

/** A phone number as shown and as dialled. */
export interface Telefono {
  /** As people read it: 900 000 001. */
  texto: string;
  /** For tel: links, E.164. */
  e164: string;
}

/** How to reach one distributor. */
export interface Contacto {
  distribuidora: CodigoDistribuidora;
  /** 24-hour fault line, free of charge. */
  averias: Telefono;
  /** Customer service line. */
  atencion: Telefono;
  /** Customer service hours. */
  horario: string;
  email: string;
  /** Registered office, one line. */
  direccion: string;
}

const tel = (texto: string): Telefono => ({ texto, e164: '+34' + texto.replace(/\s/g, '') });

/** Customer service hours shared by the three companies. */
export const HORARIO_ATENCION = 'De lunes a viernes, de 8:00 a 20:00 (excepto festivos nacionales)';

/** Contact of each distributor. */
export const CONTACTOS: Record<CodigoDistribuidora, Contacto> = {
  epd: {
    distribuidora: 'epd',
    averias: tel('900 000 001'),
    atencion: tel('910 000 011'),
    horario: HORARIO_ATENCION,
    email: 'atencion.epd@electra-distribucion.example',
    direccion: 'Avenida de la Corriente Alterna, 12, 28000 Madrid',
  },
  eod: {
    distribuidora: 'eod',
    averias: tel('900 000 002'),
    atencion: tel('910 000 012'),
    horario: HORARIO_ATENCION,
    email: 'atencion.eod@electra-distribucion.example',
    direccion: 'Calle del Aislador, 7, 06000 Badajoz',
  },
  ecd: {
    distribuidora: 'ecd',
    averias: tel('900 000 003'),
    atencion: tel('910 000 013'),
    horario: HORARIO_ATENCION,
    email: 'atencion.ecd@electra-distribucion.example',
    direccion: 'Paseo de la Subestación, 3, 39000 Santander',
  },
};

/** The group's external site, linked from the footer logo. */
export const WEB_GRUPO = 'https://www.grupo-electra.example/';
