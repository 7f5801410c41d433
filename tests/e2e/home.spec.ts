import { expect, test } from '@playwright/test';
import { revisarAnchos, WIDTHS } from './support.ts';

test.describe('página de inicio', () => {
  test('el aviso del 28 de abril está plegado y se despliega y pliega con el botón', async ({ page }) => {
    await page.goto('/');
    const aviso = page.getByRole('region', { name: /28 de abril de 2025/ });
    await expect(aviso.getByText('28 de abril de 2025 · Aviso publicado')).toBeVisible();
    await expect(aviso.getByRole('button', { name: 'Leer el aviso completo' })).toBeVisible();
    // The button's name changes with its state: follow it by its role in the page, not by its name.
    const boton = aviso.locator('[data-aviso-toggle]');
    await expect(boton).toHaveAttribute('aria-expanded', 'false');
    const texto = page.locator('#aviso-texto');
    await expect(texto).toBeHidden();
    await boton.click();
    await expect(boton).toHaveAttribute('aria-expanded', 'true');
    await expect(texto).toBeVisible();
    await expect(texto).toContainText('sistema de transporte');
    await expect(texto).toContainText('No tuvo su origen en las redes de distribución');
    await expect(texto.getByRole('link', { name: 'Enlace permanente a este aviso' })).toHaveAttribute(
      'href',
      '/avisos/apagon-28-abril-2025',
    );
    await expect(boton).toHaveAccessibleName('Ocultar el aviso completo');
    await boton.press('Enter');
    await expect(boton).toHaveAttribute('aria-expanded', 'false');
    await expect(texto).toBeHidden();
  });

  test('el vídeo de cabecera se reproduce en silencio, en bucle, y se puede pausar', async ({ page }) => {
    await page.goto('/');
    const video = page.locator('video[data-hero-video]');
    await expect(video).toHaveJSProperty('muted', true);
    await expect(video).toHaveJSProperty('loop', true);
    await expect(video).toHaveAttribute('poster', '/media/hero-poster.jpg');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
    const boton = page.getByRole('button', { name: 'Pausar vídeo' });
    await boton.click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await expect(page.getByRole('button', { name: 'Reproducir vídeo' })).toHaveAttribute('aria-pressed', 'true');
  });

  test('con movimiento reducido el vídeo no arranca solo', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Reproducir vídeo' })).toBeVisible();
    expect(await page.locator('video[data-hero-video]').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await context.close();
  });

  test('los tres bloques llevan a su área', async ({ page }) => {
    await page.goto('/');
    const bloques = page.locator('.bloques li');
    await expect(bloques).toHaveCount(3);
    await expect(page.getByRole('heading', { name: 'Acceso y conexión a la red' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Mis solicitudes' })).toHaveAttribute('href', '/accesoyconexion/listado-de-solicitudes');
    await expect(page.getByRole('link', { name: 'Capacidad nodal EPD' })).toHaveAttribute('href', '/capacidad-nodal/epd');
    await expect(page.getByRole('link', { name: 'Capacidad nodal EOD' })).toHaveAttribute('href', '/capacidad-nodal/eod');
    await expect(page.getByRole('link', { name: 'Ver mi consumo' })).toHaveAttribute('href', '/medidas/curvas');
    await expect(page.getByRole('link', { name: 'Ficheros SIPS' })).toHaveAttribute('href', '/comercializadora/sips');
  });
});

test.describe('cabecera y pie', () => {
  test('la cabecera pública lleva a Contacto y al Área privada', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await nav.getByRole('link', { name: 'Contacto' }).click();
    await expect(page).toHaveURL(/\/informacion$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Contacto' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Área privada' })).toHaveAttribute('href', '/sesion/login');
  });

  test('el pie enlaza los textos legales, los proyectos y la web del grupo en una pestaña nueva', async ({ page }) => {
    await page.goto('/');
    const pie = page.locator('footer');
    for (const [name, href] of [
      ['Aviso legal', '/legal/aviso-legal'],
      ['Protección de datos', '/legal/proteccion-datos'],
      ['Política de calidad', '/legal/politica-calidad'],
      ['Proyectos subvencionados', '/proyectos-subvencionados'],
    ] as const) {
      await expect(pie.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    const grupo = pie.getByRole('link', { name: /Grupo Electra Distribución \(se abre en una pestaña nueva\)/ });
    await expect(grupo).toHaveAttribute('target', '_blank');
    await expect(grupo).toHaveAttribute('rel', /noopener/);
    await pie.getByRole('link', { name: 'Aviso legal' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Aviso legal');
  });

  for (const path of [
    '/legal/aviso-legal',
    '/legal/proteccion-datos',
    '/legal/politica-calidad',
    '/proyectos-subvencionados',
    '/incidencias-red',
    '/capacidad-nodal/epd',
  ]) {
    test(`${path} tiene la cabecera oscura y fija`, async ({ page }) => {
      await page.goto(path);
      const header = page.locator('header.site-header');
      await expect(header).toHaveAttribute('data-variant', 'dark');
      await expect(header).toHaveCSS('position', 'fixed');
      await expect(header).toHaveCSS('background-color', 'rgb(13, 34, 56)');
      await page.mouse.wheel(0, 1500);
      await expect(header).toBeInViewport();
    });
  }

  for (const path of ['/', '/informacion']) {
    test(`${path} tiene la cabecera transparente sobre el contenido`, async ({ page }) => {
      await page.goto(path);
      const header = page.locator('header.site-header');
      await expect(header).toHaveAttribute('data-variant', 'transparent');
      await expect(header).toHaveCSS('position', 'absolute');
    });
  }
});

test.describe('páginas sin JavaScript', () => {
  for (const path of [
    '/legal/aviso-legal',
    '/legal/proteccion-datos',
    '/legal/politica-calidad',
    '/proyectos-subvencionados',
    '/avisos/apagon-28-abril-2025',
  ]) {
    test(`${path} no carga ningún script`, async ({ page }) => {
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(r.url());
      });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(scripts).toEqual([]);
      expect(await page.locator('script').count()).toBe(0);
    });
  }
});

test.describe('«No tengo luz» desde las páginas públicas', () => {
  test('la portada lleva a «No tengo luz» sin iniciar sesión, desde la cabecera y desde el banner', async ({ page }) => {
    await page.goto('/');
    await page.locator('.hero-actions').getByRole('link', { name: 'No tengo luz' }).click();
    await expect(page).toHaveURL(/\/no-tengo-luz$/);
    await expect(page.getByRole('heading', { level: 1, name: 'No tengo luz' })).toBeVisible();
    await page.goBack();
    const banner = page.locator('.banner-incidencias');
    await expect(banner).not.toHaveAttribute('data-nivel', 'cargando');
    await banner.getByRole('link', { name: /No tiene luz/ }).click();
    await expect(page).toHaveURL(/\/no-tengo-luz$/);
  });

  test('la página de interrupciones lleva a «No tengo luz»', async ({ page }) => {
    await page.goto('/incidencias-red');
    await page.getByRole('link', { name: 'No tengo luz', exact: true }).click();
    await expect(page).toHaveURL(/\/no-tengo-luz$/);
  });

  test('la portada y las interrupciones, con los enlaces nuevos, son accesibles a 1280 y 390 px', async ({ page }) => {
    test.setTimeout(120_000);
    for (const ruta of ['/', '/incidencias-red']) {
      await page.goto(ruta);
      await expect(page.locator('.banner-incidencias, .aviso-sin-luz').first()).toBeVisible();
      await expect(page.locator('[data-nivel="cargando"]')).toHaveCount(0);
      await revisarAnchos(page, `sin-luz${ruta === '/' ? '-portada' : ruta}`, WIDTHS);
    }
  });
});
