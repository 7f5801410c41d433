/**
 * The consumption certificate as a PDF: A4, Spanish, tagged for assistive technology
 * (headings, paragraphs, tables with header cells, a link; decoration and page footers marked as
 * artifacts), real text in embedded fonts (src/server/pdf/fuentes.ts), with the title shown in the viewer's title
 * bar. It states exactly the `ContenidoCertificado` it is given and nothing else, so what the
 * verification page shows and what the PDF says cannot differ.
 */
import {
  abrirPdf,
  GRIS,
  LINEA,
  FONDO,
  MARGEN,
  NEGRITA,
  TEXTO,
  AZUL,
  parrafo,
  tablaDatos,
  titulo,
  type Doc,
  type Estructura,
} from '../pdf/maqueta.ts';
import {
  kwhCertificado,
  direccionSuministro,
  fechaHoraEmision,
  nombreHora,
  nombreMesCertificado,
  textoHoras,
  textoOrigenEnergia,
  textoPeriodo,
  textoPotencias,
  tituloPeriodo,
  type ContenidoCertificado,
} from '../../lib/certificados/contenido.ts';
import { tieneDatos } from '../../lib/certificados/cifras.ts';
import { numero } from '../../lib/formato/numeros.ts';

/** A table with a header row, row headers in the first column and a total row. */
function tablaCifras(doc: Doc, raiz: Estructura, cabecera: string[], filas: string[][], pie: string[], anchoPrimera: number): void {
  const columnas = cabecera.length;
  const tamano = columnas > 7 ? 7.5 : 8.5;
  doc.fontSize(tamano);
  const celda = (text: string, i: number, extra: Record<string, unknown> = {}) =>
    i === 0 ? { text, type: 'TH', scope: 'row', align: { x: 'left' }, ...extra } : { text, align: { x: 'right' }, ...extra };
  doc.table({
    structParent: raiz,
    columnStyles: [anchoPrimera, ...new Array<string>(columnas - 1).fill('*')],
    defaultStyle: { border: { top: 0, right: 0, bottom: 0.5, left: 0 }, borderColor: LINEA, padding: [3, 4, 3, 4] },
    data: [
      cabecera.map((text, i) => ({
        text,
        type: 'TH',
        scope: 'column',
        font: { src: NEGRITA },
        backgroundColor: FONDO,
        align: { x: i === 0 ? 'left' : 'right', y: 'bottom' },
        border: { top: 0, right: 0, bottom: 1, left: 0 },
        borderColor: GRIS,
      })),
      ...filas.map((f) => f.map((t, i) => celda(t, i))),
      pie.map((t, i) => celda(t, i, { font: { src: NEGRITA }, border: { top: 1, right: 0, bottom: 1, left: 0 }, borderColor: GRIS })),
    ],
  } as Parameters<Doc['table']>[0] & { structParent: Estructura; data: unknown[] });
  doc.x = MARGEN;
  doc.fontSize(10);
}

/** The PDF of a certificate, as bytes. */
export async function generarPdfCertificado(c: ContenidoCertificado): Promise<Buffer> {
  const emitido = new Date(c.emitidoEn);
  const { doc, raiz, ancho, terminar } = abrirPdf({
    Title: `Certificado de consumo ${c.suministro.cups}`,
    Author: c.distribuidora.nombre,
    Subject: `Consumo de energía eléctrica ${textoPeriodo(c.periodo)}. Código de verificación ${c.codigo}`,
    Keywords: `certificado de consumo, ${c.suministro.cups}, ${c.codigo}`,
    CreationDate: emitido,
  });

  // Who certifies, and what.
  doc.font(NEGRITA).fontSize(10).fillColor(GRIS);
  doc.text(c.distribuidora.nombre.toUpperCase(), { structParent: raiz, structType: 'P', characterSpacing: 0.3 });
  doc.moveDown(0.6);
  titulo(doc, raiz, 1, 'Certificado de consumo de energía eléctrica');
  parrafo(doc, raiz, `Código de verificación: ${c.codigo}`, { negrita: true, tamano: 11 });

  titulo(doc, raiz, 2, 'Distribuidora que certifica');
  tablaDatos(doc, raiz, [
    ['Razón social', c.distribuidora.nombre],
    ['NIF', c.distribuidora.nif],
    ['Domicilio social', c.distribuidora.domicilio],
    ['Registro Mercantil', c.distribuidora.registroMercantil],
    [
      'Registro de distribuidores',
      `${c.distribuidora.registroDistribuidores} (Ministerio para la Transición Ecológica y el Reto Demográfico)`,
    ],
  ]);

  titulo(doc, raiz, 2, 'Titular y punto de suministro');
  tablaDatos(doc, raiz, [
    ['Titular', c.titular.nombre],
    ['NIF del titular', c.titular.nif],
    ['CUPS', c.suministro.cups],
    ['Dirección del suministro', direccionSuministro(c.suministro)],
    ['Tarifa de acceso', c.suministro.tarifa],
    ['Potencias contratadas', textoPotencias(c.suministro.tarifa, c.suministro.potenciasKw)],
  ]);
  doc.moveDown(0.8);
  parrafo(
    doc,
    raiz,
    `${c.distribuidora.nombre}, empresa distribuidora a cuya red está conectado este punto de suministro, CERTIFICA que, según los datos de medida registrados en sus sistemas en la fecha de emisión, la energía eléctrica activa tomada de la red por este suministro ${textoPeriodo(c.periodo)} es la que se detalla a continuación.`,
  );

  // Consumption per month and period.
  titulo(doc, raiz, 2, 'Consumo por mes y periodo tarifario (kWh)');
  parrafo(
    doc,
    raiz,
    `Meses naturales en ${nombreHora(c.zonaHoraria)}. Periodos de la tarifa ${c.suministro.tarifa} según la Circular 3/2020 de la CNMC. Energía en kWh con tres decimales. «Sin datos»: mes sin ninguna medida.`,
    { tamano: 9, color: GRIS },
  );
  const cabecera = ['Mes', ...c.periodos.map(tituloPeriodo), 'Total'];
  const filas = c.meses.map((m) =>
    tieneDatos(m)
      ? [nombreMesCertificado(m.mes), ...m.porPeriodoWh.map(kwhCertificado), kwhCertificado(m.totalWh)]
      : [nombreMesCertificado(m.mes), ...m.porPeriodoWh.map(() => '—'), 'Sin datos'],
  );
  tablaCifras(
    doc,
    raiz,
    cabecera,
    filas,
    ['Total del periodo', ...c.total.porPeriodoWh.map(kwhCertificado), kwhCertificado(c.total.totalWh)],
    c.periodos.length > 3 ? 78 : 100,
  );

  // Where the figures come from.
  titulo(doc, raiz, 2, 'Origen de las medidas');
  parrafo(doc, raiz, textoOrigenEnergia(c.total));
  parrafo(doc, raiz, textoHoras(c.total));
  tablaCifras(
    doc,
    raiz,
    ['Mes', 'Horas del mes', 'Con medida real', 'Estimadas', 'Sin dato', 'Energía estimada (kWh)'],
    c.meses.map((m) => [
      nombreMesCertificado(m.mes),
      numero(m.horas),
      numero(m.horasReales),
      numero(m.horasEstimadas),
      numero(m.horasSinDato),
      kwhCertificado(m.estimadaWh),
    ]),
    [
      'Total del periodo',
      numero(c.total.horas),
      numero(c.total.horasReales),
      numero(c.total.horasEstimadas),
      numero(c.total.horasSinDato),
      kwhCertificado(c.total.estimadaWh),
    ],
    100,
  );

  // How to check it.
  titulo(doc, raiz, 2, 'Verificación');
  parrafo(doc, raiz, `Emitido el ${fechaHoraEmision(c.emitidoEn, c.zonaHoraria)}.`);
  parrafo(doc, raiz, `Código de verificación: ${c.codigo}`, { negrita: true });
  parrafo(doc, raiz, 'Cualquier persona puede comprobar que este certificado es auténtico, y lo que declara, en esta dirección:');
  doc.font(TEXTO).fontSize(10).fillColor(AZUL);
  const enlace = doc.struct('P');
  raiz.add(enlace);
  enlace.add(
    doc.struct('Link', { alt: `Verificar el certificado ${c.codigo}` }, () => {
      doc.text(c.urlVerificacion, { link: c.urlVerificacion, underline: true, width: ancho });
    }),
  );
  enlace.end();
  doc.moveDown(0.6);
  parrafo(
    doc,
    raiz,
    'La tarifa de acceso y las potencias son las del contrato de acceso en la fecha de emisión. El consumo certificado es la energía activa tomada de la red; no incluye la energía vertida a la red por instalaciones de autoconsumo.',
    { tamano: 8.5, color: GRIS },
  );

  return terminar((pagina, total) => `${c.distribuidora.nombre} · Certificado de consumo ${c.codigo} · Página ${pagina} de ${total}`);
}
