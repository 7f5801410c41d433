import { describe, expect, it } from 'vitest';
import {
  consultaPrefijos,
  palabrasBusqueda,
  patronContiene,
  patronPrefijo,
  plegar,
  prefijoEmail,
  prefijoNif,
} from '../../src/server/administracion/busqueda.ts';
import { MENSAJES_ADMINISTRACION, validarCambioPermisos } from '../../src/server/administracion/service.ts';
import { LETRAS_ACENTUADAS, LETRAS_SIN_ACENTO } from '../../src/server/db/schema.ts';
import { ValidationError } from '../../src/server/http/errors.ts';

describe('user search words', () => {
  it('fold accents, ñ and ç exactly as the SQL translate of the name index does', () => {
    expect(plegar(LETRAS_ACENTUADAS)).toBe(LETRAS_SIN_ACENTO.toLowerCase());
    expect(plegar('Íñigo MUÑOZ Çelik')).toBe('inigo munoz celik');
  });

  it('split on anything but letters and digits, at most six words', () => {
    expect(palabrasBusqueda('  García-López, Ana ')).toEqual(['garcia', 'lopez', 'ana']);
    expect(palabrasBusqueda('a b c d e f g h')).toHaveLength(6);
    expect(palabrasBusqueda('%&*!')).toEqual([]);
  });

  it('become a prefix tsquery that no operator can slip into', () => {
    expect(consultaPrefijos(palabrasBusqueda("mart' | !ort:*"))).toBe('mart:* & ort:*');
    expect(consultaPrefijos([])).toBeNull();
  });
});

describe('prefix patterns', () => {
  it('escape LIKE wildcards and the escape character', () => {
    expect(patronPrefijo('a%b_c\\d')).toBe('a\\%b\\_c\\\\d%');
    expect(patronContiene('50%')).toBe('%50\\%%');
  });

  it('read an NIF prefix only from what could start one', () => {
    expect(prefijoNif('12.345-67')).toBe('1234567');
    expect(prefijoNif('x123')).toBe('X123');
    expect(prefijoNif('garcía')).toBeNull();
    expect(prefijoNif('1234567890')).toBeNull();
  });

  it('read an e-mail prefix in lower case, never with spaces', () => {
    expect(prefijoEmail(' Lucia@Correo ')).toBe('lucia@correo');
    expect(prefijoEmail('ana garcía')).toBeNull();
    expect(prefijoEmail('   ')).toBeNull();
  });
});

describe('validarCambioPermisos', () => {
  const mensajes = (conceder: string[], revocar: string[]) => {
    try {
      validarCambioPermisos(conceder, revocar);
      return [];
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      return (err as ValidationError).messages;
    }
  };

  it('accepts real permissions and drops repeats', () => {
    expect(validarCambioPermisos(['epd-contacto', 'epd-contacto'], ['eod-administrador'])).toEqual({
      conceder: ['epd-contacto'],
      revocar: ['eod-administrador'],
    });
  });

  it('refuses -distribucion, unknown strings and a permission in both lists, once each', () => {
    expect(mensajes(['epd-distribucion', 'eod-distribucion'], [])).toEqual([MENSAJES_ADMINISTRACION.distribucion]);
    expect(mensajes(['xyz-contacto'], ['epd'])).toHaveLength(2);
    expect(mensajes(['epd-contacto'], ['epd-contacto'])).toEqual([MENSAJES_ADMINISTRACION.ambos]);
  });
});
