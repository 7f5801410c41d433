/** The mails of contractual modifications: one per change, in Spanish, every value escaped. */
import { describe, expect, it } from 'vitest';
import { correoModificacion, correoNuevoTitular, type EventoModificacion } from '../../src/server/mail/plantillas.ts';

const base = {
  nombre: 'Lucía Martín',
  referencia: 'MC-000042',
  tipo: 'Cambio de potencia',
  cups: 'ES9901000000000001QY',
  direccion: 'Calle Libreros, 14, 28801 Alcalá de Henares (Madrid)',
  resumen: 'Potencia: de 4,6 kW a 5,75 kW',
  enlace: 'http://portal.test/modificacionesContractuales/modificaciones-contractuales/MC-000042',
};

describe('modification mails', () => {
  it('say what changed, the new state and the link, for each event', () => {
    const asuntos: Record<EventoModificacion, string> = {
      enviada: 'Hemos recibido su solicitud MC-000042',
      aceptada: 'Su solicitud MC-000042 ha sido aceptada',
      rechazada: 'Su solicitud MC-000042 ha sido rechazada',
      activada: 'Su solicitud MC-000042 está activada',
      anulada: 'Su solicitud MC-000042 ha sido anulada',
    };
    for (const [evento, asunto] of Object.entries(asuntos) as [EventoModificacion, string][]) {
      const c = correoModificacion({
        ...base,
        evento,
        motivo: '53 · Necesidad de abrir expediente de acometida',
        fechaActivacion: '2 de noviembre de 2026',
      });
      expect(c.subject).toBe(asunto);
      expect(c.text).toContain('Hola, Lucía Martín:');
      expect(c.text).toContain('Cambio de potencia (MC-000042) del suministro ES9901000000000001QY');
      expect(c.text).toContain('Potencia: de 4,6 kW a 5,75 kW.');
      expect(c.text).toContain(base.enlace);
      expect(c.html).toContain(`href="${base.enlace}"`);
    }
    expect(correoModificacion({ ...base, evento: 'rechazada', motivo: '53 · Necesidad de abrir expediente de acometida' }).text).toContain(
      'por este motivo: 53 · Necesidad de abrir expediente de acometida.',
    );
    expect(correoModificacion({ ...base, evento: 'activada', fechaActivacion: '2 de noviembre de 2026' }).text).toContain(
      'desde el 2 de noviembre de 2026',
    );
  });

  it('escape the holder data they carry', () => {
    const c = correoModificacion({ ...base, evento: 'enviada', resumen: 'Nuevo titular: <b>Pedro</b> & Cía' });
    expect(c.html).toContain('Nuevo titular: &lt;b&gt;Pedro&lt;/b&gt; &amp; Cía');
    expect(c.html).not.toContain('<b>Pedro</b>');
  });

  it('tell the new holder that the supply point is now theirs in the portal', () => {
    const c = correoNuevoTitular({
      nombre: 'Pedro Gil',
      referencia: 'MC-000042',
      cups: base.cups,
      direccion: base.direccion,
      fechaActivacion: '2 de noviembre de 2026',
      enlace: 'http://portal.test/x',
    });
    expect(c.subject).toBe('Ya es titular del suministro ES9901000000000001QY');
    expect(c.text).toContain('a su nombre desde el 2 de noviembre de 2026');
  });
});
