/**
 * The shared form components (src/islands/comunes/formulario/) rendered to HTML with react-dom/server,
 * as the server-rendered islands first show them: their accessibility contracts (docs/diseno.md
 * "Forms") read from the markup. The unit project has no DOM, so effects (focus) are not run here;
 * the browser tests cover them.
 */
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BotonEnviar } from '../../src/islands/comunes/formulario/BotonEnviar.tsx';
import { CabeceraCampo } from '../../src/islands/comunes/formulario/CabeceraCampo.tsx';
import { CampoCorreo } from '../../src/islands/comunes/formulario/CampoCorreo.tsx';
import { CampoPassword, partesMostrar } from '../../src/islands/comunes/formulario/CampoPassword.tsx';
import { CampoTexto } from '../../src/islands/comunes/formulario/CampoTexto.tsx';
import { textosCampo } from '../../src/islands/comunes/formulario/campo.ts';
import { EnlaceVolver } from '../../src/islands/comunes/formulario/EnlaceVolver.tsx';
import { ResumenErrores } from '../../src/islands/comunes/formulario/ResumenErrores.tsx';

const nada = () => {};

/** The markup of an element, parsed enough to read attributes. */
function html(el: Parameters<typeof renderToStaticMarkup>[0]): string {
  return renderToStaticMarkup(el);
}

/** The attributes of the first `<tag …>` in some markup, names in lower case as HTML reads them. */
function atributos(marcado: string, tag: string): Record<string, string> {
  const m = new RegExp(`<${tag}\\b([^>]*)>`).exec(marcado);
  if (!m) throw new Error(`no <${tag}> in ${marcado}`);
  return Object.fromEntries([...m[1]!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!.toLowerCase(), a[2] ?? '']));
}

describe('CabeceraCampo', () => {
  it('labels the control and gives the hint and the error the ids the control points at', () => {
    const textos = textosCampo({ id: 'nif', ayuda: 'Con su letra.', error: 'Falta el NIF.' });
    const m = html(h(CabeceraCampo, { id: 'nif', etiqueta: 'NIF', error: 'Falta el NIF.', textos, bloque: 'campo' }));
    expect(m).toBe(
      '<label for="nif">NIF</label><p id="nif-ayuda" class="campo__ayuda">Con su letra.</p>' +
        '<p id="nif-error" class="campo__error"><span class="visually-hidden">Error: </span>Falta el NIF.</p>',
    );
  });

  it('says "(obligatorio)" inside the label when asked', () => {
    const m = html(
      h(CabeceraCampo, { id: 'x', etiqueta: 'Municipio', textos: textosCampo({ id: 'x' }), bloque: 'admin-campo', obligatorio: true }),
    );
    expect(m).toBe('<label for="x">Municipio<span class="admin-campo__obligatorio"> (obligatorio)</span></label>');
  });
});

describe('CampoTexto', () => {
  it('is a named input with no `name`, described by its hint while valid', () => {
    const m = html(
      h(CampoTexto, {
        id: 'nif',
        etiqueta: 'NIF/CIF',
        valor: '',
        alCambiar: nada,
        autoComplete: 'off',
        ayuda: 'Con su letra.',
        requerido: true,
      }),
    );
    const input = atributos(m, 'input');
    expect(input).toMatchObject({ id: 'nif', type: 'text', autocomplete: 'off', 'aria-describedby': 'nif-ayuda', required: '' });
    expect(input).not.toHaveProperty('name');
    expect(input).not.toHaveProperty('aria-invalid');
    expect(atributos(m, 'div').class).toBe('campo');
  });

  it('marks a wrong value invalid and reads the error after the hint', () => {
    const m = html(
      h(CampoTexto, {
        id: 'nif',
        etiqueta: 'NIF/CIF',
        valor: 'x',
        alCambiar: nada,
        autoComplete: 'off',
        ayuda: 'Con su letra.',
        error: 'No es válido.',
      }),
    );
    expect(atributos(m, 'input')).toMatchObject({ 'aria-invalid': 'true', 'aria-describedby': 'nif-ayuda nif-error' });
    expect(atributos(m, 'div').class).toBe('campo campo--error');
  });

  it('is disabled, with its wrapper marked, when the form rules say so', () => {
    const m = html(
      h(CampoTexto, { id: 'nombre', etiqueta: 'Nombre', valor: '', alCambiar: nada, autoComplete: 'given-name', deshabilitado: true }),
    );
    expect(atributos(m, 'input')).toHaveProperty('disabled');
    expect(atributos(m, 'div').class).toBe('campo campo--deshabilitado');
  });
});

describe('CampoCorreo', () => {
  it('is an e-mail input with the e-mail keyboard, no capital letter and the email token', () => {
    const m = html(h(CampoCorreo, { id: 'correo', etiqueta: 'Correo electrónico', valor: '', alCambiar: nada }));
    expect(atributos(m, 'input')).toMatchObject({ type: 'email', inputmode: 'email', autocapitalize: 'none', autocomplete: 'email' });
  });
});

describe('CampoPassword', () => {
  it('splits the toggle name into its visible verb and the rest', () => {
    expect(partesMostrar()).toEqual({ verbo: 'Mostrar', resto: 'contraseña' });
    expect(partesMostrar('Mostrar la contraseña actual')).toEqual({ verbo: 'Mostrar', resto: 'la contraseña actual' });
  });

  it('starts hidden, with a toggle button that names and controls its input', () => {
    const m = html(
      h(CampoPassword, { id: 'password', etiqueta: 'Contraseña', valor: '', alCambiar: nada, autoComplete: 'current-password' }),
    );
    expect(atributos(m, 'input')).toMatchObject({ id: 'password', type: 'password', autocapitalize: 'none' });
    expect(atributos(m, 'button')).toMatchObject({ type: 'button', 'aria-pressed': 'false', 'aria-controls': 'password' });
    expect(m).toContain('<span class="campo__ver-verbo">Mostrar</span><span class="visually-hidden"> contraseña</span>');
  });
});

describe('ResumenErrores', () => {
  it('renders nothing while the form has no errors', () => {
    expect(html(h(ResumenErrores, { titulo: 'Revise los campos marcados', errores: [], intento: 0 }))).toBe('');
  });

  it('is a group named by its heading, focusable, with a link to each field in order', () => {
    const errores = [
      { campo: 'usuario', mensaje: 'Introduzca su usuario.' },
      { campo: 'password', mensaje: 'Introduzca su contraseña.' },
    ];
    const m = html(h(ResumenErrores, { titulo: 'Revise los campos marcados', errores, intento: 1 }));
    const caja = atributos(m, 'div');
    expect(caja).toMatchObject({ class: 'resumen-errores', tabindex: '-1', role: 'group' });
    expect(atributos(m, 'h2').id).toBe(caja['aria-labelledby']);
    expect([...m.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((a) => [a[1], a[2]])).toEqual([
      ['#usuario', 'Introduzca su usuario.'],
      ['#password', 'Introduzca su contraseña.'],
    ]);
  });
});

describe('EnlaceVolver and BotonEnviar', () => {
  it('the back link is named by its text alone, its arrow hidden', () => {
    expect(html(h(EnlaceVolver, { href: '/', texto: 'Volver al inicio' }))).toBe(
      '<a class="volver" href="/"><span class="volver__flecha" aria-hidden="true"></span>Volver al inicio</a>',
    );
  });

  it('the submit button says what it is doing and is busy while sending', () => {
    expect(html(h(BotonEnviar, { clase: 'priv-boton', texto: 'Guardar', textoEnviando: 'Guardando…' }))).toBe(
      '<button type="submit" class="priv-boton">Guardar</button>',
    );
    expect(html(h(BotonEnviar, { clase: 'priv-boton', texto: 'Guardar', textoEnviando: 'Guardando…', enviando: true }))).toBe(
      '<button type="submit" class="priv-boton" aria-busy="true">Guardando…</button>',
    );
  });
});
