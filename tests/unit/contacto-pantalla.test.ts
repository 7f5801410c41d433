/** The query and claim screens' rules (src/lib/contacto/pantalla.ts). */
import { describe, expect, it } from 'vitest';
import {
  accionesDeGestion,
  apiRespuestaPdf,
  camposVisibles,
  comprobarGestion,
  comprobarMensaje,
  conRolYTipo,
  conTitularDeCuenta,
  datosDeConsulta,
  datosDeReclamacion,
  distribuidoraPorDefecto,
  distribuidorasContacto,
  documentosPorPaso,
  erroresConsulta,
  erroresDeFaltas,
  erroresReclamacion,
  faltasDeRespuesta,
  filasReclamacion,
  formularioConsulta,
  formularioDesdeEnlace,
  formularioReclamacion,
  hiloDe,
  listaContacto,
  mensajeGestion,
  nombreDePerfil,
  nombrePasoCola,
  OPCIONES_ROL,
  opcionesSubtipo,
  opcionesSubtipoCola,
  opcionesTipoCola,
  PASOS_COLA,
  plazoEnHabiles,
  problemaFicheroElegido,
  queHacerConsulta,
  queHacerReclamacion,
  resumenCasos,
  textoAsunto,
  textoFaseEnvio,
  textoPlazoCaso,
  textosGestion,
  textoValorCampo,
  unirErrores,
  urlCaso,
  urlReclamarInterrupcion,
  type FicheroElegido,
} from '../../src/lib/contacto/pantalla.ts';
import type { CasoContactoDetalle } from '../../src/lib/contacto/respuestas.ts';
import { construirCups } from '../../src/lib/cups.ts';

const CUPS_EPD = construirCups('9901', 1);
const CUPS_EOD = construirCups('9902', 1);
const TODOS = ['epd-contacto', 'eod-contacto', 'ecd-contacto'];

type Evento = CasoContactoDetalle['eventos'][number];
type Documento = CasoContactoDetalle['documentos'][number];

const evento = (id: number, accion: string, lado: Evento['lado'], momento: string, extra: Partial<Evento> = {}): Evento => ({
  id,
  accion,
  accionNombre: accion,
  paso: 'abierta',
  lado,
  momento,
  mensaje: null,
  datos: null,
  vence: null,
  ...extra,
});

const documento = (id: string, eventoId: number | null, lado: Documento['lado'] = 'solicitante'): Documento => ({
  id,
  clase: 'otro',
  nombre: `${id}.pdf`,
  tipoMime: 'application/pdf',
  bytes: 1000,
  lado,
  subidoEn: '2026-11-02T09:00:00.000Z',
  pendiente: eventoId === null,
  eventoId,
});

describe('addresses', () => {
  it('builds the claim link of an interruption with its peninsular days (the R1 schema takes dates), subtype 022', () => {
    const url = urlReclamarInterrupcion({
      distribuidora: 'eod',
      cups: CUPS_EOD,
      inicio: '2026-11-20T09:00:00Z',
      finPrevisto: '2026-11-20T11:30:00Z',
    });
    const q = new URL(url, 'http://x').searchParams;
    expect(url.startsWith('/contacto/nueva-reclamacion?')).toBe(true);
    expect(q.get('distribuidora')).toBe('eod');
    expect(q.get('cups')).toBe(CUPS_EOD);
    expect(q.get('desde')).toBe('2026-11-20');
    expect(q.get('hasta')).toBe('2026-11-20');
    expect(q.get('subtipo')).toBe('022');
    // Summer time: UTC+2, so 23:30 UTC is the next day in Madrid; no end yet: no `hasta`.
    const verano = new URL(
      urlReclamarInterrupcion({ distribuidora: 'epd', cups: CUPS_EPD, inicio: '2026-06-30T23:30:00Z', finPrevisto: null }),
      'http://x',
    );
    expect(verano.searchParams.get('desde')).toBe('2026-07-01');
    expect(verano.searchParams.has('hasta')).toBe(false);
  });

  it('leads each case to its screen and the answer to its PDF', () => {
    expect(urlCaso({ id: 'a b', procedimiento: 'consulta' })).toBe('/contacto/consulta/a%20b');
    expect(urlCaso({ id: 'x', procedimiento: 'reclamacion' })).toBe('/contacto/detalleReclamacion/x');
    expect(apiRespuestaPdf('x')).toBe('/api/contacto/reclamaciones/x/respuesta.pdf');
  });
});

describe('distributors and the account', () => {
  it('offers the distributors of the -contacto permissions, in the portal order', () => {
    expect(distribuidorasContacto(['eod-contacto', 'epd-contacto', 'epd-distribucion']).map((d) => d.codigo)).toEqual(['epd', 'eod']);
  });

  it('starts with the only distributor, else the one of the supply points, else none', () => {
    const dos = distribuidorasContacto(TODOS);
    expect(distribuidoraPorDefecto([{ codigo: 'ecd' }], [])).toBe('ecd');
    expect(distribuidoraPorDefecto(dos, [{ cups: CUPS_EOD, distribuidora: 'eod', direccion: 'C/ A', municipio: 'Mérida' }])).toBe('eod');
    expect(
      distribuidoraPorDefecto(dos, [
        { cups: CUPS_EOD, distribuidora: 'eod', direccion: 'C/ A', municipio: 'Mérida' },
        { cups: CUPS_EPD, distribuidora: 'epd', direccion: 'C/ B', municipio: 'Alcalá' },
      ]),
    ).toBe('epd');
    expect(distribuidoraPorDefecto(dos, [])).toBe('');
  });

  it('names the account as a holder', () => {
    expect(nombreDePerfil({ nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Ortega', razonSocial: '' })).toBe('Lucía Martín Ortega');
    expect(nombreDePerfil({ nombre: '', apellido1: '', apellido2: '', razonSocial: ' Talleres, S.L. ' })).toBe('Talleres, S.L.');
  });
});

describe('the query form', () => {
  it('keeps the right only for a data protection request, and trims', () => {
    const f = { ...formularioConsulta('epd'), tema: 'medidas' as const, derecho: 'acceso' as const, asunto: '  Hola ', mensaje: ' ¿Qué? ' };
    expect(datosDeConsulta(f)).toEqual({ tema: 'medidas', asunto: 'Hola', mensaje: '¿Qué?' });
    expect(datosDeConsulta({ ...f, tema: 'proteccion_datos' })).toMatchObject({ tema: 'proteccion_datos', derecho: 'acceso' });
  });

  it('lists what is missing on the controls, in the form order', () => {
    const e = erroresConsulta({ ...formularioConsulta(''), tema: 'proteccion_datos' }, []);
    expect(e.map((x) => x.campo)).toEqual(['co-distribuidora', 'co-derecho', 'co-asunto', 'co-mensaje']);
    expect(e[1]!.mensaje).toBe('Elija qué derecho quiere ejercer.');
  });

  it('refuses a supply point that is not the account’s there, and long texts', () => {
    const f = { ...formularioConsulta('epd'), tema: 'otro' as const, cups: CUPS_EOD, asunto: 'x'.repeat(121), mensaje: 'Hola' };
    const e = erroresConsulta(f, [CUPS_EPD]);
    expect(e.map((x) => x.campo)).toEqual(['co-cups', 'co-asunto']);
  });
});

describe('the claim form', () => {
  it('is prefilled by the interruption link: type and holder role from the subtype, invalid values ignored', () => {
    const f = formularioDesdeEnlace(
      `distribuidora=eod&cups=${CUPS_EOD.toLowerCase()}&desde=2026-11-20T10:00&hasta=mal&subtipo=022`,
      ['epd', 'eod', 'ecd'],
      '',
    );
    expect(f).toMatchObject({ distribuidora: 'eod', rol: '01', tipo: '05', subtipo: '022' });
    // A link written when these were times still gives its day.
    expect(f.campos).toEqual({ cups: CUPS_EOD, fechaDesde: '2026-11-20' });
    // A distributor not offered falls back; a subtype not offered to the role is not chosen.
    expect(formularioDesdeEnlace('distribuidora=zzz', ['epd'], 'epd').distribuidora).toBe('epd');
    expect(formularioDesdeEnlace('subtipo=015&rol=01', ['epd'], 'epd')).toMatchObject({ rol: '01', tipo: '03', subtipo: '' });
    expect(formularioDesdeEnlace('subtipo=015&rol=06', ['epd'], 'epd')).toMatchObject({ subtipo: '015' });
  });

  it('offers only the subtypes of the type for the role, as «código · nombre»', () => {
    const holder = opcionesSubtipo('05', '01');
    expect(holder.map((o) => o.valor)).toEqual(['020', '021', '022', '023', '039']);
    expect(holder[2]!.texto).toBe('022 · Sin petición de indemnización');
    expect(opcionesSubtipo('03', '01').some((o) => o.valor === '015')).toBe(false);
    expect(opcionesSubtipo('03', '06').some((o) => o.valor === '015')).toBe(true);
    expect(opcionesSubtipo('', '01')).toEqual([]);
  });

  it('drops a subtype that no longer fits the role or type, keeping what was typed', () => {
    const f = { ...formularioReclamacion('epd'), rol: '06' as const, tipo: '03' as const, subtipo: '015', campos: { cups: CUPS_EPD } };
    const g = conRolYTipo(f, { rol: '01' });
    expect(g.subtipo).toBe('');
    expect(g.campos.cups).toBe(CUPS_EPD);
    expect(conRolYTipo(f, { rol: '06' }).subtipo).toBe('015');
  });

  it('prefills a holder’s NIF and name with the account’s, never over what was typed', () => {
    const f = { ...formularioReclamacion('epd'), rol: '01' as const, campos: { nombreTitular: 'Otra' } };
    expect(conTitularDeCuenta(f, { nif: '12345678Z', nombre: 'Lucía' }).campos).toEqual({ nifTitular: '12345678Z', nombreTitular: 'Otra' });
    expect(conTitularDeCuenta({ ...f, rol: '08' }, { nif: '12345678Z', nombre: 'Lucía' }).campos).toEqual({ nombreTitular: 'Otra' });
  });

  it('asks only the fields of the subtype, each by its kind', () => {
    expect(camposVisibles('022', '01', 2).map((c) => [c.campo, c.control])).toEqual([
      ['cups', 'cups-lista'],
      ['fechaDesde', 'fecha'],
      ['fechaHasta', 'fecha'],
    ]);
    // Not a holder, or a holder with no supply point there: the CUPS is typed.
    expect(camposVisibles('022', '08', 2)[0]!.control).toBe('texto');
    expect(camposVisibles('022', '01', 0)[0]!.control).toBe('texto');
    const c004 = camposVisibles('004', '01', 1);
    expect(c004.find((c) => c.campo === 'importeReclamado')!.control).toBe('importe');
    expect(c004.find((c) => c.campo === 'telefono')!.control).toBe('tel');
    const c008 = camposVisibles('008', '01', 1).find((c) => c.campo === 'conceptoFacturado')!;
    expect(c008.control).toBe('tabla');
    expect(c008.opciones![0]).toEqual({ valor: '01', texto: 'Potencia' });
    expect(OPCIONES_ROL.map((o) => o.valor)).toEqual(['01', '02', '03', '04', '06', '07', '08', '09', '11']);
    expect(camposVisibles('036', '01', 1).find((c) => c.campo === 'fechaLectura')!.control).toBe('fecha');
    expect(camposVisibles('999', '01', 1)).toEqual([]);
  });

  it('sends only the subtype’s fields, numbers as numbers, CUPS and NIF normalised', () => {
    const f = {
      ...formularioReclamacion('epd'),
      rol: '01' as const,
      tipo: '02' as const,
      subtipo: '004',
      campos: {
        nifTitular: '12345678z',
        nombreTitular: ' Lucía ',
        telefono: '600123123',
        cups: CUPS_EPD.toLowerCase(),
        fechaIncidente: '2026-11-20',
        importeReclamado: '120,50',
        numeroFactura: 'NO VIAJA',
      },
      mensaje: ' Se quemó la nevera. ',
    };
    expect(datosDeReclamacion(f)).toEqual({
      rol: '01',
      tipo: '02',
      subtipo: '004',
      campos: {
        nifTitular: '12345678Z',
        nombreTitular: 'Lucía',
        telefono: '600123123',
        cups: CUPS_EPD,
        fechaIncidente: '2026-11-20',
        importeReclamado: 120.5,
      },
      mensaje: 'Se quemó la nevera.',
    });
  });

  it('checks each field with the server’s check, in the form order', () => {
    const base = { ...formularioReclamacion('epd'), rol: '01' as const, tipo: '05' as const, subtipo: '022', mensaje: 'Corte' };
    const e = erroresReclamacion({ ...base, campos: { cups: CUPS_EPD, fechaDesde: '2026-11-21', fechaHasta: '2026-11-20' } }, [CUPS_EPD]);
    expect(e).toEqual([{ campo: 'rc-fechaHasta', mensaje: 'La fecha final es anterior a la inicial.' }]);
    // A CUPS of another distributor, and a holder's CUPS that is not theirs.
    const otra = erroresReclamacion({ ...base, campos: { cups: CUPS_EOD, fechaDesde: '2026-11-20', fechaHasta: '2026-11-20' } }, [
      CUPS_EPD,
    ]);
    expect(otra[0]!.mensaje).toBe('El CUPS no es de esta distribuidora (sus CUPS empiezan por ES9901).');
    const ajeno = erroresReclamacion(
      { ...base, campos: { cups: construirCups('9901', 7), fechaDesde: '2026-11-20', fechaHasta: '2026-11-20' } },
      [CUPS_EPD],
    );
    expect(ajeno[0]!.mensaje).toBe('Como titular, elija uno de sus suministros en esta distribuidora.');
    // Everything missing: distributor, role, type, subtype, description.
    expect(erroresReclamacion(formularioReclamacion(''), []).map((x) => x.campo)).toEqual([
      'rc-distribuidora',
      'rc-rol',
      'rc-tipo',
      'rc-subtipo',
      'rc-mensaje',
    ]);
    const importe = erroresReclamacion(
      {
        ...base,
        tipo: '05',
        subtipo: '021',
        campos: { cups: CUPS_EPD, fechaDesde: '2026-11-20', fechaHasta: '2026-11-20', importeReclamado: '-3' },
      },
      [CUPS_EPD],
    );
    expect(importe).toEqual([{ campo: 'rc-importeReclamado', mensaje: 'Escriba un número sin signo menos.' }]);
  });

  it('reads amounts and readings the Spanish way: 12.345 kWh is twelve thousand, 120,50 € one hundred and twenty', () => {
    const f = {
      ...formularioReclamacion('epd'),
      rol: '01' as const,
      tipo: '02' as const,
      subtipo: '036',
      campos: { lectura: '12.345' },
    };
    expect(datosDeReclamacion(f).campos?.lectura).toBe(12345);
    const c021 = { ...f, tipo: '05' as const, subtipo: '021', campos: { importeReclamado: '1.234,5' } };
    expect(datosDeReclamacion(c021).campos?.importeReclamado).toBe(1234.5);
  });

  it('refuses a number that reads two ways, saying how to write it', () => {
    const f = { ...formularioReclamacion('epd'), rol: '01' as const, tipo: '02' as const, subtipo: '036', mensaje: 'x' };
    const lectura = erroresReclamacion({ ...f, campos: { lectura: '1,234' } }, []).find((e) => e.campo === 'rc-lectura');
    expect(lectura?.mensaje).toMatch(/dos maneras.*1\.234/);
    const importe = erroresReclamacion({ ...f, tipo: '05', subtipo: '021', campos: { importeReclamado: '12.34' } }, []).find(
      (e) => e.campo === 'rc-importeReclamado',
    );
    expect(importe?.mensaje).toMatch(/12,34/);
  });

  it('a saved draft gives its numbers back as the field reads them', () => {
    const f = formularioReclamacion('epd', { subtipo: '021', campos: { importeReclamado: 1234.5, lectura: 12345 } });
    expect(f.campos).toEqual({ importeReclamado: '1.234,5', lectura: '12.345' });
  });

  it('merges the server’s refusals after the browser’s, once per control', () => {
    const s = erroresDeFaltas('reclamacion', [
      { campo: 'cups', mensaje: 'A' },
      { campo: 'cups', mensaje: 'B' },
      { campo: 'mensaje', mensaje: 'C' },
    ]);
    expect(s).toEqual([
      { campo: 'rc-cups', mensaje: 'A' },
      { campo: 'rc-mensaje', mensaje: 'C' },
    ]);
    expect(unirErrores([{ campo: 'rc-cups', mensaje: 'local' }], s)).toEqual([
      { campo: 'rc-cups', mensaje: 'local' },
      { campo: 'rc-mensaje', mensaje: 'C' },
    ]);
    expect(faltasDeRespuesta({ message: 'x', faltan: [{ campo: 'tema', mensaje: 'y' }, { nada: 1 }] })).toEqual([
      { campo: 'tema', mensaje: 'y' },
    ]);
    expect(faltasDeRespuesta('x')).toBeNull();
  });

  it('checks a chosen file before it goes, and a file chosen twice', () => {
    const pdf = { name: 'a.pdf', size: 10, type: 'application/pdf' };
    const ya: FicheroElegido[] = [{ clave: 'f1', fichero: pdf, clase: 'otro', subidoA: null, documento: null }];
    expect(problemaFicheroElegido(pdf, [])).toBeNull();
    expect(problemaFicheroElegido(pdf, ya)).toBe('Ese fichero ya está en la lista.');
    expect(problemaFicheroElegido({ name: 'a.txt', size: 3, type: 'text/plain' }, [])).toBe('Solo se admiten ficheros PDF, JPEG o PNG.');
    expect(textoFaseEnvio({ fase: 'subiendo', numero: 1, total: 2, nombre: 'a.pdf', enviados: 0, bytes: 10 })).toBe(
      'Enviando el documento 1 de 2, «a.pdf»…',
    );
  });
});

describe('lists and deadlines', () => {
  const caso = {
    procedimiento: 'reclamacion' as const,
    paso: 'presentada',
    vence: '2026-11-09',
    vencido: false,
    turno: 'distribuidora' as const,
    distribuidora: 'eod',
  };

  it('counts the business days left on the calendar of the distributor, as the server counted the deadline', () => {
    // Friday 4 to Thursday 10 December 2026: 7 December is a holiday in Madrid (EPD), 8 December a national one.
    const epd = { ...caso, distribuidora: 'epd', vence: '2026-12-10' };
    expect(textoPlazoCaso(epd, '2026-12-04')!.texto).toBe('Hasta el 10 de diciembre de 2026 (quedan 2 días hábiles)');
  });

  it('counts business days while the distributor studies a claim, calendar days otherwise', () => {
    expect(plazoEnHabiles('reclamacion', 'aceptada')).toBe(true);
    expect(plazoEnHabiles('reclamacion', 'informacion_pedida')).toBe(false);
    expect(plazoEnHabiles('consulta', 'abierta')).toBe(false);
    // Tuesday 3 to Monday 9 November 2026: 4 business days, 6 calendar days.
    expect(textoPlazoCaso(caso, '2026-11-03')!.texto).toBe('Hasta el 9 de noviembre de 2026 (quedan 4 días hábiles)');
    expect(textoPlazoCaso({ ...caso, paso: 'informacion_pedida', turno: 'solicitante' }, '2026-11-03')!.resto).toBe('Quedan 6 días');
    expect(textoPlazoCaso(caso, '2026-11-09')!.resto).toBe('Vence hoy');
    expect(textoPlazoCaso({ ...caso, vencido: true }, '2026-11-03')).toMatchObject({ vencido: true, resto: null });
    // No deadline, or nobody's turn.
    expect(textoPlazoCaso({ ...caso, vence: null }, '2026-11-03')).toBeNull();
    expect(textoPlazoCaso({ ...caso, turno: null }, '2026-11-03')).toBeNull();
  });

  it('sums up the list and names what each case is about', () => {
    expect(resumenCasos([{ turno: 'solicitante' }, { turno: null }], 'reclamacion')).toBe('Tiene 2 reclamaciones. En 1 le toca actuar.');
    expect(resumenCasos([{ turno: 'distribuidora' }], 'consulta')).toBe('Tiene 1 consulta. En ninguna le toca actuar.');
    expect(textoAsunto({ procedimiento: 'reclamacion', asunto: '', subtipo: '022' })).toBe('022 · Sin petición de indemnización');
    expect(textoAsunto({ procedimiento: 'consulta', asunto: '', subtipo: null })).toBe('Sin asunto todavía');
  });
});

describe('the detail', () => {
  it('writes a claim’s fields by their labels, codes by name', () => {
    const filas = filasReclamacion({
      rol: '01',
      tipo: '02',
      subtipo: '008',
      campos: { nifTitular: '12345678Z', nombreTitular: 'Lucía', cups: CUPS_EPD, numeroFactura: 'F1', conceptoFacturado: '01' },
    });
    expect(filas.slice(0, 3)).toEqual([
      { t: 'Reclama como', v: 'Titular del punto de suministro o usuario efectivo' },
      { t: 'Tipo', v: '02 · Facturación y medida' },
      { t: 'Subtipo', v: '008 · Disconformidad con conceptos facturados' },
    ]);
    expect(filas.at(-1)).toEqual({ t: 'Concepto facturado con el que no está conforme', v: 'Potencia' });
    expect(textoValorCampo('fechaDesde', '2026-11-20T10:00')).toBe('20 de noviembre de 2026, 10:00');
    expect(textoValorCampo('importeReclamado', 1234.5)).toBe('1.234,50 €');
    expect(textoValorCampo('cups', undefined)).toBe('No indicado');
  });

  it('threads the steps oldest first, with the sending carrying the text, and groups the documents', () => {
    const eventos = [
      evento(2, 'responder', 'distribuidora', '2026-11-03T10:00:00Z', {
        mensaje: 'Respuesta',
        accionNombre: 'Respuesta de la distribuidora',
      }),
      evento(1, 'presentar', 'solicitante', '2026-11-02T10:00:00Z', { accionNombre: 'Consulta enviada' }),
    ];
    const docs = [documento('a', 1), documento('b', 2, 'distribuidora'), documento('c', null)];
    const hilo = hiloDe(eventos, docs, 'solicitante', 'Mi pregunta');
    expect(hilo.map((e) => [e.quien, e.titulo, e.mensaje])).toEqual([
      ['Usted', 'Consulta enviada', 'Mi pregunta'],
      ['La distribuidora', 'Respuesta de la distribuidora', 'Respuesta'],
    ]);
    expect(hilo[0]!.documentos.map((d) => d.id)).toEqual(['a']);
    expect(hiloDe(eventos, docs, 'distribuidora')[0]!.quien).toBe('El solicitante');
    const grupos = documentosPorPaso(eventos, docs, 'solicitante');
    expect(grupos.map((g) => g.clave)).toEqual(['evento-1', 'evento-2', 'pendientes']);
  });

  it('tells the claimant what to do now and by when', () => {
    const pedida = queHacerReclamacion({
      paso: 'informacion_pedida',
      vence: '2026-11-23',
      resultado: null,
      eventos: [evento(3, 'pedir_informacion', 'distribuidora', '2026-11-03T10:00:00Z', { mensaje: '¿Saltó el interruptor?' })],
    })!;
    expect(pedida.titulo).toBe('Envíe la información que le pide la distribuidora');
    expect(pedida.texto).toContain('antes del 23 de noviembre de 2026');
    expect(pedida.mensajeDistribuidora).toBe('¿Saltó el interruptor?');
    expect(
      queHacerReclamacion({ paso: 'cerrada', vence: null, eventos: [], resultado: { codigo: '02', nombre: 'Improcedente' } })!.texto,
    ).toContain('«Improcedente»');
    expect(queHacerConsulta({ paso: 'respondida', vence: null })!.titulo).toBe('La distribuidora le ha respondido');
    expect(queHacerConsulta({ paso: 'borrador', vence: null })).toBeNull();
  });

  it('checks a message: required or not, at most 4000 characters', () => {
    expect(comprobarMensaje('  ', 'Escriba.')).toEqual({ ok: false, error: 'Escriba.' });
    expect(comprobarMensaje('  ', null)).toEqual({ ok: true, mensaje: '' });
    expect(comprobarMensaje('x'.repeat(4001), null).ok).toBe(false);
  });
});

describe('the staff queue and actions', () => {
  it('reads the filters from the address and writes the API call', () => {
    const d = listaContacto(['epd', 'eod']);
    const f = d.desdeConsulta('distribuidora=eod&procedimiento=reclamacion&tipo=05&subtipo=022&paso=aceptada&vencidas=si&pagina=2');
    expect(f).toMatchObject({
      distribuidora: 'eod',
      procedimiento: 'reclamacion',
      tipo: '05',
      subtipo: '022',
      paso: 'aceptada',
      vencidas: 'si',
      pagina: 2,
    });
    expect(d.url(f)).toBe(
      '/api/administrador/contacto?distribuidora=eod&procedimiento=reclamacion&tipo=05&subtipo=022&paso=aceptada&vencidas=true&pagina=2&porPagina=25',
    );
    // The first distributor is the default; a topic is not a claim type; a query has no subtype; junk is ignored.
    const g = d.desdeConsulta('distribuidora=epd&procedimiento=reclamacion&tipo=medidas&paso=borrador&distribuidora=ecd');
    expect(g).toMatchObject({ distribuidora: '', tipo: '', paso: '' });
    expect(d.url(g)).toContain('distribuidora=epd');
    expect(d.desdeConsulta('procedimiento=consulta&tipo=medidas&subtipo=022')).toMatchObject({ tipo: 'medidas', subtipo: '' });
  });

  it('names the steps and offers types and subtypes by procedure', () => {
    expect(PASOS_COLA).not.toContain('borrador');
    expect(nombrePasoCola('abierta')).toBe('Consulta: Pendiente de respuesta');
    expect(nombrePasoCola('informacion_pedida')).toBe('Reclamación: Información pedida al reclamante');
    expect(nombrePasoCola('cerrada')).toBe('Cerrada');
    expect(opcionesTipoCola('consulta').every((o) => o.texto.startsWith('Consulta: '))).toBe(true);
    expect(opcionesTipoCola('').length).toBe(13);
    expect(opcionesSubtipoCola('05').map((o) => o.valor)).toEqual(['020', '021', '022', '023', '039']);
  });

  it('offers the staff actions of the detail, in order, and checks their forms', () => {
    expect(accionesDeGestion({ lado: 'distribuidora', acciones: ['cerrar', 'pedir_informacion'] })).toEqual([
      'pedir_informacion',
      'cerrar',
    ]);
    expect(accionesDeGestion({ lado: 'solicitante', acciones: ['desistir'] })).toEqual([]);
    expect(comprobarGestion('reclamacion', 'cerrar', { mensaje: '', resultado: '' })).toEqual({
      ok: false,
      errores: [
        { campo: 'resultado', mensaje: 'Elija el resultado de la reclamación.' },
        { campo: 'mensaje', mensaje: 'Escriba la respuesta al reclamante.' },
      ],
    });
    expect(comprobarGestion('reclamacion', 'cerrar', { mensaje: ' Procede. ', resultado: '01' })).toEqual({
      ok: true,
      cuerpo: { resultado: '01', mensaje: 'Procede.' },
    });
    expect(comprobarGestion('reclamacion', 'aceptar', { mensaje: '', resultado: '' })).toEqual({ ok: true, cuerpo: {} });
    expect(textosGestion('consulta', 'cerrar', 'CO-2026-000001').confirmacion!.titulo).toBe('Cerrar la consulta CO-2026-000001');
    expect(textosGestion('reclamacion', 'pedir_informacion', 'x').confirmacion).toBeNull();
    expect(
      mensajeGestion('reclamacion', 'pedir_informacion', {
        referencia: 'RC-2026-000001',
        pasoNombre: 'Información pedida',
        turno: 'solicitante',
      }),
    ).toBe(
      'Información adicional pedida. RC-2026-000001 está ahora en «Información pedida». Ahora le toca al solicitante; se le ha avisado por correo.',
    );
  });
});
