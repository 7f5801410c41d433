/**
 * The declaration of each ATR process (src/lib/atr/procesos.ts) against the CNMC's steps per process,
 * as gisce/gestionatr lists the schema of each (process, step) in `gestionatr/input/messages/message.py`:
 * a step the portal writes or reads must be one the process has, with the schema it has there.
 */
import { describe, expect, it } from 'vitest';
import { ESQUEMA_DE_RAIZ, PROCESO, PROCESOS_ATR, RAIZ_INCIDENCIA, type ProcesoAtr } from '../../src/lib/atr/procesos.ts';
import { nombrePasoAtr, pasoAnulacionAtr } from '../../src/lib/atr/pantalla.ts';

/** The steps of each process and the schema files they may use (gestionatr, message.py). */
const CNMC: Record<ProcesoAtr, Record<string, readonly string[]>> = {
  C1: {
    '01': ['CambiodeComercializadorSinCambios.xsd'],
    '02': ['AceptacionCambiodeComercializadorSinCambios.xsd', 'Rechazo.xsd'],
    '04': ['Rechazo.xsd'],
    '05': ['ActivacionCambiodeComercializadorSinCambios.xsd'],
    '06': ['ActivacionComercializadorSaliente.xsd'],
    '08': ['AnulacionSolicitud.xsd'],
    '09': ['AceptacionAnulacion.xsd', 'Rechazo.xsd'],
  },
  C2: {
    '01': ['CambiodeComercializadorConCambios.xsd'],
    '02': ['AceptacionCambiodeComercializadorConCambios.xsd', 'Rechazo.xsd'],
    '03': ['IncidenciasATRDistribuidor.xsd'],
    '04': ['Rechazo.xsd'],
    '05': ['ActivacionCambiodeComercializadorConCambios.xsd'],
    '06': ['ActivacionComercializadorSaliente.xsd'],
    '08': ['AnulacionSolicitud.xsd'],
    '09': ['AceptacionAnulacion.xsd', 'Rechazo.xsd'],
  },
  A3: {
    '01': ['Alta.xsd'],
    '02': ['AceptacionAlta.xsd', 'Rechazo.xsd'],
    '03': ['IncidenciasATRDistribuidor.xsd'],
    '04': ['Rechazo.xsd'],
    '05': ['ActivacionAlta.xsd'],
    '06': ['AnulacionSolicitud.xsd'],
    '07': ['AceptacionAnulacion.xsd', 'Rechazo.xsd'],
  },
  M1: {
    '01': ['ModificacionDeATR.xsd'],
    '02': ['AceptacionModificacionDeATR.xsd', 'Rechazo.xsd'],
    '03': ['IncidenciasATRDistribuidor.xsd'],
    '04': ['Rechazo.xsd'],
    '05': ['ActivacionModificacionDeATR.xsd'],
    '06': ['AnulacionSolicitud.xsd'],
    '07': ['AceptacionAnulacion.xsd', 'Rechazo.xsd'],
  },
  B1: {
    '01': ['BajaSuspension.xsd'],
    '02': ['AceptacionBajaSuspension.xsd', 'Rechazo.xsd'],
    '03': ['AnulacionSolicitud.xsd'],
    '04': ['AceptacionAnulacionBaja.xsd', 'Rechazo.xsd'],
    '05': ['ActivacionBajaSuspension.xsd'],
    '06': ['IncidenciasATRDistribuidor.xsd'],
    '07': ['Rechazo.xsd'],
  },
};

const esquema = (raiz: string) => ESQUEMA_DE_RAIZ[raiz];

describe('declaración de cada proceso ATR', () => {
  it.each(PROCESOS_ATR)('%s: cada mensaje que el portal lee o escribe es un paso del proceso con su esquema', (p) => {
    const d = PROCESO[p];
    const pasos = CNMC[p];
    expect(pasos['01']).toContain(esquema(d.solicitud.raiz));
    expect(pasos['02']).toContain(esquema(d.aceptacion));
    expect(pasos['05']).toContain(esquema(d.activacion.raiz));
    expect(pasos[d.anulacion.paso]).toContain('AnulacionSolicitud.xsd');
    expect(pasos[d.anulacion.respuesta]).toContain(esquema(d.anulacion.aceptacion));
    expect(pasos[d.campo.rechazo]).toContain('Rechazo.xsd');
    if (d.campo.incidencia) expect(pasos[d.campo.incidencia]).toContain(esquema(RAIZ_INCIDENCIA));
    else expect(Object.values(pasos).flat()).not.toContain('IncidenciasATRDistribuidor.xsd');
    // Every step named on the screens is a step of the process.
    for (const paso of Object.keys(d.pasos)) expect(Object.keys(pasos), `${p} ${paso}`).toContain(paso);
  });

  it('nombra los pasos de campo de B1 (06 incidencia, 07 rechazo) y no da a un C1 paso de incidencia', () => {
    expect(nombrePasoAtr('B1', '06')).toBe('Incidencia');
    expect(nombrePasoAtr('B1', '07')).toBe('Rechazo tras actuaciones en campo');
    expect(nombrePasoAtr('C1', '03')).toBe('Paso 03');
    expect(PROCESO.C1.campo.incidencia).toBeNull();
    expect(PROCESOS_ATR.map(pasoAnulacionAtr)).toEqual(['08', '08', '06', '06', '03']);
  });
});
