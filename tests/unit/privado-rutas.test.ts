/**
 * The private area's route table, guard and menu (src/lib/privado/rutas-app.ts): every rule of
 * docs/producto.md §6 and the extensions of decision 006.
 */
import { describe, expect, it } from 'vitest';
import {
  ALIAS,
  esRutaDeLaApp,
  guarda,
  idMenuActivo,
  MENU_FIJO,
  RUTA_POR_ID,
  RUTAS_APP,
  rutaDePath,
  ruta,
  SECCIONES_MENU,
  seccionesVisibles,
  urlLogin,
  type DecisionGuarda,
  type RutaApp,
} from '../../src/lib/privado/rutas-app.ts';
import { esRutaPrivada } from '../../src/lib/rutas.ts';
import { todosLosPermisos } from '../../src/lib/permisos.ts';

const conPermisos = (...Permisos: string[]) => ({ Permisos });
/** A user who holds every area but the given one (on every distributor). */
const sinArea = (area: string) => conPermisos(...todosLosPermisos().filter((p) => !p.endsWith(`-${area}`)));
const tipo = (d: DecisionGuarda) => d.tipo;

describe('anonymous visitors', () => {
  it('go to the login with the path and query as returnUrl', () => {
    expect(guarda('/medidas/curvas', '?cups=ES1', null)).toEqual({
      tipo: 'login',
      destino: '/sesion/login?returnUrl=%2Fmedidas%2Fcurvas%3Fcups%3DES1',
    });
  });

  it('go to the login from every private path, even those that need no permission or do not exist', () => {
    for (const path of [
      '/inicio',
      '/perfil',
      '/administrador',
      '/contacto/nada',
      ...RUTAS_APP.map((r) => r.patron.replace(/:\w+\??/g, 'x')),
    ]) {
      expect(guarda(path, '', null)).toEqual({ tipo: 'login', destino: urlLogin(path) });
    }
  });
});

describe('docs/producto.md §6 rules for logged-in users', () => {
  const casos: [string, string][] = [
    ['/comercializadora/solicitud-atr', 'comercializadora'],
    ['/comercializadora/sips', 'comercializadora'],
    ['/comercializadora/ftp', 'comercializadora'],
    ['/medidas/potencia', 'distribucion'],
    ['/medidas/curvas', 'distribucion'],
    ['/medidas/autorizaciones', 'distribucion'],
    ['/accesoyconexion/listado-de-solicitudes', 'accesoyconexion'],
    ['/accesoyconexion/solicitud', 'accesoyconexion'],
    ['/accesoyconexion/solicitud/123', 'accesoyconexion'],
  ];

  for (const [path, area] of casos) {
    it(`${path} needs a permission ending in -${area}`, () => {
      expect(tipo(guarda(path, '', conPermisos(`epd-${area}`)))).toBe('permitir');
      // Any distributor will do: the suffix is what the guard checks.
      expect(tipo(guarda(path, '', conPermisos(`ecd-${area}`)))).toBe('permitir');
      const denegada = guarda(path, '', sinArea(area));
      expect(denegada).toMatchObject({ tipo: 'sin-permiso', destino: '/inicio' });
      expect(denegada.tipo === 'sin-permiso' && denegada.mensaje).toMatch(/^No tiene permiso para acceder a «.+»\. /);
    });
  }

  it('solicitud-atr does not need -accesoyconexion although its name contains "solicitud"', () => {
    expect(tipo(guarda('/comercializadora/solicitud-atr', '', conPermisos('epd-comercializadora')))).toBe('permitir');
    expect(tipo(guarda('/comercializadora/solicitud-atr', '', conPermisos('epd-accesoyconexion')))).toBe('sin-permiso');
  });

  it('lets any logged-in user open the paths docs/producto.md leaves open (inicio, perfil)', () => {
    expect(guarda('/inicio', '', conPermisos())).toMatchObject({ tipo: 'permitir', ruta: { id: 'inicio' } });
    expect(guarda('/perfil', '', conPermisos())).toMatchObject({ tipo: 'permitir', ruta: { id: 'perfil' } });
  });

  it('does not take a permission-like text that only contains the area for it', () => {
    expect(tipo(guarda('/medidas/curvas', '', conPermisos('epd-distribucion-no')))).toBe('sin-permiso');
  });
});

describe('decision 006 extensions', () => {
  /** Paths of decision 006, a permission that lets a user in, and the area they need. */
  const RUTAS_CON_AREA: [string, string, string][] = [
    ...[
      '/administrador/administrador-usuarios',
      '/administrador/administrador-usuarios/abc',
      '/administrador/acceso-como-usuario',
      '/administrador/incidencias',
      '/administrador/auditoria',
      '/administrador/contadores',
    ].map((path): [string, string, string] => [path, 'eod-administrador', 'administrador']),
    // The consumer screens.
    ...[
      '/medidas/certificado-consumo',
      '/medidas/lecturas-programadas',
      '/medidas/estado-contador',
      '/modificacionesContractuales/modificaciones-contractuales',
      '/informacionContrato/detalle-informacion-contrato',
    ].map((path): [string, string, string] => [path, 'epd-distribucion', 'distribucion']),
    ...['/contacto/consultas-y-peticiones', '/contacto/reclamaciones', '/contacto/detalleReclamacion/7'].map(
      (path): [string, string, string] => [path, 'epd-contacto', 'contacto'],
    ),
  ];

  it.each(RUTAS_CON_AREA)('lets %s in with %s', (path, permiso) => {
    expect(tipo(guarda(path, '', conPermisos(permiso))), path).toBe('permitir');
  });

  it.each(RUTAS_CON_AREA)('keeps %s from a user without the -%s area', (path, _, area) => {
    expect(tipo(guarda(path, '', sinArea(area))), path).toBe('sin-permiso');
  });

  it('sends a bare first segment on to its first screen, keeping the query', () => {
    expect(guarda('/medidas', '?a=1', conPermisos())).toEqual({ tipo: 'alias', destino: '/medidas/curvas?a=1' });
    expect(guarda('/administrador/', '', conPermisos())).toEqual({ tipo: 'alias', destino: '/administrador/administrador-usuarios' });
    for (const destino of Object.values(ALIAS)) expect(rutaDePath(destino), destino).not.toBeNull();
  });

  it('shows "not found" for a private path with no screen', () => {
    expect(guarda('/medidas/inexistente', '', conPermisos('epd-distribucion'))).toEqual({ tipo: 'no-encontrada' });
  });
});

describe('route table', () => {
  it('has unique ids and patterns, each under a private prefix the server answers with the shell', () => {
    expect(new Set(RUTAS_APP.map((r) => r.id)).size).toBe(RUTAS_APP.length);
    expect(new Set(RUTAS_APP.map((r) => r.patron)).size).toBe(RUTAS_APP.length);
    for (const r of RUTAS_APP) expect(esRutaPrivada(r.patron), r.patron).toBe(true);
  });

  it('covers every private sub-path of docs/producto.md §2', () => {
    for (const path of [
      '/inicio',
      '/perfil',
      '/administrador/administrador-usuarios',
      '/accesoyconexion/listado-de-solicitudes',
      '/accesoyconexion/solicitud',
      '/informacionContrato/detalle-informacion-contrato',
      '/medidas/curvas',
      '/medidas/potencia',
      '/medidas/certificado-consumo',
      '/medidas/lecturas-programadas',
      '/medidas/estado-contador',
      '/modificacionesContractuales/modificaciones-contractuales',
      '/comercializadora/sips',
      '/comercializadora/solicitud-atr',
      '/comercializadora/ftp',
      '/contacto/consultas-y-peticiones',
      '/contacto/reclamaciones',
      '/contacto/detalleReclamacion/1',
    ]) {
      expect(rutaDePath(path), path).not.toBeNull();
    }
  });

  it('reads parameters, ignores a trailing slash and refuses a malformed escape', () => {
    expect(rutaDePath('/administrador/administrador-usuarios/a%20b/')).toMatchObject({
      ruta: { id: 'adminUsuario' },
      params: { id: 'a b' },
    });
    expect(rutaDePath('/accesoyconexion/solicitud')).toMatchObject({ ruta: { id: 'solicitud' }, params: {} });
    expect(rutaDePath('/administrador/administrador-usuarios/%E0')).toBeNull();
  });

  it('every screen not built yet says what it will offer', () => {
    // None is pending today; the rule still holds for the next one added.
    const rutas: readonly RutaApp[] = RUTAS_APP;
    for (const r of rutas.filter((x) => x.pantalla === 'no-disponible')) expect(r.ofrecera, r.id).toMatch(/^Aquí .+\.$/);
  });

  it('refuses an unknown route id when the code is compiled', () => {
    // @ts-expect-error: 'nada' is no route id; tsc fails here if `ruta` ever accepts any string again.
    expect(() => ruta('nada')).toThrow();
  });

  it('gives every child route a parent that exists', () => {
    for (const r of RUTAS_APP as readonly RutaApp[]) if (r.padre) expect(RUTA_POR_ID.has(r.padre), r.id).toBe(true);
  });
});

describe('side menu', () => {
  const ids = (permisos: string[]) => seccionesVisibles({ Permisos: permisos }).map((s) => s.id);

  it('shows each section only with a permission of its area', () => {
    expect(ids([])).toEqual([]);
    expect(ids(['epd-accesoyconexion', 'eod-contacto'])).toEqual(['accesoyconexion', 'contacto']);
    expect(ids(['epd-comercializadora', 'eod-comercializadora', 'epd-accesoyconexion', 'epd-contacto'])).toEqual([
      'accesoyconexion',
      'comercializadora',
      'contacto',
    ]);
    expect(ids(todosLosPermisos())).toEqual(['administrador', 'accesoyconexion', 'distribucion', 'comercializadora', 'contacto']);
  });

  it('has the entries of docs/producto.md §6 and the administration and consumer screens in each section', () => {
    const textos = Object.fromEntries(SECCIONES_MENU.map((s) => [s.id, s.items.map((i) => i.texto)]));
    expect(textos).toEqual({
      administrador: [
        'Administración de usuarios',
        'Acceder como otro usuario',
        'Incidencias de red',
        'Avisos de falta de suministro',
        'Solicitudes de modificación',
        'Solicitudes de acceso y conexión',
        'Solicitudes ATR de comercializadoras',
        'Consultas y reclamaciones',
        'Estado de contadores',
        'SIPS y registro de suministros',
        'Registro de actividad',
      ],
      accesoyconexion: ['Solicitudes', 'Capacidad nodal EPD', 'Capacidad nodal EOD'],
      distribucion: [
        'Suministros',
        'Consumo horario',
        'Potencias máximas',
        'Certificado de consumo',
        'Autorizaciones',
        'Lecturas programadas',
        'Estado del contador',
        'Modificaciones contractuales',
        'Interrupciones en mis suministros',
        'No tengo luz',
        'Interrupciones de red',
      ],
      comercializadora: ['SIPS', 'Solicitudes ATR', 'FTP'],
      contacto: ['Consultas y peticiones', 'Reclamaciones'],
    });
  });

  it('marks public pages for a full load and routes the FTP screen inside the app', () => {
    const todos = [...SECCIONES_MENU.flatMap((s) => s.items), ...Object.values(MENU_FIJO)];
    for (const i of todos) {
      if (i.tipo === 'ruta') expect(esRutaDeLaApp(i.href), i.href).toBe(true);
      if (i.tipo === 'publica') expect(esRutaDeLaApp(i.href), i.href).toBe(false);
    }
    expect(todos.find((i) => i.texto === 'FTP')).toEqual({ tipo: 'ruta', id: 'ftp', texto: 'FTP', href: '/comercializadora/ftp' });
    expect(todos.some((i) => i.tipo === 'externa')).toBe(false);
  });

  it('every menu entry that is a route leads to a screen its section permission opens', () => {
    for (const s of SECCIONES_MENU) {
      for (const i of s.items) {
        if (i.tipo !== 'ruta') continue;
        expect(ruta(i.id).area, i.id).toBe(s.id);
      }
    }
  });

  it('marks the list entry current while one of its details is open', () => {
    expect(idMenuActivo(ruta('adminUsuario'))).toBe('adminUsuarios');
    expect(idMenuActivo(ruta('curvas'))).toBe('curvas');
    expect(idMenuActivo(null)).toBeNull();
  });

  it('routes the app paths itself and leaves public pages to the browser', () => {
    expect(esRutaDeLaApp('/medidas/curvas')).toBe(true);
    expect(esRutaDeLaApp('/medidas/otra')).toBe(true);
    for (const p of ['/', '/informacion', '/incidencias-red', '/capacidad-nodal/epd', '/sesion/login', '/legal/aviso-legal'])
      expect(esRutaDeLaApp(p), p).toBe(false);
  });
});

describe('a consumer area opened only by authorisations (decision 028)', () => {
  const autorizada = (...datos: string[]) => ({ Permisos: ['epd-distribucion', 'epd-contacto'], datosAutorizados: datos });
  const items = (s: { Permisos: string[]; datosAutorizados?: string[] | null }) =>
    seccionesVisibles(s)
      .find((x) => x.id === 'distribucion')!
      .items.filter((i) => i.tipo === 'ruta')
      .map((i) => i.href);

  it('shows only the supply points, the authorisations and the screens of the data kinds granted', () => {
    expect(items(autorizada('curvas', 'potencias'))).toEqual([
      '/informacionContrato/detalle-informacion-contrato',
      '/medidas/curvas',
      '/medidas/potencia',
      '/medidas/autorizaciones',
    ]);
    expect(items(autorizada('certificados'))).toEqual([
      '/informacionContrato/detalle-informacion-contrato',
      '/medidas/certificado-consumo',
      '/medidas/autorizaciones',
    ]);
  });

  it('sends a modification or a screen not granted back to the start, saying why', () => {
    const d = guarda('/modificacionesContractuales/modificaciones-contractuales', '', autorizada('curvas'));
    expect(d.tipo).toBe('sin-permiso');
    expect(d.tipo === 'sin-permiso' && d.mensaje).toMatch(/Sus autorizaciones no le permiten acceder a «Modificaciones contractuales»/);
    expect(guarda('/medidas/potencia', '', autorizada('curvas')).tipo).toBe('sin-permiso');
    expect(guarda('/medidas/curvas', '', autorizada('curvas')).tipo).toBe('permitir');
  });

  it('leaves a holder’s menu whole', () => {
    expect(items({ Permisos: ['epd-distribucion'], datosAutorizados: null })).toContain(
      '/modificacionesContractuales/modificaciones-contractuales',
    );
  });
});
