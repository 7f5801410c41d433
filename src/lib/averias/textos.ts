/** The answer of POST /api/averias/consulta in words, shared by the public page and the private screen. */
import { PASOS_AVISO, PASOS_INCIDENCIA, TEXTOS_CONTADOR, type SituacionContador } from './diagnostico.ts';

/** The API's answer (RespuestaAveria in the OpenAPI document). */
export interface RespuestaAveriaApi {
  resultado: 'incidencia' | 'contador' | 'aviso' | 'desconocido';
  distribuidora: { codigo: string; nombre: string; telefonoAverias: { texto: string; e164: string } } | null;
  municipio: string | null;
  incidencia: { estadoIncidenciaRed: string; descripcion: string; inicio: string; finPrevisto: string | null; afecta: string } | null;
  situacionContador: SituacionContador | null;
  aviso: { referencia: string; nuevo: boolean } | null;
  proximas: { inicio: string; finPrevisto: string | null; descripcion: string }[];
}

/** A heading, the paragraphs and steps of an answer; `fecha` formats an instant in Madrid time. */
export function textosRespuesta(
  r: RespuestaAveriaApi,
  fecha: (iso: string) => string,
): { titulo: string; parrafos: string[]; pasos: readonly string[] } {
  if (r.resultado === 'desconocido' || !r.distribuidora) {
    return {
      titulo: 'Ese CUPS no es de nuestras distribuidoras',
      parrafos: [
        'No corresponde a ningún punto de suministro de las redes de Electra Peninsular, Electra Occidental ni Electra Cantábrica.',
        'Revise que lo ha copiado bien de su factura. Si es correcto, su distribuidora es otra: su nombre y su teléfono de averías figuran en la factura.',
      ],
      pasos: [],
    };
  }
  if (r.resultado === 'incidencia' && r.incidencia) {
    const i = r.incidencia;
    const fin = i.finPrevisto
      ? `Prevemos reponer el suministro hacia el ${fecha(i.finPrevisto)}.`
      : 'Aún no conocemos la hora prevista de reposición.';
    return {
      titulo:
        i.estadoIncidenciaRed === 'Programada' || i.estadoIncidenciaRed === 'En curso'
          ? `Hay trabajos en la red de su zona (${r.municipio})`
          : `Hay una avería en la red de su zona (${r.municipio})`,
      parrafos: [i.descripcion, `Empezó el ${fecha(i.inicio)}. ${fin}`],
      pasos: PASOS_INCIDENCIA,
    };
  }
  if (r.resultado === 'contador' && r.situacionContador) {
    const t = TEXTOS_CONTADOR[r.situacionContador];
    return { titulo: t.titulo, parrafos: [], pasos: t.pasos };
  }
  return {
    titulo: 'Hemos registrado su aviso de avería',
    parrafos: [
      `Referencia: ${r.aviso?.referencia ?? ''}.${r.aviso && !r.aviso.nuevo ? ' Ya teníamos un aviso pendiente de este punto de suministro: es el mismo.' : ''}`,
      `No conocemos ninguna interrupción en su zona (${r.municipio}) ni ningún problema en su contador.`,
    ],
    pasos: PASOS_AVISO,
  };
}
