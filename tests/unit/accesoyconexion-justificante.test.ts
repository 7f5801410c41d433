/**
 * The filing moment of an access request's receipt (Ley 39/2015 art. 16.3): to the second, in
 * Madrid's time with the offset of the day (winter UTC+1, summer UTC+2), and in UTC.
 */
import { describe, expect, it } from 'vitest';
import { momentoJustificante } from '../../src/server/accesoyconexion/justificante.ts';

describe('momentoJustificante', () => {
  it('en verano, hora de Madrid con UTC+2', () => {
    expect(momentoJustificante(new Date('2026-07-01T08:12:33Z'))).toEqual({
      madrid: '1 de julio de 2026, 10:12:33 (hora peninsular, UTC+2)',
      utc: '2026-07-01 08:12:33 UTC',
    });
  });

  it('en invierno, hora de Madrid con UTC+1, también de madrugada al cambiar de día', () => {
    expect(momentoJustificante(new Date('2026-12-31T23:30:05Z')).madrid).toBe('1 de enero de 2027, 00:30:05 (hora peninsular, UTC+1)');
  });
});
