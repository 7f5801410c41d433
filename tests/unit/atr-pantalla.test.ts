/** The ATR requests screen's rules (src/lib/atr/pantalla.ts): words, dates, filters in the address, the API call, a page of the list. */
import { describe, expect, it } from 'vitest';
import {
  incidenciasDeMensaje,
  apiSolicitudAtr,
  consultaAtr,
  diaAtr,
  fechaHoraAtr,
  FILTROS_ATR_VACIOS,
  filtrosAtrDeConsulta,
  leerPaginaAtr,
  listaAtr,
  mensajesEnOrden,
  nombreDescargaAtr,
  nombreEstadoAtr,
  nombreLadoAtr,
  nombrePasoAtr,
  nombreProcesoAtr,
  textoMotivoAtr,
  textoPasoAtr,
  textoVenceAtr,
  urlListaAtr,
  urlSolicitudAtr,
  type MensajeAtr,
} from '../../src/lib/atr/pantalla.ts';

describe('pantalla ATR: palabras', () => {
  it('nombra cada estado en español', () => {
    expect(['recibida', 'aceptada', 'rechazada', 'anulada', 'activada'].map(nombreEstadoAtr)).toEqual([
      'Recibida',
      'Aceptada',
      'Rechazada',
      'Anulada',
      'Activada',
    ]);
    expect(nombreEstadoAtr('otro')).toBe('otro');
  });

  it('nombra los procesos con la tabla de la CNMC', () => {
    expect(nombreProcesoAtr('C1')).toBe('Cambio de comercializador sin modificaciones en el contrato de acceso');
    expect(nombreProcesoAtr('Z9')).toBe('Z9');
  });

  it('nombra los pasos comunes de la tabla 3', () => {
    expect(nombrePasoAtr('C1', '01')).toBe('Solicitud');
    expect(nombrePasoAtr('C2', '02')).toBe('Aceptación o rechazo');
    expect(nombrePasoAtr('A3', '03')).toBe('Incidencia');
    expect(nombrePasoAtr('M1', '04')).toBe('Rechazo tras actuaciones en campo');
    expect(nombrePasoAtr('C1', '05')).toBe('Activación');
    expect(nombrePasoAtr('C1', '12')).toBe('Paso 12');
    expect(textoPasoAtr('C1', '02')).toBe('02 · Aceptación o rechazo');
  });

  it('da a la anulación y su respuesta el paso de cada proceso', () => {
    expect(nombrePasoAtr('C1', '08')).toBe('Anulación');
    expect(nombrePasoAtr('C2', '09')).toBe('Aceptación o rechazo de la anulación');
    expect(nombrePasoAtr('A3', '06')).toBe('Anulación');
    expect(nombrePasoAtr('M1', '07')).toBe('Aceptación o rechazo de la anulación');
    // In B1, 03 and 04 are the anulación and its answer, not an incident and a field rejection.
    expect(nombrePasoAtr('B1', '03')).toBe('Anulación');
    expect(nombrePasoAtr('B1', '04')).toBe('Aceptación o rechazo de la anulación');
    expect(nombrePasoAtr('B1', '05')).toBe('Activación');
  });

  it('dice quién envió cada mensaje y escribe los motivos con su código', () => {
    expect(nombreLadoAtr('empresa')).toBe('Su empresa');
    expect(nombreLadoAtr('distribuidora')).toBe('La distribuidora');
    expect(textoMotivoAtr({ codigo: '03', texto: 'NIF-CIF no coincide con el del contrato en vigor' })).toBe(
      '03 · NIF-CIF no coincide con el del contrato en vigor',
    );
    expect(textoMotivoAtr({ codigo: '99', texto: '' })).toBe('99');
  });
});

describe('pantalla ATR: fechas', () => {
  it('muestra los instantes en hora de Madrid, dd/mm/aaaa hh:mm', () => {
    expect(fechaHoraAtr('2026-01-15T10:05:00Z')).toBe('15/01/2026 11:05');
    expect(fechaHoraAtr('2026-07-31T22:30:00Z')).toBe('01/08/2026 00:30');
    expect(fechaHoraAtr(null)).toBe('—');
    expect(fechaHoraAtr('no')).toBe('—');
  });

  it('muestra los días dd/mm/aaaa', () => {
    expect(diaAtr('2026-03-09')).toBe('09/03/2026');
    expect(diaAtr(null)).toBe('—');
    expect(diaAtr('9/3/2026')).toBe('—');
    expect(textoVenceAtr({ vence: '2026-04-01' })).toBe('01/04/2026');
    expect(textoVenceAtr({ vence: null })).toBe('—');
  });
});

describe('pantalla ATR: mensajes', () => {
  const m = (paso: string, fecha: string, nombre = `C1${paso}.xml`): MensajeAtr => ({ paso, nombre, lado: 'empresa', fecha, xml: '<a/>' });

  it('ordena los mensajes por paso y fecha', () => {
    const orden = mensajesEnOrden([m('02', '2026-01-01T10:00:00Z'), m('01', '2026-01-01T11:00:00Z'), m('01', '2026-01-01T09:00:00Z')]);
    expect(orden.map((x) => `${x.paso}@${x.fecha.slice(11, 13)}`)).toEqual(['01@09', '01@11', '02@10']);
  });

  it('descarga con el nombre del fichero, sin carpetas y acabado en .xml', () => {
    expect(nombreDescargaAtr(m('01', '', 'C101_202600000001.xml'))).toBe('C101_202600000001.xml');
    expect(nombreDescargaAtr(m('02', '', '/epd/salida/C102_1.XML'))).toBe('C102_1.XML');
    expect(nombreDescargaAtr(m('02', '', 'C102_1'))).toBe('C102_1.xml');
    expect(nombreDescargaAtr(m('02', '', ''))).toBe('mensaje_02.xml');
  });
});

describe('pantalla ATR: filtros en la dirección', () => {
  const propias = ['epd', 'eod'];

  it('sin consulta no filtra', () => {
    expect(filtrosAtrDeConsulta('', propias)).toEqual(FILTROS_ATR_VACIOS);
    expect(consultaAtr(FILTROS_ATR_VACIOS)).toBe('');
  });

  it('lee y escribe cada filtro', () => {
    const f = filtrosAtrDeConsulta('?distribuidora=epd&proceso=C1&estado=rechazada&q=%20ES0021%20&pagina=2&porPagina=50', propias);
    expect(f).toEqual({ distribuidora: 'epd', proceso: 'C1', estado: 'rechazada', q: 'ES0021', pagina: 2, porPagina: 50 });
    expect(consultaAtr(f)).toBe('distribuidora=epd&proceso=C1&estado=rechazada&q=ES0021&pagina=2&porPagina=50');
    expect(filtrosAtrDeConsulta(consultaAtr(f), propias)).toEqual(f);
  });

  it('descarta lo que no conoce y una distribuidora que no es del usuario', () => {
    const f = filtrosAtrDeConsulta({ distribuidora: 'ecd', proceso: 'X1', estado: 'borrada', pagina: '-3', porPagina: '7' }, propias);
    expect(f).toEqual(FILTROS_ATR_VACIOS);
    expect(filtrosAtrDeConsulta(`q=${'1'.repeat(60)}`, propias).q).toHaveLength(30);
  });

  it('pide a la API con page y pageSize, y la búsqueda en mayúsculas', () => {
    expect(urlListaAtr(FILTROS_ATR_VACIOS)).toBe('/api/atr/solicitudes?page=1&pageSize=25');
    expect(urlListaAtr({ ...FILTROS_ATR_VACIOS, distribuidora: 'eod', estado: 'aceptada', q: ' es0031 ', pagina: 3 })).toBe(
      '/api/atr/solicitudes?distribuidora=eod&estado=aceptada&q=ES0031&page=3&pageSize=25',
    );
    const d = listaAtr(propias);
    expect(d.url(d.desdeConsulta('proceso=B1'))).toBe('/api/atr/solicitudes?proceso=B1&page=1&pageSize=25');
    expect(d.consulta({ ...d.vacios, proceso: 'A3' })).toBe('proceso=A3');
  });

  it('construye las direcciones de una solicitud', () => {
    expect(urlSolicitudAtr('a b')).toBe('/comercializadora/solicitud-atr/a%20b');
    expect(apiSolicitudAtr('42')).toBe('/api/atr/solicitudes/42');
  });
});

describe('pantalla ATR: una página de la lista', () => {
  it('lee una lista con X-Total-Count', () => {
    expect(leerPaginaAtr([{ id: 1 }], '30')).toEqual({ filas: [{ id: 1 }], total: 30 });
    expect(leerPaginaAtr([{ id: 1 }, { id: 2 }], null)).toEqual({ filas: [{ id: 1 }, { id: 2 }], total: 2 });
  });

  it('lee también { total, filas }', () => {
    expect(leerPaginaAtr({ total: 12, filas: [{ id: 1 }] }, null)).toEqual({ filas: [{ id: 1 }], total: 12 });
    expect(leerPaginaAtr({ filas: [{ id: 1 }] }, null)).toEqual({ filas: [{ id: 1 }], total: 1 });
    expect(leerPaginaAtr(null, null)).toEqual({ filas: [], total: 0 });
  });
});

describe('pantalla ATR: quién envió cada mensaje', () => {
  it('la comercializadora lee «Su empresa»; el personal de la distribuidora, «La comercializadora»', () => {
    expect(nombreLadoAtr('comercializadora')).toBe('Su empresa');
    expect(nombreLadoAtr('comercializadora', 'personal')).toBe('La comercializadora');
    expect(nombreLadoAtr('distribuidora', 'personal')).toBe('La distribuidora');
  });
});

describe('pantalla ATR: el motivo de una incidencia', () => {
  it('lee el código de la tabla 28 y el comentario del mensaje 03, con su texto', () => {
    const xml = `<?xml version="1.0"?><MensajeIncidenciasATRDistribuidor xmlns="http://localhost/elegibilidad"><Cabecera/><IncidenciasATRDistribuidor><FechaIncidencia>2026-11-02</FechaIncidencia><Incidencia><Secuencial>1</Secuencial><CodigoMotivo>01</CodigoMotivo><Comentarios>Nadie en casa &amp; sin teléfono</Comentarios></Incidencia></IncidenciasATRDistribuidor></MensajeIncidenciasATRDistribuidor>`;
    expect(incidenciasDeMensaje(xml)).toEqual([{ codigo: '01', texto: 'Cliente ausente', comentario: 'Nadie en casa & sin teléfono' }]);
    expect(incidenciasDeMensaje('<MensajeAceptacion/>')).toEqual([]);
  });
});
