/**
 * The closing answer of a claim as a PDF (the R1 process's step 05, "cierre de la reclamación"): the
 * distributor's legal identity, the claim (reference, type and subtype of the CNMC's tables 81 and
 * 82, the claimant's role of table 83, the supply point), the result of table 80 and the written
 * answer, with the dates. Same layout as the certificates (src/server/pdf/maqueta.ts).
 */
import { identidadDistribuidora } from '../../lib/certificados/identidad.ts';
import type { CasoContactoDetalle } from '../../lib/contacto/respuestas.ts';
import {
  ROLES_RECLAMANTE,
  TIPOS_RECLAMACION,
  nombreSubtipo,
  type RolReclamante,
  type TipoReclamacion,
} from '../../lib/contacto/tablas-r1.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { conflict } from '../http/errors.ts';
import { abrirPdf, GRIS, parrafo, tablaDatos, tablaDistribuidora, titulo } from '../pdf/maqueta.ts';

const fecha = (iso: string) =>
  new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));

/** The PDF of a closed claim's answer; 409 while the claim has none. */
export async function pdfRespuesta(d: CasoContactoDetalle): Promise<Buffer> {
  const cierre = [...d.eventos].reverse().find((x) => x.accion === 'cerrar');
  if (!cierre || !d.resultado || d.respuesta === null) throw conflict('La reclamación aún no está cerrada con respuesta.');
  const distribuidora = identidadDistribuidora(d.distribuidora as CodigoDistribuidora);
  const r = d.reclamacion;
  const { doc, raiz, terminar } = abrirPdf({
    Title: `Respuesta a la reclamación ${d.referencia}`,
    Author: distribuidora.nombre,
    Subject: `Resolución de la reclamación ${d.referencia}: ${d.resultado.nombre}`,
    Keywords: `reclamación, ${d.referencia}, R1`,
    CreationDate: new Date(cierre.momento),
  });
  doc.font('Negrita').fontSize(10).fillColor(GRIS);
  doc.text(distribuidora.nombre.toUpperCase(), { structParent: raiz, structType: 'P', characterSpacing: 0.3 });
  doc.moveDown(0.6);
  titulo(doc, raiz, 1, 'Respuesta a su reclamación');
  parrafo(doc, raiz, `Referencia ${d.referencia} · ${fecha(cierre.momento)}`, { negrita: true, tamano: 11 });

  titulo(doc, raiz, 2, 'Distribuidora que responde');
  tablaDistribuidora(doc, raiz, distribuidora);

  titulo(doc, raiz, 2, 'La reclamación');
  tablaDatos(doc, raiz, [
    ['Reclamante', d.solicitante],
    ...(r?.rol ? [['En calidad de', ROLES_RECLAMANTE[r.rol as RolReclamante]] as [string, string]] : []),
    ...(r?.tipo ? [['Tipo (tabla 81)', `${r.tipo} · ${TIPOS_RECLAMACION[r.tipo as TipoReclamacion]}`] as [string, string]] : []),
    ...(r?.subtipo ? [['Subtipo (tabla 82)', nombreSubtipo(r.subtipo)] as [string, string]] : []),
    ...(d.cups ? [['Punto de suministro', d.cups] as [string, string]] : []),
    ['Presentada', d.presentadoEn ? fecha(d.presentadoEn) : ''],
  ]);

  titulo(doc, raiz, 2, 'Resolución');
  tablaDatos(doc, raiz, [['Resultado (tabla 80)', `${d.resultado.codigo} · ${d.resultado.nombre}`]]);
  doc.moveDown(0.6);
  for (const p of d.respuesta.split(/\n+/).filter((x) => x.trim())) parrafo(doc, raiz, p.trim());
  doc.moveDown(0.8);
  parrafo(
    doc,
    raiz,
    'Si no está conforme con esta respuesta, puede acudir a la Junta Arbitral de Consumo o al servicio de consumo de su comunidad autónoma, o presentar una reclamación ante la Comisión Nacional de los Mercados y la Competencia (Ley 24/2013, del Sector Eléctrico, art. 43).',
    { tamano: 8.5, color: GRIS },
  );
  return terminar((pagina, total) => `${distribuidora.nombre} · Reclamación ${d.referencia} · Página ${pagina} de ${total}`);
}
