/**
 * The draft of an access and connection request: the form's sections as fieldsets (docs/sector.md
 * §8, the sections distributors' forms have), saved as the user goes (a second after the last change
 * and when a field is left; what is pending goes out as the page closes), the documents uploaded as
 * they are chosen, and the filing: the same check the API runs, an error summary grouped by section
 * whose links focus each field, and a confirmation.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type FormEvent } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import {
  apiNudos,
  apiSolicitud,
  avisoCapacidad,
  clasesDocumentos,
  conAlmacenamiento,
  datosDeFormulario,
  etiquetaDisponible,
  etiquetaPotencia,
  faltasDelCuerpo,
  faltasPorSeccion,
  faltasVigentes,
  formularioDeDatos,
  horaMadrid,
  idCampo,
  idDocumento,
  kwAMw,
  listaNudosDe,
  marcarLocales,
  mensajesPorControl,
  nudoQueNoVale,
  nudosPorProvincia,
  OPCIONES_TECNOLOGIA,
  OPCIONES_TIPO,
  paginaNudos,
  paraCorregir,
  RUTA_SOLICITUDES,
  sinGarantiaPorque,
  textoCapacidadLista,
  textoMw,
  textoNudo,
  type CampoFormulario,
  type FaltaMostrada,
  type FormularioAcceso,
  type ListaNudos,
  type NudoElegible,
} from '../../../lib/accesoyconexion/pantalla.ts';
import type { SolicitudDetalle } from '../../../lib/accesoyconexion/respuestas.ts';
import { esInyeccion, faltanParaPresentar, necesitaGarantia, sinPermisoNecesario } from '../../../lib/accesoyconexion/solicitud.ts';
import type { CapacidadDemandaRespuesta, CapacidadNodalRespuesta } from '../../../lib/capacidad-nodal/respuestas.ts';
import { DISTRIBUIDORAS } from '../../../lib/distribuidoras.ts';
import type { ClaseDocumento } from '../../../lib/expedientes/documentos.ts';
import { nombreMes } from '../../../lib/formato/fechas.ts';
import { numeroHasta } from '../../../lib/formato/numeros.ts';
import { navegar } from '../../../lib/privado/navegacion.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import { Confirmacion } from '../administracion/comun.tsx';
import { Entrada, Opciones, Seleccion } from '../expedientes/campos.tsx';
import { ListaDocumentos, SubidaDocumento } from '../expedientes/documentos.tsx';
import { $avisoSolicitudes, ResumenFaltas } from './comun.tsx';
import { urlApi } from '../../../lib/api/rutas.ts';

/** Props of `Borrador`. */
export interface BorradorProps {
  detalle: SolicitudDetalle;
  /** Replaces the request with an answer of the API. */
  poner: (d: SolicitudDetalle) => void;
  /** Reloads the request (after a document was added or removed). */
  refrescar: () => Promise<void>;
  /** The request was filed. */
  alPresentar: (d: SolicitudDetalle) => void;
}

type EstadoGuardado = { fase: 'inicial' } | { fase: 'guardando' } | { fase: 'guardado'; hora: string } | { fase: 'error'; mensaje: string };

/** A published node as the select and the chosen node's data show it, from either list. */
type NudoMostrado = NudoElegible & { comentario: string | null };

type Nudos =
  | { fase: 'cargando' }
  | { fase: 'lista'; nudos: NudoMostrado[]; publicacion: string }
  | { fase: 'ninguno' }
  | { fase: 'error'; mensaje: string };

/**
 * The nodes a distributor publishes in one list (GET /api/capacidadNodal/{d}, or …/demanda for the
 * firm demand capacity); a 404 or an empty list means none.
 */
function useNudos(distribuidora: string, lista: ListaNudos): [Nudos, () => void] {
  const [nudos, setNudos] = useState<Nudos>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    const peticion = new AbortController();
    setNudos({ fase: 'cargando' });
    void apiFetch<CapacidadNodalRespuesta | CapacidadDemandaRespuesta>(apiNudos(distribuidora, lista), { signal: peticion.signal }).then(
      (r) => {
        if (peticion.signal.aborted) return;
        if (!r.ok) {
          setNudos(r.status === 404 ? { fase: 'ninguno' } : { fase: 'error', mensaje: r.error.mensaje });
          return;
        }
        // The harmonised demand format calls the distributor's note «Comentario Regulatorio».
        const filas: NudoMostrado[] = r.datos.nudos.map((n) => ({
          ...n,
          comentario: 'comentarioRegulatorio' in n ? n.comentarioRegulatorio : n.comentario,
        }));
        setNudos(filas.length ? { fase: 'lista', nudos: filas, publicacion: r.datos.publicacion } : { fase: 'ninguno' });
      },
    );
    return () => peticion.abort();
  }, [distribuidora, lista, intento]);
  return [nudos, useCallback(() => setIntento((n) => n + 1), [])];
}

const JSON_CABECERA = { 'Content-Type': 'application/json' };

/** The field a control's id belongs to (`ac-latitud` → `latitud`); null for other controls. */
function campoDeId(id: string, f: FormularioAcceso): CampoFormulario | null {
  const c = id.replace(/^ac-/, '');
  return c in f ? (c as CampoFormulario) : null;
}

/** The draft form. */
export function Borrador({ detalle, poner, refrescar, alPresentar }: BorradorProps) {
  const id = detalle.id;
  const [f, setF] = useState<FormularioAcceso>(() => formularioDeDatos(detalle.datos));
  const lectura = useMemo(() => datosDeFormulario(f), [f]);
  const d = lectura.datos;
  const json = JSON.stringify(d);
  const listaNudos = listaNudosDe(f.tipo);
  const [nudos, reintentarNudos] = useNudos(detalle.distribuidora, listaNudos);
  // Why the node was cleared, when a change of kind moved the request to the other list of nodes.
  const [nudoQuitado, setNudoQuitado] = useState<string | null>(null);
  const [guardado, setGuardado] = useState<EstadoGuardado>({ fase: 'inicial' });
  const [tocados, setTocados] = useState<ReadonlySet<string>>(new Set());
  const [faltas, setFaltas] = useState<FaltaMostrada[]>([]);
  const [intento, setIntento] = useState(0);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [preguntar, setPreguntar] = useState<'presentar' | 'borrar' | null>(null);
  const [presentando, setPresentando] = useState(false);

  // What the server holds, what the form holds now, and the saves in line (one at a time, in order).
  const guardadoJson = useRef(JSON.stringify(datosDeFormulario(formularioDeDatos(detalle.datos)).datos));
  const actual = useRef(json);
  const cola = useRef<Promise<boolean>>(Promise.resolve(true));
  const montado = useRef(true);
  const borrado = useRef(false);
  useEffect(() => {
    actual.current = json;
  }, [json]);

  const guardar = useCallback((): Promise<boolean> => {
    cola.current = cola.current.then(async () => {
      const cuerpo = actual.current;
      if (cuerpo === guardadoJson.current || borrado.current) return true;
      if (montado.current) setGuardado({ fase: 'guardando' });
      const r = await apiFetch<SolicitudDetalle>(apiSolicitud(id), { method: 'PUT', body: cuerpo, headers: JSON_CABECERA });
      if (r.ok) {
        guardadoJson.current = cuerpo;
        if (montado.current) {
          setGuardado({ fase: 'guardado', hora: horaMadrid(Date.now()) });
          poner(r.datos);
        }
        return true;
      }
      if (montado.current) {
        setGuardado({ fase: 'error', mensaje: r.error.mensaje });
        // No longer a draft (filed elsewhere) or gone: show what it is now.
        if (r.status === 409 || r.status === 404) void refrescar();
      }
      return false;
    });
    return cola.current;
  }, [id, poner, refrescar]);

  // A second after the last change.
  useEffect(() => {
    if (json === guardadoJson.current) return;
    const t = setTimeout(() => void guardar(), 1000);
    return () => clearTimeout(t);
  }, [json, guardar]);

  // Leaving the screen or the page with changes not saved yet: they go out anyway (keepalive outlives the page).
  useEffect(() => {
    montado.current = true;
    const alSalir = () => {
      if (borrado.current || actual.current === guardadoJson.current) return;
      void apiFetch(apiSolicitud(id), { method: 'PUT', body: actual.current, headers: JSON_CABECERA, keepalive: true });
    };
    window.addEventListener('pagehide', alSalir);
    return () => {
      montado.current = false;
      window.removeEventListener('pagehide', alSalir);
      alSalir();
    };
  }, [id]);

  const alDejarCampo = (ev: FocusEvent<HTMLFormElement>) => {
    const c = campoDeId(ev.target.id, f);
    if (c && !tocados.has(c)) setTocados((t) => new Set(t).add(c));
    if (actual.current !== guardadoJson.current) void guardar();
  };

  // The check of the API, on what the form holds now (documents and published nodes included).
  const clases = detalle.documentos.map((x) => x.clase);
  // While the published nodes are still loading the node counts as required (a chosen one as valid):
  // the summary must never leave it out only because the list had not arrived; the server checks again.
  const idsNudos = nudos.fase === 'lista' ? nudos.nudos.map((n) => n.nudo) : nudos.fase === 'cargando' ? [d.nudo ?? ''] : [];
  const ahora = paraCorregir(faltanParaPresentar(d, clases, idsNudos), lectura.errores);
  const vigentes = faltasVigentes(faltas, ahora);
  const mensajes = mensajesPorControl(vigentes);
  const error = (c: CampoFormulario) => (tocados.has(c) ? lectura.errores[c] : undefined) ?? mensajes[idCampo(c)];
  const campo = (c: CampoFormulario) => ({
    id: idCampo(c),
    valor: f[c],
    alCambiar: (v: string) => {
      if (c === 'nudo') setNudoQuitado(null);
      setF((x) => ({ ...x, [c]: v }));
    },
    error: error(c),
  });
  // Demand and generation nodes are separate publications: a node from the other list never stays silently.
  const cambiarTipo = (v: string) => {
    const tipo = v as FormularioAcceso['tipo'];
    const quitado = nudoQueNoVale(f.nudo, listaNudosDe(f.tipo), listaNudosDe(tipo));
    setNudoQuitado(quitado);
    setF((x) => ({ ...x, tipo, ...(quitado ? { nudo: '' } : {}) }));
  };
  const docs = (clase: ClaseDocumento) => detalle.documentos.filter((x) => x.pendiente && x.clase === clase);

  const presentarSiCompleta = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (presentando) return;
    setAlertas([]);
    if (ahora.length > 0) {
      setFaltas(marcarLocales(ahora, ahora));
      setTocados(new Set(Object.keys(f)));
      setIntento((n) => n + 1);
      return;
    }
    setPreguntar('presentar');
  };

  const presentar = async () => {
    setPreguntar(null);
    setPresentando(true);
    const ok = await guardar();
    if (!ok) {
      setPresentando(false);
      setAlertas(alertasDe(['No hemos podido guardar los últimos cambios, así que no hemos presentado la solicitud. Inténtelo de nuevo.']));
      return;
    }
    const r = await apiFetch<SolicitudDetalle>(
      urlApi('/accesoyconexion/solicitudes/{id}/{accion}', { path: { id, accion: 'presentar' } }),
      { method: 'POST', json: {} },
    );
    if (!montado.current) return;
    setPresentando(false);
    if (r.ok) {
      alPresentar(r.datos);
      return;
    }
    if (r.status === 422) {
      let lista = faltasDelCuerpo(r.error.cuerpo);
      if (!lista) {
        const g = await apiFetch<SolicitudDetalle>(apiSolicitud(id));
        if (g.ok) {
          poner(g.datos);
          lista = faltasDelCuerpo(g.datos);
        }
      }
      if (lista && lista.length > 0) {
        setFaltas(marcarLocales(paraCorregir(lista, lectura.errores), ahora));
        setIntento((n) => n + 1);
        return;
      }
    }
    setAlertas(alertasDe(mensajesDeError(r.error)));
  };

  const borrar = async () => {
    setPreguntar(null);
    borrado.current = true;
    const r = await apiFetch(apiSolicitud(id), { method: 'DELETE' });
    if (r.ok) {
      $avisoSolicitudes.set(`Hemos borrado el borrador ${detalle.referencia} y sus documentos.`);
      navegar(RUTA_SOLICITUDES);
      return;
    }
    borrado.current = false;
    setAlertas(alertasDe(mensajesDeError(r.error)));
  };

  const nombreDistribuidora = detalle.distribuidoraNombre;
  const paginaCapacidad = DISTRIBUIDORAS.find((x) => x.codigo === detalle.distribuidora)?.paginaCapacidadNodal ?? null;
  const garantia = necesitaGarantia(d);
  const sinPermiso = sinPermisoNecesario(d);
  const inyeccion = esInyeccion(d);
  const elegido = nudos.fase === 'lista' ? nudos.nudos.find((n) => n.nudo === f.nudo) : undefined;
  const aviso = elegido ? avisoCapacidad(d.potenciaKw, elegido.disponibleMw, listaNudos) : null;
  const mostradas = new Set<string>(['autorizacion', ...clasesDocumentos(garantia).map((c) => c.clase)]);
  const otros = detalle.documentos.filter(
    (x) => x.pendiente && (!mostradas.has(x.clase) || (x.clase === 'autorizacion' && f.enNombrePropio !== 'no')),
  );
  const hayErroresFormato = Object.keys(lectura.errores).length > 0;

  const textoGuardado =
    guardado.fase === 'guardando'
      ? 'Guardando…'
      : guardado.fase === 'guardado'
        ? `Guardado a las ${guardado.hora}.${hayErroresFormato ? ' Los campos con errores no se guardan hasta que los corrija.' : ''}`
        : guardado.fase === 'error'
          ? `No se han guardado los últimos cambios: ${guardado.mensaje}`
          : 'Los cambios se guardan solos mientras escribe.';

  return (
    <>
      <section className="med-panel ac-cabecera" aria-labelledby="ac-borrador-titulo">
        <h2 id="ac-borrador-titulo" className="med-detalle__titulo">
          Borrador {detalle.referencia}
        </h2>
        <dl className="med-datos">
          <Dato t="Distribuidora">{nombreDistribuidora}</Dato>
          <Dato t="Paso">No presentada: la distribuidora no la verá hasta que la presente.</Dato>
        </dl>
        <div className={`ac-guardado${guardado.fase === 'error' ? ' ac-guardado--error' : ''}`}>
          <p role="status">{textoGuardado}</p>
          {guardado.fase === 'error' && (
            <button type="button" className="priv-boton priv-boton--secundario" onClick={() => void guardar()}>
              Guardar de nuevo
            </button>
          )}
        </div>
        <p className="med-nota-linea">
          Todos los campos son necesarios para presentar la solicitud, salvo los marcados como opcionales. Puede rellenarlos en el orden que
          quiera y volver otro día.
        </p>
      </section>

      <ResumenFaltas titulo="Para presentar la solicitud falta lo siguiente:" secciones={faltasPorSeccion(vigentes)} intento={intento} />
      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} etiqueta="Avisos de la solicitud" />

      <form
        className="ac-formulario"
        noValidate
        onSubmit={presentarSiCompleta}
        onBlur={alDejarCampo}
        aria-label={`Borrador ${detalle.referencia}`}
      >
        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Datos de la solicitud</h2>
          </legend>
          <Seleccion
            {...campo('tipo')}
            alCambiar={cambiarTipo}
            etiqueta="Tipo de solicitud"
            vacio="Elija el tipo"
            opciones={OPCIONES_TIPO}
            ayuda="Autoconsumo con excedentes: la instalación vierte a la red lo que no consume. El autoconsumo sin excedentes no necesita este permiso."
          />
          <Entrada {...campo('fechaPuestaServicio')} etiqueta="Fecha prevista de puesta en servicio" tipo="date" corto />
          <div className="ac-fila">
            <Entrada
              {...campo('contactoNombre')}
              etiqueta="Persona de contacto"
              ayuda="A quién llamará la distribuidora si tiene dudas."
              autoComplete="name"
              max={120}
            />
            <Entrada
              {...campo('contactoTelefono')}
              etiqueta="Teléfono de contacto"
              ayuda="De 9 a 15 cifras; con prefijo si no es español."
              tipo="tel"
              inputMode="tel"
              autoComplete="tel"
              max={20}
            />
          </div>
        </fieldset>

        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Titular</h2>
          </legend>
          <Opciones
            id={idCampo('enNombrePropio')}
            leyenda="¿En nombre de quién solicita?"
            ayuda="El titular es quien recibirá los permisos de acceso y conexión."
            opciones={[
              { valor: 'si', texto: detalle.solicitante ? `En mi nombre (${detalle.solicitante})` : 'En mi nombre' },
              { valor: 'no', texto: 'En nombre de otro titular' },
            ]}
            valor={f.enNombrePropio}
            alCambiar={(v) => setF((x) => ({ ...x, enNombrePropio: v }))}
            error={error('enNombrePropio')}
          />
          {f.enNombrePropio === 'no' && (
            <>
              <div className="ac-fila">
                <Entrada {...campo('titularNif')} etiqueta="NIF, NIE o CIF del titular" max={12} mayusculas corto />
                <Entrada {...campo('titularNombre')} etiqueta="Nombre y apellidos o razón social del titular" max={160} />
              </div>
              <SubidaDocumento
                id={idDocumento('autorizacion')}
                expediente={id}
                clase="autorizacion"
                ayuda="El documento firmado en el que el titular le autoriza a pedir el acceso en su nombre."
                documentos={docs('autorizacion')}
                error={mensajes[idDocumento('autorizacion')]}
                alCambiar={refrescar}
              />
            </>
          )}
        </fieldset>

        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Emplazamiento</h2>
          </legend>
          <Entrada {...campo('direccion')} etiqueta="Dirección" ayuda="Calle y número, o polígono y parcela." max={200} />
          <div className="ac-fila">
            <Entrada {...campo('municipio')} etiqueta="Municipio" max={80} />
            <Entrada {...campo('provincia')} etiqueta="Provincia" max={60} />
            <Entrada {...campo('codigoPostal')} etiqueta="Código postal" inputMode="numeric" max={5} corto />
          </div>
          <Entrada
            {...campo('referenciaCatastral')}
            etiqueta="Referencia catastral"
            ayuda="20 letras y cifras. Está en la Sede Electrónica del Catastro y en el recibo del IBI."
            max={24}
            mayusculas
          />
          <fieldset className="mod-grupo ac-coordenadas" aria-describedby="ac-coordenadas-ayuda">
            <legend>Coordenadas del emplazamiento</legend>
            <p id="ac-coordenadas-ayuda" className="admin-campo__ayuda">
              En grados decimales, por ejemplo 40,4168 de latitud y −3,7038 de longitud (negativa al oeste de Greenwich). Puede copiarlas de
              un visor de mapas.
            </p>
            <div className="ac-fila">
              <Entrada {...campo('latitud')} etiqueta="Latitud" inputMode="decimal" max={20} corto />
              <Entrada {...campo('longitud')} etiqueta="Longitud" max={20} corto />
            </div>
          </fieldset>
          <Opciones
            id={idCampo('sueloUrbanizado')}
            leyenda="¿Está en suelo urbanizado? (opcional)"
            ayuda="Sirve para saber si una instalación pequeña de autoconsumo necesita este permiso."
            opciones={[
              { valor: 'si', texto: 'Sí' },
              { valor: 'no', texto: 'No' },
            ]}
            valor={f.sueloUrbanizado}
            alCambiar={(v) => setF((x) => ({ ...x, sueloUrbanizado: v }))}
            error={error('sueloUrbanizado')}
          />
        </fieldset>

        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Dirección de correspondencia</h2>
          </legend>
          <Opciones
            id={idCampo('correspondenciaMisma')}
            leyenda="¿A qué dirección le escribimos por correo postal?"
            opciones={[
              { valor: 'si', texto: 'La misma del emplazamiento' },
              { valor: 'no', texto: 'Otra dirección' },
            ]}
            valor={f.correspondenciaMisma}
            alCambiar={(v) => setF((x) => ({ ...x, correspondenciaMisma: v }))}
            error={error('correspondenciaMisma')}
          />
          {f.correspondenciaMisma === 'no' && (
            <Entrada
              {...campo('correspondenciaDireccion')}
              etiqueta="Dirección de correspondencia"
              ayuda="Calle y número, código postal, municipio y provincia."
              autoComplete="street-address"
              max={300}
            />
          )}
        </fieldset>

        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Instalación</h2>
          </legend>
          <div className="ac-fila">
            <Entrada
              {...campo('potenciaKw')}
              etiqueta={etiquetaPotencia(f.tipo)}
              ayuda={d.potenciaKw ? `Equivale a ${textoMw(kwAMw(d.potenciaKw))}.` : 'En kW; por ejemplo, 4500 o 99,5.'}
              inputMode="decimal"
              max={20}
              corto
            />
            <Entrada
              {...campo('tensionKv')}
              etiqueta="Tensión de conexión (kV)"
              ayuda="Por ejemplo, 0,4 en baja tensión; 15 o 20 en media tensión."
              inputMode="decimal"
              max={10}
              corto
            />
          </div>
          {inyeccion && (
            <Seleccion {...campo('tecnologia')} etiqueta="Tecnología" vacio="Elija la tecnología" opciones={OPCIONES_TECNOLOGIA} />
          )}
          {conAlmacenamiento(f.tipo) && (
            <div className="ac-fila">
              <Entrada {...campo('almacenamientoKw')} etiqueta="Potencia del almacenamiento (kW)" inputMode="decimal" max={20} corto />
              <Entrada
                {...campo('almacenamientoKwh')}
                etiqueta="Capacidad del almacenamiento (kWh) (opcional)"
                inputMode="decimal"
                max={20}
                corto
              />
            </div>
          )}
        </fieldset>

        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Nudo de conexión</h2>
          </legend>
          <div aria-live="polite">
            {nudoQuitado && (
              <div className="priv-aviso priv-aviso--info">
                <p>{nudoQuitado}</p>
              </div>
            )}
          </div>
          {nudos.fase === 'cargando' && (
            <p className="med-cargando" role="status">
              <span className="priv-cargando__giro" aria-hidden="true"></span>
              Cargando los nudos que publica {nombreDistribuidora}…
            </p>
          )}
          {nudos.fase === 'lista' && (
            <>
              <Seleccion
                {...campo('nudo')}
                etiqueta="Nudo de la red al que pide conectarse"
                ayuda={
                  <>
                    Los nudos que publica {nombreDistribuidora}
                    {listaNudos === 'demanda' ? ' para consumo' : ''}, con su {textoCapacidadLista(listaNudos)} (publicación de{' '}
                    {nombreMes(nudos.publicacion)}).
                    {paginaCapacidad && (
                      <>
                        {' '}
                        Puede verlos en un mapa en la <a href={paginaNudos(paginaCapacidad, listaNudos)}>página de capacidad nodal</a>.
                      </>
                    )}
                  </>
                }
                vacio="Elija un nudo"
                opciones={[
                  ...(f.nudo && !elegido
                    ? [{ grupo: 'Nudo elegido antes', opciones: [{ valor: f.nudo, texto: `${f.nudo} (no está en esta lista)` }] }]
                    : []),
                  ...nudosPorProvincia(nudos.nudos).map((g) => ({
                    grupo: g.provincia,
                    opciones: g.nudos.map((n) => ({ valor: n.nudo, texto: textoNudo(n, listaNudos) })),
                  })),
                ]}
              />
              {elegido && (
                <dl className="med-datos ac-nudo">
                  <Dato t="Subestación">
                    {elegido.subestacion} ({elegido.municipio}, {elegido.provincia})
                  </Dato>
                  <Dato t="Tensión">{numeroHasta(elegido.tensionKv, 1)} kV</Dato>
                  <Dato t={etiquetaDisponible(listaNudos)}>{textoMw(elegido.disponibleMw)}</Dato>
                  {elegido.comentario && <Dato t="Comentario de la distribuidora">{elegido.comentario}</Dato>}
                </dl>
              )}
            </>
          )}
          {(nudos.fase === 'ninguno' || nudos.fase === 'error') && (
            <>
              {nudos.fase === 'ninguno' ? (
                <p>
                  {nombreDistribuidora} no publica en este portal la capacidad de sus nudos, así que este dato es opcional: si conoce el
                  nudo, escríbalo; si no, déjelo en blanco y la distribuidora le propondrá el punto de conexión.
                </p>
              ) : (
                <div className="priv-aviso priv-aviso--warning">
                  <p>
                    No hemos podido cargar los nudos que publica {nombreDistribuidora}: {nudos.mensaje}{' '}
                    <button type="button" className="priv-boton priv-boton--secundario" onClick={reintentarNudos}>
                      Reintentar
                    </button>
                  </p>
                </div>
              )}
              <Entrada {...campo('nudo')} etiqueta="Nudo de conexión (opcional)" ayuda="Su identificador, si lo conoce." max={40} />
            </>
          )}
          <div aria-live="polite">
            {aviso && (
              <div className="priv-aviso priv-aviso--warning">
                <p>
                  <strong>Aviso: </strong>
                  {aviso}
                </p>
              </div>
            )}
          </div>
        </fieldset>

        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Documentos</h2>
          </legend>
          <p>
            Adjunte cada documento en su apartado. Se envían a la distribuidora al presentar la solicitud; hasta entonces puede quitarlos.
          </p>
          {sinPermiso && (
            <div className="priv-aviso priv-aviso--info">
              <p>
                <strong>Puede que no necesite este permiso. </strong>
                {sinPermiso}
              </p>
            </div>
          )}
          {!garantia && <p className="ac-nota">{sinGarantiaPorque(d)}</p>}
          {clasesDocumentos(garantia).map(({ clase, obligatorio }) => (
            <SubidaDocumento
              key={clase}
              id={idDocumento(clase)}
              expediente={id}
              clase={clase}
              opcional={!obligatorio}
              ayuda={
                clase === 'garantia'
                  ? 'El resguardo del depósito de la garantía ante el órgano competente de su comunidad autónoma, que cite el art. 23 del RD 1183/2020.'
                  : clase === 'memoria'
                    ? 'La descripción técnica de la instalación: potencia, equipos y esquema unifilar.'
                    : clase === 'planos'
                      ? 'Con el emplazamiento y el punto de conexión que propone.'
                      : 'Cualquier otro documento que quiera aportar.'
              }
              documentos={docs(clase)}
              error={mensajes[idDocumento(clase)]}
              alCambiar={refrescar}
            />
          ))}
          {otros.length > 0 && (
            <div>
              <h3>Otros documentos adjuntos</h3>
              <p className="ac-nota">Ya no corresponden a lo que ha contestado en el formulario. Quítelos si no quiere enviarlos.</p>
              <ListaDocumentos expediente={id} documentos={otros} etiqueta="Otros documentos adjuntos" alQuitar={refrescar} />
            </div>
          )}
        </fieldset>

        <div className="med-panel ac-presentar">
          <p className="med-nota-linea" aria-hidden="true">
            {textoGuardado}
          </p>
          <div className="admin-acciones">
            <BotonEnviar texto="Presentar la solicitud" textoEnviando="Presentando…" clase="priv-boton" enviando={presentando} />
            <button type="button" className="priv-boton priv-boton--secundario ac-boton-peligro" onClick={() => setPreguntar('borrar')}>
              Borrar el borrador
            </button>
          </div>
        </div>
      </form>

      <Confirmacion
        abierta={preguntar === 'presentar'}
        titulo={`Presentar la solicitud ${detalle.referencia}`}
        textoConfirmar="Presentar la solicitud"
        alConfirmar={() => void presentar()}
        alCancelar={() => setPreguntar(null)}
      >
        <p>
          La enviaremos a {nombreDistribuidora} con sus documentos. Después no podrá cambiar los datos: si falta algo, la distribuidora se
          lo pedirá.
        </p>
        <p>Desde que la recibe, la distribuidora tiene 20 días hábiles para pedirle que la subsane o admitirla a trámite.</p>
      </Confirmacion>
      <Confirmacion
        abierta={preguntar === 'borrar'}
        titulo={`Borrar el borrador ${detalle.referencia}`}
        textoConfirmar="Borrar el borrador"
        peligrosa
        alConfirmar={() => void borrar()}
        alCancelar={() => setPreguntar(null)}
      >
        <p>Se borrarán los datos que ha escrito y los documentos adjuntos. No se puede deshacer.</p>
      </Confirmacion>
    </>
  );
}
