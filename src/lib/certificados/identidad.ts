/**
 * The legal identity of each distributor as its certificates state it, transcribed from the legal
 * notice (src/content/legal/aviso-legal.mdx, a unit test keeps them equal). The registered office
 * is the one of src/lib/contacto.ts.
 */
import { CONTACTOS } from '../contacto.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../distribuidoras.ts';

/** Who certifies: the distributor's legal data. */
export interface IdentidadDistribuidora {
  codigo: CodigoDistribuidora;
  /** Legal name. */
  nombre: string;
  /** Tax id (NIF of a company, the former CIF). */
  nif: string;
  /** Registered office, one line. */
  domicilio: string;
  /** Commercial register entry. */
  registroMercantil: string;
  /** Number in the ministry's register of distributors. */
  registroDistribuidores: string;
}

const REGISTROS: Record<CodigoDistribuidora, { nif: string; registroMercantil: string; registroDistribuidores: string }> = {
  epd: {
    nif: 'B00001016',
    registroMercantil: 'Registro Mercantil de Madrid, tomo 101, folio 1, hoja M-000101, inscripción 1.ª',
    registroDistribuidores: 'R1-9901',
  },
  eod: {
    nif: 'B00002022',
    registroMercantil: 'Registro Mercantil de Badajoz, tomo 202, folio 1, hoja BA-000202, inscripción 1.ª',
    registroDistribuidores: 'R1-9902',
  },
  ecd: {
    nif: 'B00003038',
    registroMercantil: 'Registro Mercantil de Cantabria, tomo 303, folio 1, hoja S-000303, inscripción 1.ª',
    registroDistribuidores: 'R1-9903',
  },
};

/** The legal identity of a distributor. */
export function identidadDistribuidora(codigo: CodigoDistribuidora): IdentidadDistribuidora {
  const d = DISTRIBUIDORAS.find((x) => x.codigo === codigo);
  if (!d) throw new RangeError(`Distribuidora desconocida: ${codigo}`);
  return { codigo, nombre: d.nombre, domicilio: CONTACTOS[codigo].direccion, ...REGISTROS[codigo] };
}
