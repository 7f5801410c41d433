/** Fixtures of the access and connection tests: a complete request's data and its documents. */
import type { DatosSolicitud } from '../../src/lib/accesoyconexion/solicitud.ts';
import type { TestServer } from './server.ts';

/** A request with every field of the form filled in (a 50 kW rooftop self-consumption at 0.4 kV by default). */
export function datosCompletos(cambios: Partial<DatosSolicitud> = {}): DatosSolicitud {
  return {
    tipo: 'autoconsumo',
    fechaPuestaServicio: '2027-06-01',
    contactoNombre: 'Marta Ruiz',
    contactoTelefono: '600123456',
    enNombrePropio: true,
    direccion: 'Calle de la Industria, 4',
    municipio: 'Getafe',
    provincia: 'Madrid',
    codigoPostal: '28903',
    referenciaCatastral: '9872023VH5797S0001WX',
    latitud: 40.3052,
    longitud: -3.7329,
    sueloUrbanizado: true,
    correspondenciaMisma: true,
    potenciaKw: 50,
    tecnologia: 'fotovoltaica',
    tensionKv: 0.4,
    ...cambios,
  };
}

/** A few bytes that are a PDF by their signature. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** Uploads a PDF of a class to a case as the holder of `token`; answers the response. */
export function subirPdf(server: TestServer, token: string, id: string, clase: string, nombre = `${clase}.pdf`) {
  return server.fetch(`/api/expedientes/${id}/documentos?clase=${clase}&nombre=${encodeURIComponent(nombre)}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
    body: new Uint8Array(PDF),
  });
}
