/** The staff's side of access and connection requests (src/lib/accesoyconexion/gestion.ts): the queue's address, texts, data, actions. */
import { describe, expect, it } from 'vitest';
import {
  accionesDeGestion,
  agruparDocumentos,
  CAMPOS_ACCION,
  cifrasDecimales,
  comprobarAccion,
  detallesEvento,
  errorFicheroPdf,
  eventosEnOrden,
  fechaCorta,
  leerNumero,
  listaAccesos,
  mensajeHecho,
  ORDEN_ACCIONES,
  PASOS_COLA,
  pendientesDeClase,
  seccionesDatos,
  textoConfirmacion,
  textoPlazo,
  textoPotencia,
  turnoCorto,
  turnoFrase,
  urlApiAccion,
  urlDocumento,
  urlSubidaDocumento,
  VALORES_VACIOS,
  type ValoresAccion,
} from '../../src/lib/accesoyconexion/gestion.ts';
import { ACCIONES_DISTRIBUIDORA, MAX_SUBSANACIONES } from '../../src/lib/accesoyconexion/procedimiento.ts';
import { AccionBodySchema, type SolicitudDetalle } from '../../src/lib/accesoyconexion/respuestas.ts';
import { MAX_DOCUMENTO_BYTES } from '../../src/lib/expedientes/documentos.ts';

type Documento = SolicitudDetalle['documentos'][number];
type Evento = SolicitudDetalle['eventos'][number];

const doc = (p: Partial<Documento>): Documento => ({
  id: 'd',
  clase: 'memoria',
  nombre: 'memoria.pdf',
  tipoMime: 'application/pdf',
  bytes: 1000,
  lado: 'solicitante',
  subidoEn: '2026-11-02T09:00:00.000Z',
  pendiente: false,
  eventoId: 1,
  ...p,
});

const evento = (p: Partial<Evento>): Evento => ({
  id: 1,
  accion: 'presentar',
  accionNombre: 'Solicitud presentada',
  paso: 'presentada',
  lado: 'solicitante',
  momento: '2026-11-02T09:00:00.000Z',
  mensaje: null,
  datos: null,
  vence: null,
  ...p,
});

const valores = (v: Partial<ValoresAccion>): ValoresAccion => ({ ...VALORES_VACIOS, ...v });
const ctx = { subsanaciones: 0, documentosPendientes: 0 };

describe('the queue in the address and in the API call', () => {
  const lista = listaAccesos(['epd', 'eod']);

  it('reads nothing as no filter, the first distributor, first page', () => {
    expect(lista.desdeConsulta('')).toEqual({ distribuidora: '', paso: '', tipo: '', nudo: '', vencidas: '', pagina: 1, porPagina: 25 });
  });

  it('drops what the address cannot mean: a draft, a distributor not administered, an unknown kind', () => {
    const f = lista.desdeConsulta('paso=borrador&distribuidora=ecd&tipo=nuclear&vencidas=1&pagina=-3&porPagina=7');
    expect(f).toEqual({ distribuidora: '', paso: '', tipo: '', nudo: '', vencidas: '', pagina: 1, porPagina: 25 });
    expect(PASOS_COLA).not.toContain('borrador');
  });

  it('writes the first distributor as nothing and any other by its code', () => {
    expect(lista.desdeConsulta('distribuidora=epd').distribuidora).toBe('');
    expect(lista.desdeConsulta('distribuidora=eod').distribuidora).toBe('eod');
  });

  it('round-trips the filters through the address, leaving defaults out', () => {
    const f = {
      distribuidora: 'eod',
      paso: 'admitida',
      tipo: 'generacion',
      nudo: ' SE-NORTE-66 ',
      vencidas: 'si',
      pagina: 2,
      porPagina: 50,
    } as const;
    const q = lista.consulta(f);
    expect(q).toBe('distribuidora=eod&paso=admitida&tipo=generacion&nudo=SE-NORTE-66&vencidas=si&pagina=2&porPagina=50');
    expect(lista.desdeConsulta(q)).toEqual({ ...f, nudo: 'SE-NORTE-66' });
    expect(lista.consulta(lista.vacios)).toBe('');
  });

  it('always names one distributor to the API, with the page and vencidas=true', () => {
    expect(lista.url(lista.vacios)).toBe('/api/administrador/accesoyconexion?distribuidora=epd&pagina=1&porPagina=25');
    expect(lista.url({ ...lista.vacios, distribuidora: 'eod', vencidas: 'si', nudo: 'N 1', pagina: 3 })).toBe(
      '/api/administrador/accesoyconexion?distribuidora=eod&nudo=N+1&vencidas=true&pagina=3&porPagina=25',
    );
  });
});

describe('turns and deadlines', () => {
  it('says whose turn it is, in a cell and in a sentence', () => {
    expect(turnoCorto('distribuidora')).toBe('Distribuidora');
    expect(turnoCorto('solicitante')).toBe('Solicitante');
    expect(turnoCorto(null)).toBe('Nadie (cerrada)');
    expect(turnoFrase('distribuidora')).toBe('Le toca actuar a la distribuidora.');
    expect(turnoFrase(null)).toMatch(/terminado/);
  });

  it('writes civil dates short, whatever the time zone', () => {
    expect(fechaCorta('2026-11-03')).toBe('3 nov 2026');
    expect(fechaCorta(null)).toBe('—');
  });

  it('flags an overdue deadline as the server says', () => {
    expect(textoPlazo('2026-11-20', true, '2026-11-25')).toEqual({
      fecha: '20 nov 2026',
      fechaLarga: '20 de noviembre de 2026',
      vencido: true,
      estado: 'Vencida',
    });
  });

  it('counts the business days left, skipping weekends and national holidays', () => {
    // Friday 4 December 2026: the 5th and 6th are a weekend (the 6th, Constitution Day), the 8th is a holiday.
    expect(textoPlazo('2026-12-09', false, '2026-12-04').estado).toBe('Quedan 2 días hábiles');
    expect(textoPlazo('2026-12-07', false, '2026-12-04').estado).toBe('Queda 1 día hábil');
    expect(textoPlazo('2026-12-04', false, '2026-12-04').estado).toBe('Vence hoy');
  });

  it('has no deadline when the step sets none', () => {
    expect(textoPlazo(null, false, '2026-12-04')).toEqual({ fecha: 'Sin plazo', fechaLarga: 'Sin plazo', vencido: false, estado: null });
  });

  it('writes a power with the decimal comma', () => {
    expect(textoPotencia(4.6)).toBe('4,6 kW');
    expect(textoPotencia(12500)).toBe('12.500 kW');
    expect(textoPotencia(null)).toBe('—');
  });
});

describe("the applicant's data by section", () => {
  const base: Pick<SolicitudDetalle, 'datos' | 'solicitante' | 'necesitaGarantia' | 'nudoElegido'> = {
    solicitante: 'Solar del Norte, S.L.',
    necesitaGarantia: true,
    nudoElegido: {
      nudo: 'SE-NORTE-66',
      subestacion: 'Norte',
      tensionKv: 66,
      disponibleMw: 2.5,
      aviso: 'La potencia pedida pasa de la capacidad.',
    },
    datos: {
      tipo: 'generacion',
      potenciaKw: 5000,
      tecnologia: 'fotovoltaica',
      tensionKv: 20,
      enNombrePropio: true,
      correspondenciaMisma: true,
      latitud: 40.4168,
      longitud: -3.7038,
      nudo: 'SE-NORTE-66',
    },
  };

  it('lists the six sections of the form, in order', () => {
    expect(seccionesDatos(base).map((s) => s.titulo)).toEqual([
      'Datos de la solicitud',
      'Titular',
      'Emplazamiento',
      'Correspondencia',
      'Instalación',
      'Nudo de conexión',
    ]);
  });

  it('names the power to inject for generation, and carries the node capacity warning', () => {
    const [, titular, emplazamiento, correspondencia, instalacion, nudo] = seccionesDatos(base);
    expect(titular!.filas).toContainEqual(['Titular', 'Solar del Norte, S.L.']);
    expect(emplazamiento!.filas).toContainEqual(['Coordenadas (latitud, longitud)', '40,4168, -3,7038']);
    expect(emplazamiento!.filas).toContainEqual(['Municipio', 'No indicado']);
    expect(correspondencia!.filas).toEqual([['Dirección de correspondencia', 'La misma del emplazamiento']]);
    expect(instalacion!.filas).toContainEqual(['Potencia a evacuar', '5.000 kW']);
    expect(instalacion!.filas).toContainEqual(['Tecnología', 'Solar fotovoltaica']);
    expect(nudo!.filas).toContainEqual(['Capacidad disponible publicada hoy', '2,5 MW']);
    expect(nudo!.aviso).toBe('La potencia pedida pasa de la capacidad.');
  });

  it('shows the other holder when the request is on their behalf, and a node no longer published', () => {
    const s = seccionesDatos({
      ...base,
      nudoElegido: null,
      datos: { tipo: 'demanda', potenciaKw: 50, enNombrePropio: false, titularNombre: 'Ana Ruiz', titularNif: '12345678Z', nudo: 'X-1' },
    });
    expect(s[1]!.filas).toContainEqual(['NIF del titular', '12345678Z']);
    expect(s[4]!.filas[0]).toEqual(['Potencia a demandar', '50 kW']);
    expect(s[4]!.filas.map(([t]) => t)).not.toContain('Tecnología');
    expect(s[5]!.filas).toEqual([['Nudo', 'X-1 (la distribuidora ya no lo publica)']]);
    expect(s[5]!.aviso).toBeNull();
  });
});

describe('the timeline and the documents', () => {
  it('describes what a step recorded', () => {
    expect(
      detallesEvento({
        datos: {
          propuesta: { puntoConexion: 'CT Norte 3', condicionesTecnicas: 'Línea de 20 kV', importeEuros: 12500.5, plazoObrasMeses: 6 },
        },
      }),
    ).toEqual([
      ['Punto de conexión', 'CT Norte 3'],
      ['Condiciones técnicas', 'Línea de 20 kV'],
      ['Importe', '12.500,50 €'],
      ['Plazo de las obras', '6 meses'],
    ]);
    expect(detallesEvento({ datos: { motivo: 'capacidad' } })).toEqual([['Motivo', 'Falta de capacidad de acceso en el punto solicitado']]);
    expect(detallesEvento({ datos: { tensionFronteraKv: 66, diasInforme: 40 } })).toEqual([
      ['Tensión del punto frontera', '66 kV'],
      ['Días hábiles añadidos por el informe', '40'],
    ]);
    expect(detallesEvento({ datos: { desconocido: 1 } })).toEqual([]);
    expect(detallesEvento({ datos: null })).toEqual([]);
  });

  it("groups documents by the step that brought them, keeps the staff's pending ones apart, and lists each side's", () => {
    const docs = [
      doc({ id: 'b', eventoId: 2, lado: 'distribuidora', clase: 'propuesta_previa', subidoEn: '2026-11-10T09:00:00Z' }),
      doc({ id: 'a', eventoId: 1, subidoEn: '2026-11-02T09:00:00Z' }),
      doc({ id: 'c', eventoId: 1, clase: 'planos', subidoEn: '2026-11-02T09:01:00Z' }),
      doc({ id: 'p', eventoId: null, pendiente: true, lado: 'distribuidora', clase: 'permisos' }),
      doc({ id: 'q', eventoId: null, pendiente: true, lado: 'solicitante', clase: 'otro' }),
    ];
    const g = agruparDocumentos(docs);
    expect(g.porEvento.get(1)!.map((d) => d.id)).toEqual(['a', 'c']);
    expect(g.porEvento.get(2)!.map((d) => d.id)).toEqual(['b']);
    expect(g.pendientes.map((d) => d.id)).toEqual(['p']);
    expect(g.porLado.solicitante.map((d) => d.id)).toEqual(['a', 'c']);
    expect(g.porLado.distribuidora.map((d) => d.id)).toEqual(['b']);
    expect(pendientesDeClase(docs, 'permisos').map((d) => d.id)).toEqual(['p']);
    expect(pendientesDeClase(docs, 'propuesta_previa')).toEqual([]);
  });

  it('orders the timeline oldest first, keeping the server order on a tie', () => {
    const e = eventosEnOrden([
      evento({ id: 3, momento: '2026-11-03T00:00:00Z' }),
      evento({ id: 1, momento: '2026-11-01T00:00:00Z' }),
      evento({ id: 2, momento: '2026-11-03T00:00:00Z' }),
    ]);
    expect(e.map((x) => x.id)).toEqual([1, 3, 2]);
  });
});

describe('the actions', () => {
  it("offers only the staff's actions, in the panels' order", () => {
    expect(accionesDeGestion(['denegar', 'desistir', 'enviar_propuesta', 'pedir_informe'])).toEqual([
      'enviar_propuesta',
      'pedir_informe',
      'denegar',
    ]);
    expect([...ORDEN_ACCIONES].sort()).toEqual([...ACCIONES_DISTRIBUIDORA].sort());
  });

  it('asks for a confirmation only of the actions that end the procedure', () => {
    expect(textoConfirmacion('inadmitir', 'AC-2026-000001')!.titulo).toBe('Inadmitir la solicitud AC-2026-000001');
    expect(textoConfirmacion('denegar', 'AC-2026-000001')).not.toBeNull();
    expect(textoConfirmacion('emitir_permisos', 'AC-2026-000001')).not.toBeNull();
    expect(textoConfirmacion('admitir', 'AC-2026-000001')).toBeNull();
    expect(textoConfirmacion('enviar_propuesta', 'AC-2026-000001')).toBeNull();
  });

  it('admits with or without a message', () => {
    expect(comprobarAccion('admitir', VALORES_VACIOS, ctx)).toEqual({ ok: true, cuerpo: {} });
    expect(comprobarAccion('admitir', valores({ mensaje: '  Bienvenida  ' }), ctx)).toEqual({
      ok: true,
      cuerpo: { mensaje: 'Bienvenida' },
    });
  });

  it('requires the message where the server does', () => {
    for (const a of ['pedir_subsanacion', 'inadmitir'] as const) {
      const r = comprobarAccion(a, valores({ mensaje: '   ' }), ctx);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errores.map((e) => e.campo)).toEqual(['mensaje']);
    }
    expect(comprobarAccion('pedir_subsanacion', valores({ mensaje: 'Falta la memoria.' }), ctx)).toEqual({
      ok: true,
      cuerpo: { mensaje: 'Falta la memoria.' },
    });
    const largo = comprobarAccion('admitir', valores({ mensaje: 'x'.repeat(4001) }), ctx);
    expect(largo.ok ? null : largo.errores[0]!.mensaje).toBe('El mensaje no puede pasar de 4.000 caracteres.');
  });

  it(`refuses a third request for corrections (at most ${MAX_SUBSANACIONES})`, () => {
    const r = comprobarAccion('pedir_subsanacion', valores({ mensaje: 'Otra vez.' }), { ...ctx, subsanaciones: MAX_SUBSANACIONES });
    expect(r.ok ? null : r.errores[0]!.mensaje).toMatch(/Ya se han pedido 2 subsanaciones/);
  });

  it('denies with a reason of art. 9 and an explanation', () => {
    const r = comprobarAccion('denegar', valores({ motivo: 'toString' }), ctx);
    expect(r.ok ? [] : r.errores.map((e) => e.campo)).toEqual(['motivo', 'mensaje']);
    expect(comprobarAccion('denegar', valores({ motivo: 'capacidad', mensaje: 'No hay capacidad en el nudo.' }), ctx)).toEqual({
      ok: true,
      cuerpo: { motivo: 'capacidad', mensaje: 'No hay capacidad en el nudo.' },
    });
  });

  it('asks the upstream report with the border voltage, read the Spanish way', () => {
    expect(comprobarAccion('pedir_informe', valores({ tensionFronteraKv: '13,2' }), ctx)).toEqual({
      ok: true,
      cuerpo: { tensionFronteraKv: 13.2 },
    });
    for (const t of ['', '0', '401', 'sesenta']) {
      const r = comprobarAccion('pedir_informe', valores({ tensionFronteraKv: t }), ctx);
      expect(r.ok ? [] : r.errores.map((e) => e.campo)).toEqual(['tensionFronteraKv']);
    }
  });

  it('sends the propuesta previa only with its pending PDF and its conditions', () => {
    const sinNada = comprobarAccion('enviar_propuesta', VALORES_VACIOS, ctx);
    expect(sinNada.ok ? [] : sinNada.errores.map((e) => e.campo)).toEqual([
      'documento',
      'puntoConexion',
      'condicionesTecnicas',
      'importeEuros',
    ]);
    const v = valores({
      puntoConexion: 'CT Norte 3',
      condicionesTecnicas: 'Línea de 20 kV',
      importeEuros: '12.500,50',
      plazoObrasMeses: '6',
    });
    const r = comprobarAccion('enviar_propuesta', v, { ...ctx, documentosPendientes: 1 });
    expect(r).toEqual({
      ok: true,
      cuerpo: {
        propuesta: { puntoConexion: 'CT Norte 3', condicionesTecnicas: 'Línea de 20 kV', importeEuros: 12500.5, plazoObrasMeses: 6 },
      },
    });
    // What the screen sends passes the API's own schema.
    if (r.ok) expect(AccionBodySchema.safeParse(r.cuerpo).success).toBe(true);
    const malos = comprobarAccion(
      'enviar_propuesta',
      { ...v, importeEuros: '12,345', plazoObrasMeses: '0' },
      { ...ctx, documentosPendientes: 1 },
    );
    expect(malos.ok ? [] : malos.errores.map((e) => e.campo)).toEqual(['importeEuros', 'plazoObrasMeses']);
    expect(
      comprobarAccion('enviar_propuesta', { ...v, importeEuros: '0', plazoObrasMeses: '' }, { ...ctx, documentosPendientes: 1 }),
    ).toEqual({
      ok: true,
      cuerpo: { propuesta: { puntoConexion: 'CT Norte 3', condicionesTecnicas: 'Línea de 20 kV', importeEuros: 0 } },
    });
  });

  it('issues the permits only with their pending PDF', () => {
    const r = comprobarAccion('emitir_permisos', VALORES_VACIOS, ctx);
    expect(r.ok ? null : r.errores).toEqual([
      { campo: 'documento', mensaje: 'Suba antes el PDF de los permisos de acceso y conexión: elíjalo y pulse «Subir el PDF».' },
    ]);
    expect(comprobarAccion('emitir_permisos', VALORES_VACIOS, { ...ctx, documentosPendientes: 1 })).toEqual({ ok: true, cuerpo: {} });
  });

  it('lists every field an action checks among the fields its form shows', () => {
    for (const a of ACCIONES_DISTRIBUIDORA) {
      const r = comprobarAccion(a, valores({ motivo: 'x', tensionFronteraKv: 'x', importeEuros: 'x', plazoObrasMeses: 'x' }), {
        subsanaciones: 9,
        documentosPendientes: 0,
      });
      if (!r.ok) for (const e of r.errores) expect(CAMPOS_ACCION[a]).toContain(e.campo);
    }
  });

  it('reads numbers typed the Spanish or the plain way', () => {
    expect(leerNumero('1.234,56')).toBe(1234.56);
    expect(leerNumero('1234,5')).toBe(1234.5);
    expect(leerNumero('13.2')).toBe(13.2);
    expect(leerNumero('12.500')).toBe(12500);
    expect(leerNumero('1 000 €')).toBe(1000);
    expect(leerNumero('-5')).toBeNull();
    expect(leerNumero('1,2,3')).toBeNull();
    expect(leerNumero('')).toBeNull();
    expect(cifrasDecimales('12.500')).toBe(0);
    expect(cifrasDecimales('12.500,5')).toBe(1);
    expect(cifrasDecimales('12,345')).toBe(3);
  });

  it('announces what was done and where the request stands', () => {
    expect(
      mensajeHecho('enviar_propuesta', { referencia: 'AC-2026-000007', pasoNombre: 'Propuesta previa enviada', turno: 'solicitante' }),
    ).toBe(
      'Propuesta previa enviada. La solicitud AC-2026-000007 está ahora en «Propuesta previa enviada». Ahora le toca al solicitante; se le ha avisado por correo.',
    );
    expect(
      mensajeHecho('pedir_informe', { referencia: 'AC-2026-000007', pasoNombre: 'Admitida a trámite', turno: 'distribuidora' }),
    ).toMatch(/plazo de la propuesta previa se ha ampliado/);
    expect(mensajeHecho('denegar', { referencia: 'AC-2026-000007', pasoNombre: 'Denegada', turno: null })).toMatch(/ha terminado/);
  });
});

describe('documents and addresses', () => {
  it('builds the upload, document and action addresses', () => {
    expect(urlSubidaDocumento('e1', 'propuesta_previa', 'Propuesta previa & anexo.pdf')).toBe(
      '/api/expedientes/e1/documentos?clase=propuesta_previa&nombre=Propuesta+previa+%26+anexo.pdf',
    );
    expect(urlDocumento('e1', 'd/2')).toBe('/api/expedientes/e1/documentos/d%2F2');
    expect(urlApiAccion('e1', 'enviar_propuesta')).toBe('/api/administrador/accesoyconexion/e1/enviar_propuesta');
  });

  it('takes only a non-empty PDF of up to 20 MB', () => {
    expect(errorFicheroPdf({ name: 'p.pdf', size: 10, type: 'application/pdf' })).toBeNull();
    expect(errorFicheroPdf({ name: 'P.PDF', size: 10, type: '' })).toBeNull();
    expect(errorFicheroPdf({ name: 'foto.png', size: 10, type: 'image/png' })).toBe('El documento debe ser un PDF.');
    expect(errorFicheroPdf({ name: 'p.pdf', size: 0, type: 'application/pdf' })).toBe('El fichero está vacío.');
    expect(errorFicheroPdf({ name: 'p.pdf', size: MAX_DOCUMENTO_BYTES + 1, type: 'application/pdf' })).toMatch(/MB/);
    expect(errorFicheroPdf({ name: `${'a'.repeat(200)}.pdf`, size: 10, type: 'application/pdf' })).toMatch(/200 caracteres/);
    expect(errorFicheroPdf(null)).toBe('Elija el fichero PDF.');
  });
});
