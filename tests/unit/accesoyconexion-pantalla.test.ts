/** The access and connection screens' rules (src/lib/accesoyconexion/pantalla.ts). */
import { describe, expect, it } from 'vitest';
import {
  apiNudos,
  avisoCapacidad,
  clasesDocumentos,
  datosDeFormulario,
  distribuidorasAcceso,
  documentosPorEvento,
  eventosEnOrden,
  faltasDelCuerpo,
  faltasPorSeccion,
  faltasVigentes,
  formularioDeDatos,
  horaMadrid,
  idFalta,
  kwAMw,
  leerNumero,
  listaNudosDe,
  marcarLocales,
  mensajesPorControl,
  nudoQueNoVale,
  nudosPorProvincia,
  paginaNudos,
  paraCorregir,
  problemaFichero,
  queHacerAhora,
  resumenLista,
  seccionesDatos,
  sinGarantiaPorque,
  textoKw,
  textoCapacidadLista,
  textoMw,
  textoNudo,
  textoPlazo,
  textoQuien,
  textoTurno,
  ultimaPropuesta,
  urlSolicitud,
  type FormularioAcceso,
} from '../../src/lib/accesoyconexion/pantalla.ts';
import type { SolicitudDetalle } from '../../src/lib/accesoyconexion/respuestas.ts';
import { faltanParaPresentar, type DatosSolicitud, type Falta } from '../../src/lib/accesoyconexion/solicitud.ts';

type Evento = SolicitudDetalle['eventos'][number];
type Documento = SolicitudDetalle['documentos'][number];

const evento = (id: number, accion: string, momento: string, extra: Partial<Evento> = {}): Evento => ({
  id,
  accion,
  accionNombre: accion,
  paso: 'presentada',
  lado: 'solicitante',
  momento,
  mensaje: null,
  datos: null,
  vence: null,
  ...extra,
});

const documento = (id: string, eventoId: number | null, extra: Partial<Documento> = {}): Documento => ({
  id,
  clase: 'memoria',
  nombre: `${id}.pdf`,
  tipoMime: 'application/pdf',
  bytes: 2048,
  lado: 'solicitante',
  subidoEn: '2026-11-02T09:00:00.000Z',
  pendiente: eventoId === null,
  eventoId,
  ...extra,
});

const vacio = (): FormularioAcceso => formularioDeDatos({});

describe('distributors, turns and deadlines', () => {
  it('offers the distributors of the accesoyconexion permissions, in the portal order', () => {
    expect(distribuidorasAcceso(['eod-accesoyconexion', 'epd-distribucion', 'epd-accesoyconexion']).map((d) => d.codigo)).toEqual([
      'epd',
      'eod',
    ]);
  });

  it('says whose turn it is from the applicant side', () => {
    expect(textoTurno('solicitante')).toBe('Le toca a usted');
    expect(textoTurno('distribuidora')).toBe('Le toca a la distribuidora');
    expect(textoTurno(null)).toBe('Cerrada');
  });

  it('writes a deadline with the business days left', () => {
    // Friday 6 November 2026 to Tuesday 10 November: Monday and Tuesday.
    expect(textoPlazo('2026-11-10', false, '2026-11-06')).toMatchObject({
      vencido: false,
      texto: 'Hasta el 10 de noviembre de 2026 (quedan 2 días hábiles)',
    });
    expect(textoPlazo('2026-11-10', false, '2026-11-10')?.texto).toBe('Hasta hoy, 10 de noviembre de 2026');
    expect(textoPlazo(null, false, '2026-11-10')).toBeNull();
  });

  it('counts the days left on the calendar of the distributor, as the server counts the deadline', () => {
    // Friday 4 to Thursday 10 December 2026: 7 December is a holiday in Madrid (EPD) and 8 December a national one.
    expect(textoPlazo('2026-12-10', false, '2026-12-04', 'epd')?.texto).toBe('Hasta el 10 de diciembre de 2026 (quedan 2 días hábiles)');
    expect(textoPlazo('2026-12-10', false, '2026-12-04')?.texto).toBe('Hasta el 10 de diciembre de 2026 (quedan 3 días hábiles)');
  });

  it('says an overdue deadline in words', () => {
    const p = textoPlazo('2026-11-03', true, '2026-11-10')!;
    expect(p.vencido).toBe(true);
    expect(p.texto).toBe('Vencido: era el 3 de noviembre de 2026');
    expect(p.fechaCorta).toMatch(/3 nov 2026/);
  });

  it('counts the requests and those waiting for the user', () => {
    expect(resumenLista([{ turno: 'solicitante' }, { turno: 'distribuidora' }, { turno: null }])).toBe(
      'Tiene 3 solicitudes. En 1 le toca actuar.',
    );
    expect(resumenLista([{ turno: 'distribuidora' }])).toBe('Tiene 1 solicitud. En ninguna le toca actuar.');
  });

  it('builds the address of a request', () => {
    expect(urlSolicitud('5c7d3e2a')).toBe('/accesoyconexion/solicitud/5c7d3e2a');
  });

  it('writes a time in peninsular time', () => {
    expect(horaMadrid(Date.parse('2026-07-01T08:05:00Z'))).toBe('10:05');
    expect(horaMadrid(Date.parse('2026-12-01T08:05:00Z'))).toBe('09:05');
  });
});

describe('powers and nodal capacity', () => {
  it('writes kW and MW in Spanish format', () => {
    expect(textoKw(1250)).toBe('1.250 kW');
    expect(textoKw(4.6)).toBe('4,6 kW');
    expect(textoKw(null)).toBe('—');
    expect(kwAMw(1500)).toBe(1.5);
    expect(textoMw(kwAMw(12_345))).toBe('12,345 MW');
  });

  it('warns when the power asked passes the capacity published today', () => {
    expect(avisoCapacidad(5000, 4.2)).toContain('(5 MW) pasa de la capacidad que la distribuidora publica hoy en este nudo (4,2 MW)');
    expect(avisoCapacidad(4200, 4.2)).toBeNull();
    expect(avisoCapacidad(undefined, 0)).toBeNull();
  });

  it('describes a node with its substation, voltage and capacity', () => {
    const n = { nudo: 'EPD-S01-66', subestacion: 'Getafe Norte', municipio: 'Getafe', tensionKv: 66, disponibleMw: 12.5 };
    expect(textoNudo(n)).toBe('EPD-S01-66 · Getafe Norte (Getafe) · 66 kV · 12,5 MW disponibles hoy');
    expect(textoNudo({ ...n, disponibleMw: 0 })).toContain('sin capacidad disponible hoy');
  });

  it('groups the nodes by province, then municipality, substation and voltage from highest', () => {
    const n = (provincia: string, municipio: string, tensionKv: number) => ({ provincia, municipio, subestacion: 'S', tensionKv });
    const grupos = nudosPorProvincia([
      n('Toledo', 'Talavera', 20),
      n('Madrid', 'Getafe', 20),
      n('Madrid', 'Getafe', 66),
      n('Ávila', 'Ávila', 45),
    ]);
    expect(grupos.map((g) => g.provincia)).toEqual(['Ávila', 'Madrid', 'Toledo']);
    expect(grupos[1]!.nudos.map((x) => x.tensionKv)).toEqual([66, 20]);
  });
});

describe('the node lists: generation for injecting requests, firm demand for consumption', () => {
  it('chooses the list by the kind of request', () => {
    expect(listaNudosDe('demanda')).toBe('demanda');
    expect(['generacion', 'autoconsumo', 'almacenamiento', 'hibrida', '', undefined].map((t) => listaNudosDe(t as never))).toEqual(
      Array(6).fill('generacion'),
    );
  });

  it('reads each list from its API and links to the capacity page with its view', () => {
    expect(apiNudos('epd', 'generacion')).toBe('/api/capacidadNodal/epd');
    expect(apiNudos('epd', 'demanda')).toBe('/api/capacidadNodal/epd/demanda');
    expect(paginaNudos('/capacidad-nodal/epd', 'generacion')).toBe('/capacidad-nodal/epd');
    expect(paginaNudos('/capacidad-nodal/epd', 'demanda')).toBe('/capacidad-nodal/epd?tipo=demanda');
    expect(textoCapacidadLista('demanda')).toBe('capacidad de acceso firme de demanda disponible hoy');
  });

  it('describes a demand node with its firm capacity', () => {
    const n = { nudo: 'EPD-S03-66', subestacion: 'Getafe Norte', municipio: 'Getafe', tensionKv: 66, disponibleMw: 3 };
    expect(textoNudo(n, 'demanda')).toBe('EPD-S03-66 · Getafe Norte (Getafe) · 66 kV · 3 MW firmes disponibles hoy');
    expect(textoNudo({ ...n, disponibleMw: 0 }, 'demanda')).toContain('sin capacidad firme disponible hoy');
  });

  it('warns against the firm demand capacity for a demand node', () => {
    expect(avisoCapacidad(5000, 4.2, 'demanda')).toContain('(5 MW) pasa de la capacidad firme de demanda que la distribuidora publica');
    expect(avisoCapacidad(4000, 4.2, 'demanda')).toBeNull();
  });

  it('groups demand nodes by province as generation nodes', () => {
    const demanda = { nudo: 'X', provincia: 'Madrid', municipio: 'Getafe', subestacion: 'S', tensionKv: 66, disponibleMw: 0, huso: 30 };
    expect(nudosPorProvincia([demanda, { ...demanda, provincia: 'Ávila' }]).map((g) => g.provincia)).toEqual(['Ávila', 'Madrid']);
  });

  it('clears a node chosen from the other list, and says so', () => {
    expect(nudoQueNoVale('EPD-S03-66', 'generacion', 'demanda')).toMatch(
      /^Ha cambiado el tipo de solicitud: las solicitudes de consumo .* hemos quitado el nudo EPD-S03-66/,
    );
    expect(nudoQueNoVale('EPD-S03-66', 'demanda', 'generacion')).toContain('capacidad de acceso de generación');
    expect(nudoQueNoVale('EPD-S03-66', 'generacion', 'generacion')).toBeNull();
    expect(nudoQueNoVale('', 'generacion', 'demanda')).toBeNull();
  });

  it('refuses, with its own message, a node not in the demand list', () => {
    const d: DatosSolicitud = { tipo: 'demanda', nudo: 'EPD-S01-132' };
    expect(faltanParaPresentar(d, [], ['EPD-S03-66']).find((f) => f.campo === 'nudo')?.mensaje).toBe(
      'Ese nudo no está entre los que publica la distribuidora con capacidad de acceso firme de demanda: elija uno de esa lista.',
    );
    expect(faltanParaPresentar({ ...d, nudo: 'EPD-S03-66' }, [], ['EPD-S03-66']).some((f) => f.campo === 'nudo')).toBe(false);
    expect(faltanParaPresentar({ ...d, tipo: 'generacion' }, [], ['EPD-S03-66']).find((f) => f.campo === 'nudo')?.mensaje).toBe(
      'Ese nudo no está entre los que publica la distribuidora.',
    );
  });
});

describe('the form as typed and as the draft keeps it', () => {
  it('reads Spanish numbers, with thousands points only where asked', () => {
    expect(leerNumero('12,5')).toBe(12.5);
    expect(leerNumero('12.5')).toBe(12.5);
    expect(leerNumero('1.500', true)).toBe(1500);
    expect(leerNumero('1.500,25', true)).toBe(1500.25);
    expect(leerNumero('40.416')).toBe(40.416);
    expect(leerNumero('−3,7038')).toBe(-3.7038);
    expect(leerNumero('  ')).toBeUndefined();
    expect(leerNumero('doce')).toBeNull();
  });

  it('round-trips a draft through the form', () => {
    const datos: DatosSolicitud = {
      tipo: 'hibrida',
      fechaPuestaServicio: '2027-06-01',
      enNombrePropio: true,
      latitud: 40.4168,
      longitud: -3.7038,
      correspondenciaMisma: true,
      potenciaKw: 1500.5,
      tecnologia: 'fotovoltaica',
      tensionKv: 20,
      almacenamientoKw: 500,
      nudo: 'EPD-S01-20',
    };
    const f = formularioDeDatos(datos);
    expect(f.potenciaKw).toBe('1500,5');
    expect(f.enNombrePropio).toBe('si');
    expect(datosDeFormulario(f)).toEqual({ datos, errores: {} });
  });

  it('leaves empty fields out and trims the rest', () => {
    const r = datosDeFormulario({ ...vacio(), contactoNombre: '  Ana Ruiz ', municipio: '' });
    expect(r.datos).toEqual({ contactoNombre: 'Ana Ruiz' });
  });

  it('keeps out what does not apply to the answers given', () => {
    const r = datosDeFormulario({
      ...vacio(),
      tipo: 'demanda',
      tecnologia: 'eolica',
      almacenamientoKw: '100',
      enNombrePropio: 'si',
      titularNif: '12345678Z',
      correspondenciaMisma: 'si',
      correspondenciaDireccion: 'Calle Mayor 1',
    });
    expect(r.datos).toEqual({ tipo: 'demanda', enNombrePropio: true, correspondenciaMisma: true });
  });

  it('normalises the holder NIF and the cadastral reference', () => {
    const r = datosDeFormulario({
      ...vacio(),
      enNombrePropio: 'no',
      titularNif: 'b-00006031',
      referenciaCatastral: '9872023 vh5797s 0001 wx',
    });
    expect(r.datos.titularNif).toBe('B00006031');
    expect(r.datos.referenciaCatastral).toBe('9872023VH5797S0001WX');
  });

  it('reports values the draft cannot keep and saves the rest', () => {
    const r = datosDeFormulario({ ...vacio(), latitud: '50', longitud: 'oeste', potenciaKw: '0', municipio: 'Getafe' });
    expect(r.datos).toEqual({ municipio: 'Getafe' });
    expect(Object.keys(r.errores).sort()).toEqual(['latitud', 'longitud', 'potenciaKw']);
    expect(r.errores.latitud).toMatch(/entre 27 y 44/);
    expect(r.errores.longitud).toMatch(/Escriba un número/);
  });
});

describe('what is missing for filing', () => {
  const faltan: Falta[] = [
    { seccion: 'solicitud', campo: 'tipo', mensaje: 'Elija el tipo de solicitud.' },
    { seccion: 'emplazamiento', campo: 'coordenadas', mensaje: 'Indique la latitud y la longitud del emplazamiento.' },
    { seccion: 'documentos', campo: 'memoria', mensaje: 'Adjunte la memoria técnica de la instalación.' },
  ];

  it('points each item to its control', () => {
    expect(idFalta(faltan[0]!)).toBe('ac-tipo');
    expect(idFalta(faltan[1]!)).toBe('ac-latitud');
    expect(idFalta(faltan[2]!)).toBe('ac-doc-memoria');
  });

  it('groups the items by section in the form order', () => {
    const grupos = faltasPorSeccion([faltan[2]!, faltan[0]!, faltan[1]!]);
    expect(grupos.map((g) => g.titulo)).toEqual(['Datos de la solicitud', 'Emplazamiento', 'Documentos']);
    expect(grupos[2]!.errores).toEqual([{ campo: 'ac-doc-memoria', mensaje: 'Adjunte la memoria técnica de la instalación.' }]);
  });

  it('marks both coordinates when they are missing', () => {
    const m = mensajesPorControl(faltan);
    expect(m['ac-latitud']).toBe(m['ac-longitud']);
    expect(m['ac-tipo']).toBe('Elija el tipo de solicitud.');
  });

  it('tells a value typed wrong as such, in the field order', () => {
    const lectura = datosDeFormulario({ ...vacio(), latitud: '50', tensionKv: 'x' });
    const lista = paraCorregir(faltanParaPresentar(lectura.datos, [], []), lectura.errores);
    expect(lista.find((f) => f.campo === 'coordenadas')).toBeUndefined();
    expect(lista.find((f) => f.campo === 'latitud')?.mensaje).toMatch(/entre 27 y 44/);
    const emplazamiento = lista.filter((f) => f.seccion === 'emplazamiento').map((f) => f.campo);
    expect(emplazamiento).toEqual(['direccion', 'municipio', 'provincia', 'codigoPostal', 'referenciaCatastral', 'latitud']);
    expect(lista.filter((f) => f.seccion === 'instalacion').map((f) => f.campo)).toEqual(['potenciaKw', 'tensionKv']);
    expect(lista.find((f) => f.campo === 'tensionKv')?.mensaje).toMatch(/Escriba un número/);
  });

  it('drops an item once fixed and keeps what only the API found until the next attempt', () => {
    const nudo: Falta = { seccion: 'nudo', campo: 'nudo', mensaje: 'Elija el nudo.' };
    const mostradas = marcarLocales([...faltan, nudo], faltan);
    const ahora = [faltan[1]!, faltan[2]!];
    expect(faltasVigentes(mostradas, ahora).map((f) => f.campo)).toEqual(['coordenadas', 'memoria', 'nudo']);
  });

  it('reads the list of a 422 answer and ignores what is not an item', () => {
    expect(faltasDelCuerpo({ message: 'Faltan 2 datos', faltan: [faltan[0], { seccion: 'otra', campo: 'x', mensaje: 'y' }, 3] })).toEqual([
      faltan[0],
    ]);
    expect(faltasDelCuerpo({ message: 'Otra cosa' })).toBeNull();
  });
});

describe('documents', () => {
  it('refuses empty, too large and other kinds of files before sending them', () => {
    expect(problemaFichero({ name: 'a.pdf', size: 0, type: 'application/pdf' })).toMatch(/vacío/);
    expect(problemaFichero({ name: 'a.pdf', size: 21 * 1024 * 1024, type: 'application/pdf' })).toMatch(/máximo es 20 MB/);
    expect(problemaFichero({ name: 'a.docx', size: 10, type: 'application/msword' })).toBe('Solo se admiten ficheros PDF, JPEG o PNG.');
    expect(problemaFichero({ name: 'plano.PNG', size: 10, type: '' })).toBeNull();
    expect(problemaFichero({ name: 'a.pdf', size: 10, type: 'application/pdf' })).toBeNull();
  });

  it('asks the guarantee only when the request needs it, and says why not', () => {
    expect(clasesDocumentos(true).map((c) => c.clase)).toEqual(['garantia', 'memoria', 'planos', 'otro']);
    expect(clasesDocumentos(false).map((c) => c.clase)).toEqual(['memoria', 'planos', 'otro']);
    expect(sinGarantiaPorque({ tipo: 'autoconsumo', potenciaKw: 50 })).toMatch(/hasta 100 kW está exento/);
    expect(sinGarantiaPorque({ tipo: 'demanda' })).toMatch(/consumo/);
  });

  it('groups documents by the step they came with, in timeline order, pending ones last', () => {
    const eventos = [
      evento(2, 'pedir_subsanacion', '2026-11-05T10:00:00Z', { accionNombre: 'Subsanación pedida', lado: 'distribuidora' }),
      evento(1, 'presentar', '2026-11-02T10:00:00Z', { accionNombre: 'Solicitud presentada' }),
    ];
    const grupos = documentosPorEvento(eventos, [
      documento('pendiente', null, { subidoEn: '2026-11-06T08:00:00Z' }),
      documento('planos', 1, { subidoEn: '2026-11-02T09:30:00Z' }),
      documento('memoria', 1, { subidoEn: '2026-11-02T09:00:00Z' }),
      documento('requerimiento', 2, { lado: 'distribuidora' }),
    ]);
    expect(grupos.map((g) => g.titulo)).toEqual(['Solicitud presentada', 'Subsanación pedida', 'Pendientes de enviar']);
    expect(grupos[0]!.documentos.map((d) => d.id)).toEqual(['memoria', 'planos']);
    expect(grupos[0]!.detalle).toMatch(/^Usted · /);
    expect(grupos[1]!.detalle).toMatch(/^La distribuidora · /);
  });
});

describe('timeline, propuesta previa and what to do now', () => {
  it('names who took each step', () => {
    expect(textoQuien('solicitante')).toBe('Usted');
    expect(textoQuien('distribuidora')).toBe('La distribuidora');
    expect(textoQuien('sistema')).toBe('Automático');
  });

  it('orders the timeline oldest first', () => {
    const ordenados = eventosEnOrden([
      evento(3, 'b', '2026-11-05T10:00:00Z'),
      evento(1, 'a', '2026-11-02T10:00:00Z'),
      evento(2, 'c', '2026-11-05T10:00:00Z'),
    ]);
    expect(ordenados.map((e) => e.id)).toEqual([1, 2, 3]);
  });

  it('finds the last propuesta previa with its data', () => {
    const propuesta = {
      puntoConexion: 'Barra 20 kV de Getafe Norte',
      condicionesTecnicas: 'Línea de 300 m',
      importeEuros: 12500,
      plazoObrasMeses: 6,
    };
    const p = ultimaPropuesta([
      evento(1, 'enviar_propuesta', '2026-11-02T10:00:00Z', { datos: { propuesta: { ...propuesta, importeEuros: 1 } } }),
      evento(2, 'enviar_propuesta', '2026-11-09T10:00:00Z', { datos: { propuesta } }),
    ]);
    expect(p?.evento.id).toBe(2);
    expect(p?.propuesta).toEqual(propuesta);
    expect(ultimaPropuesta([evento(1, 'presentar', '2026-11-02T10:00:00Z')])).toBeNull();
  });

  it('tells the applicant what to do when asked for corrections, with the distributor message', () => {
    const q = queHacerAhora({
      paso: 'subsanacion',
      turno: 'solicitante',
      lado: 'solicitante',
      vence: '2026-12-01',
      eventos: [evento(2, 'pedir_subsanacion', '2026-11-03T10:00:00Z', { mensaje: 'Falta el plano firmado.' })],
    });
    expect(q?.titulo).toBe('Subsane su solicitud');
    expect(q?.texto).toContain('antes del 1 de diciembre de 2026');
    expect(q?.mensajeDistribuidora).toBe('Falta el plano firmado.');
  });

  it('has nothing to ask while it is the distributor turn', () => {
    expect(queHacerAhora({ paso: 'admitida', turno: 'distribuidora', lado: 'solicitante', vence: null, eventos: [] })).toBeNull();
  });

  it('lists the submitted data by section, without empty rows', () => {
    const secciones = seccionesDatos(
      { tipo: 'generacion', potenciaKw: 2500, tecnologia: 'fotovoltaica', enNombrePropio: true, nudo: 'EPD-S01-20' },
      { subestacion: 'Getafe Norte', tensionKv: 20 },
    );
    expect(secciones.map((s) => s.titulo)).toEqual(['Datos de la solicitud', 'Titular', 'Instalación', 'Nudo de conexión']);
    expect(secciones[2]!.filas).toEqual([
      { t: 'Potencia a evacuar', v: '2.500 kW (2,5 MW)' },
      { t: 'Tecnología', v: 'Solar fotovoltaica' },
    ]);
    expect(secciones[3]!.filas[0]!.v).toBe('EPD-S01-20 · Getafe Norte · 20 kV');
  });
});
