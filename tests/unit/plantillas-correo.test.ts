import { describe, expect, it } from 'vitest';
import {
  correoActivacion,
  correoClaveCambiada,
  correoRestablecimiento,
  escapeHtml,
  fechaEspanola,
} from '../../src/server/mail/plantillas.ts';
import { backoffMs, describeFailure } from '../../src/server/mail/worker.ts';

const enlace = 'http://portal.test/sesion/activar-usuario/AbC_123-xyz';

describe('mail templates', () => {
  it('sign for the group, with the link in both bodies and nothing loaded from outside', () => {
    for (const correo of [
      correoRestablecimiento({ nombre: 'Lucía Martín', enlace }),
      correoClaveCambiada({
        nombre: 'Lucía Martín',
        fecha: new Date('2026-11-02T09:00:00Z'),
        enlaceRecuperar: 'http://portal.test/sesion/recordar-clave',
      }),
    ]) {
      expect(correo.subject).toContain('Grupo Electra Distribución');
      expect(correo.text).toContain('Hola, Lucía Martín:');
      expect(correo.text).toContain('El equipo del portal de Grupo Electra Distribución');
      expect(correo.html).toContain('<html lang="es">');
      expect(correo.html).not.toMatch(/<img|<link|<script|url\(|src=/i);
      // No distributor speaks alone.
      expect(correo.text).not.toMatch(/Electra (Peninsular|Occidental|Cantábrica)/);
    }
    const activacion = correoActivacion({ enlace });
    expect(activacion.text).toContain(enlace);
    expect(activacion.text).toContain('48 horas');
    expect(activacion.html).toContain(`href="${enlace}"`);
    expect(correoRestablecimiento({ nombre: 'Lucía', enlace }).text).toContain('1 hora');
  });

  it('escape every interpolated value in the HTML', () => {
    const correo = correoRestablecimiento({ nombre: '<script>alert("x")</script> & Cía', enlace: 'http://portal.test/a"onmouseover="x' });
    expect(correo.html).not.toContain('<script>');
    expect(correo.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Cía');
    expect(correo.html).toContain('href="http://portal.test/a&quot;onmouseover=&quot;x"');
    expect(escapeHtml(`'`)).toBe('&#39;');
  });

  it('greet without a name when there is none, and date in Madrid time', () => {
    expect(correoRestablecimiento({ nombre: '  ', enlace }).text.startsWith('Hola:')).toBe(true);
    expect(fechaEspanola(new Date('2026-07-01T08:30:00Z'))).toBe('1 de julio de 2026 a las 10:30');
    expect(fechaEspanola(new Date('2026-12-01T08:30:00Z'))).toBe('1 de diciembre de 2026 a las 9:30');
  });
});

describe('outbox retries', () => {
  it('back off 5 s, doubling, up to 30 minutes', () => {
    expect([1, 2, 3, 4, 9, 10, 11, 12].map(backoffMs)).toEqual([5000, 10_000, 20_000, 40_000, 1_280_000, 1_800_000, 1_800_000, 1_800_000]);
  });

  it('describe a failure without credentials or link ids, in at most 500 characters', () => {
    const err = Object.assign(
      new Error(`Invalid login smtps://user:p4ss@smtp.example:465 for http://x/sesion/nueva-clave/SECRETO ${'x'.repeat(600)}`),
      { code: 'EAUTH', responseCode: 535 },
    );
    const text = describeFailure(err);
    expect(text.startsWith('EAUTH 535 Invalid login smtps://[redactado]@smtp.example:465')).toBe(true);
    expect(text).not.toContain('p4ss');
    expect(text).not.toContain('SECRETO');
    expect(text.length).toBe(500);
    expect(describeFailure('texto')).toBe('texto');
  });
});
