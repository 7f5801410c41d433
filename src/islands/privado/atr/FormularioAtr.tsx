/**
 * The form of a new ATR request (docs/decisions/020): the process (CNMC table 2) and only its
 * fields, the supply point, the holder, the tariff and powers, and the activation. It checks on
 * submit with the code the API runs (src/lib/atr/formulario.ts), shows each message beside its
 * field and all of them in a summary at the top (docs/diseno.md "Forms"), and keeps every value. The
 * API checks the message as the distributor's reader will: a refusal comes back as the table 27
 * reasons, listed above the button and beside the fields they concern, and nothing is sent.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { crearApiFetch } from '../../../lib/api/cliente.ts';
import {
  etiquetaPotenciaAtr,
  idCampoAtr,
  motivosDeRespuesta,
  NOMBRE_ACTIVACION,
  NOMBRE_MOTIVO_BAJA,
  NOMBRE_SOLICITUD_ADMINISTRATIVA,
  NOMBRE_TIPO_MODIFICACION,
  ACTIVACIONES,
  MOTIVOS_BAJA,
  SOLICITUDES_ADMINISTRATIVAS,
  TIPOS_MODIFICACION,
  cambiaTitular,
  detalleMotivoAtr,
  formularioAtrVacio,
  periodosFormularioAtr,
  pideContrato,
  pideSolicitudAdministrativa,
  textoMotivoFormularioAtr,
  titularEsEmpresa,
  validarFormularioAtr,
  type Activacion,
  type CampoAtr,
  type ErrorCampoAtr,
  type FormularioAtr,
  type MotivoFormularioAtr,
  type SolicitudAtrEnviada,
  type TipoModificacion,
} from '../../../lib/atr/formulario.ts';
import { API_SOLICITUDES_ATR, textoMotivoAtr } from '../../../lib/atr/pantalla.ts';
import { PROCESO, PROCESOS_ATR, type ProcesoAtr } from '../../../lib/atr/procesos.ts';
import { fechaLocalDe } from '../../../lib/calendario/hora-civil.ts';
import { TARIFAS } from '../../../lib/modificaciones/tipos.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { $session, logout } from '../../../lib/sesion/index.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { Entrada, Opciones, Seleccion } from '../expedientes/campos.tsx';
import '../modificaciones/modificaciones.css';
import './atr.css';

/** The field a table 27 reason concerns, to show it beside it too. */
const CAMPO_MOTIVO: Readonly<Record<string, CampoAtr>> = {
  '01': 'cups',
  '03': 'nif',
  '11': 'cups',
  '14': 'p1',
  '15': 'p1',
  '17': 'tarifa',
  '21': 'cups',
  '37': 'cups',
  '38': 'cups',
  '39': 'cups',
  '40': 'cups',
  '47': 'p1',
  '48': 'p1',
  '52': 'p1',
  '72': 'cups',
  A9: 'p1',
};

/** The holder's legend and hint: whose data each process asks for. */
function textosTitular(f: FormularioAtr): { leyenda: string; ayuda: string } {
  if (f.proceso === 'A3') return { leyenda: 'Titular del nuevo contrato', ayuda: 'La persona o empresa que contrata el nuevo suministro.' };
  if (f.proceso === 'M1' && cambiaTitular(f.solicitudAdministrativa)) {
    return { leyenda: 'Nuevo titular', ayuda: 'Quien pasa a ser titular del contrato de acceso con este cambio.' };
  }
  return {
    leyenda: 'Titular del contrato',
    ayuda: 'Debe ser el titular del contrato de acceso en vigor: la distribuidora rechaza la solicitud si su NIF no coincide (motivo 03).',
  };
}

/**
 * POSTs the body through the portal's client (token, logout on 401/403, Spanish errors), keeping
 * the body of a 422, whose table 27 reasons `apiFetch` does not hand back.
 */
async function enviar(cuerpo: unknown) {
  let motivos: MotivoFormularioAtr[] = [];
  const pedir = crearApiFetch({
    fetch: async (entrada, opciones) => {
      const res = await globalThis.fetch(entrada, opciones);
      if (res.status === 422)
        motivos = motivosDeRespuesta(
          await res
            .clone()
            .json()
            .catch(() => null),
        );
      return res;
    },
    token: () => $session.get()?.jwtToken ?? null,
    cerrarSesion: () => logout(),
  });
  const r = await pedir<SolicitudAtrEnviada>(API_SOLICITUDES_ATR, { method: 'POST', json: cuerpo });
  return { r, motivos };
}

/** Props of the form. */
export interface PropsFormularioAtr {
  /** The distributors the company works with (its `-comercializadora` permissions). */
  distribuidoras: readonly string[];
  /** Where "Cancelar" goes. */
  volver: string;
  /** Sent: the message left in entrada. */
  alEnviar: (e: SolicitudAtrEnviada) => void;
}

/** The new request form. */
export function FormularioSolicitudAtr({ distribuidoras, volver, alEnviar }: PropsFormularioAtr) {
  const [f, setF] = useState<FormularioAtr>(() => formularioAtrVacio(distribuidoras));
  const [errores, setErrores] = useState<ErrorCampoAtr[]>([]);
  const [intento, setIntento] = useState(0);
  const [motivos, setMotivos] = useState<MotivoFormularioAtr[]>([]);
  // Once React shows the reasons a distributor would refuse the request: their heading is announced and
  // the keyboard starts there. In an effect, after the commit: a frame requested from the handler
  // could come first on a busy machine and find no box yet.
  useEffect(() => {
    if (motivos.length > 0) cajaMotivos.current?.focus();
  }, [motivos]);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [enviando, setEnviando] = useState(false);
  const cajaMotivos = useRef<HTMLDivElement>(null);

  // A field's message: the form's own first, else a reason the distributor gave about it.
  const error = (c: CampoAtr) => {
    const propio = errores.find((e) => e.campo === c)?.mensaje;
    if (propio) return propio;
    const m = motivos.filter((x) => CAMPO_MOTIVO[x.codigo] === c);
    return m.length ? m.map(textoMotivoFormularioAtr).join(' ') : undefined;
  };
  const poner = (cambios: Partial<FormularioAtr>, ...campos: CampoAtr[]) => {
    setF((x) => ({ ...x, ...cambios }));
    if (campos.length) setErrores((e) => e.filter((x) => !campos.includes(x.campo)));
  };
  const campo = (c: CampoAtr) => ({ id: idCampoAtr(c), error: error(c) });

  const onSubmit = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando) return;
    setAlertas([]);
    setMotivos([]);
    const { errores: fallos, cuerpo } = validarFormularioAtr(f, fechaLocalDe(Date.now()));
    setErrores(fallos);
    if (fallos.length > 0 || !cuerpo) {
      setIntento((n) => n + 1);
      return;
    }
    setEnviando(true);
    const { r, motivos: rechazo } = await enviar(cuerpo);
    setEnviando(false);
    if (r.ok) {
      alEnviar(r.datos);
      return;
    }
    if (r.status === 422 && rechazo.length) {
      setMotivos(rechazo);
      return;
    }
    setAlertas(alertasDe([r.error.mensaje]));
  };

  const periodos = periodosFormularioAtr(f);
  const empresa = titularEsEmpresa(f.nif);
  const titular = textosTitular(f);

  return (
    <>
      <ResumenErrores
        titulo="Revise estos datos antes de enviar la solicitud:"
        errores={errores.map((e) => ({ campo: idCampoAtr(e.campo), mensaje: e.mensaje }))}
        intento={intento}
      />
      <ListaAlertas alertas={alertas} alCerrar={(id) => setAlertas((l) => l.filter((x) => x.id !== id))} etiqueta="Respuesta del portal" />
      <form className="mod-formulario atr-formulario" noValidate onSubmit={(e) => void onSubmit(e)} aria-label="Nueva solicitud ATR">
        <Opciones
          id={idCampoAtr('proceso')}
          leyenda="Proceso"
          ayuda="Elija qué pide a la distribuidora: el formulario le pedirá solo los datos de ese proceso."
          opciones={PROCESOS_ATR.map((p) => ({ valor: p, texto: `${p} · ${PROCESO[p].nombre}` }))}
          valor={f.proceso}
          alCambiar={(proceso: ProcesoAtr) => poner({ proceso }, 'proceso')}
          error={error('proceso')}
        />

        {f.proceso && (
          <>
            <fieldset className="mod-grupo atr-grupo">
              <legend>Punto de suministro</legend>
              <Seleccion
                {...campo('distribuidora')}
                etiqueta="Distribuidora"
                vacio="Elija la distribuidora"
                valor={f.distribuidora}
                opciones={distribuidoras.map((d) => ({ valor: d, texto: nombreDistribuidora(d) }))}
                alCambiar={(distribuidora) => poner({ distribuidora }, 'distribuidora')}
              />
              <Entrada
                {...campo('cups')}
                etiqueta="CUPS"
                ayuda="20 o 22 caracteres: ES, 16 cifras y dos letras de control (por ejemplo, ES9901000000000001QY)."
                valor={f.cups}
                max={26}
                mayusculas
                alCambiar={(cups) => poner({ cups: cups.toUpperCase() }, 'cups')}
              />
            </fieldset>

            {f.proceso === 'M1' && (
              <fieldset className="mod-grupo atr-grupo">
                <legend>Qué modifica</legend>
                <Opciones
                  id={idCampoAtr('tipoModificacion')}
                  leyenda="Tipo de modificación (tabla 7 de la CNMC)"
                  opciones={TIPOS_MODIFICACION.map((t) => ({ valor: t, texto: NOMBRE_TIPO_MODIFICACION[t] }))}
                  valor={f.tipoModificacion}
                  alCambiar={(tipoModificacion: TipoModificacion) =>
                    poner({ tipoModificacion }, 'tipoModificacion', 'tarifa', 'solicitudAdministrativa', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6')
                  }
                  error={error('tipoModificacion')}
                />
                {pideSolicitudAdministrativa(f) && (
                  <Seleccion
                    {...campo('solicitudAdministrativa')}
                    etiqueta="Cambio administrativo (tabla 53 de la CNMC)"
                    ayuda="En un cambio de titular, escriba abajo los datos del nuevo titular."
                    vacio="Elija el cambio"
                    valor={f.solicitudAdministrativa}
                    opciones={SOLICITUDES_ADMINISTRATIVAS.map((s) => ({ valor: s, texto: `${s} · ${NOMBRE_SOLICITUD_ADMINISTRATIVA[s]}` }))}
                    alCambiar={(solicitudAdministrativa) => poner({ solicitudAdministrativa }, 'solicitudAdministrativa')}
                  />
                )}
              </fieldset>
            )}

            <fieldset className="mod-grupo atr-grupo" aria-describedby="atr-form-titular-ayuda">
              <legend>{titular.leyenda}</legend>
              <p id="atr-form-titular-ayuda" className="admin-campo__ayuda">
                {titular.ayuda}
              </p>
              <Entrada
                {...campo('nif')}
                etiqueta="NIF, NIE o CIF"
                ayuda={
                  empresa
                    ? 'Con un CIF se pide la razón social.'
                    : 'Con un DNI o NIE se piden nombre y apellidos; con un CIF, la razón social.'
                }
                valor={f.nif}
                max={20}
                corto
                mayusculas
                alCambiar={(nif) => poner({ nif: nif.toUpperCase() }, 'nif', 'nombre', 'apellido1', 'razonSocial')}
              />
              {empresa ? (
                <Entrada
                  {...campo('razonSocial')}
                  etiqueta="Razón social"
                  valor={f.razonSocial}
                  max={80}
                  alCambiar={(razonSocial) => poner({ razonSocial }, 'razonSocial')}
                />
              ) : (
                <div className="atr-nombre">
                  <Entrada
                    {...campo('nombre')}
                    etiqueta="Nombre"
                    valor={f.nombre}
                    max={80}
                    alCambiar={(nombre) => poner({ nombre }, 'nombre')}
                  />
                  <Entrada
                    {...campo('apellido1')}
                    etiqueta="Primer apellido"
                    valor={f.apellido1}
                    max={80}
                    alCambiar={(apellido1) => poner({ apellido1 }, 'apellido1')}
                  />
                  <Entrada
                    {...campo('apellido2')}
                    etiqueta="Segundo apellido (opcional)"
                    valor={f.apellido2}
                    max={80}
                    alCambiar={(apellido2) => poner({ apellido2 }, 'apellido2')}
                  />
                </div>
              )}
            </fieldset>

            {pideContrato(f) && (
              <fieldset className="mod-grupo atr-grupo">
                <legend>{f.proceso === 'A3' ? 'Contrato de acceso' : 'Tarifa y potencias pedidas'}</legend>
                <Seleccion
                  {...campo('tarifa')}
                  etiqueta="Tarifa de acceso (tabla 17 de la CNMC)"
                  ayuda="2.0TD: hasta 15 kW, dos potencias. 3.0TD: más de 15 kW en algún periodo. 6.1TD a 6.4TD: alta tensión. Las de seis periodos no bajan de P1 a P6."
                  vacio="Elija la tarifa"
                  valor={f.tarifa}
                  opciones={TARIFAS.map((t) => ({ valor: t, texto: t }))}
                  alCambiar={(tarifa) => poner({ tarifa }, 'tarifa', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6')}
                />
                {periodos > 0 && (
                  <div className="mod-potencias">
                    {Array.from({ length: periodos }, (_, i) => {
                      const c = `p${i + 1}` as CampoAtr;
                      return (
                        <Entrada
                          key={c}
                          {...campo(c)}
                          etiqueta={etiquetaPotenciaAtr(f.tarifa, i)}
                          valor={f.potencias[i] ?? ''}
                          inputMode="decimal"
                          max={10}
                          corto
                          alCambiar={(v) => poner({ potencias: f.potencias.map((x, j) => (j === i ? v : x)) }, c)}
                        />
                      );
                    })}
                  </div>
                )}
              </fieldset>
            )}

            {f.proceso === 'A3' && (
              <fieldset className="mod-grupo atr-grupo">
                <legend>Actividad y contacto</legend>
                <Entrada
                  {...campo('cnae')}
                  etiqueta="CNAE"
                  ayuda="Cuatro cifras de la actividad (9820 para una vivienda)."
                  valor={f.cnae}
                  inputMode="numeric"
                  max={4}
                  corto
                  alCambiar={(cnae) => poner({ cnae }, 'cnae')}
                />
                <Entrada
                  {...campo('telefono')}
                  etiqueta="Teléfono de contacto"
                  ayuda="Para concertar los trabajos del alta."
                  tipo="tel"
                  inputMode="tel"
                  autoComplete="off"
                  valor={f.telefono}
                  max={20}
                  corto
                  alCambiar={(telefono) => poner({ telefono }, 'telefono')}
                />
              </fieldset>
            )}

            {f.proceso === 'B1' && (
              <Seleccion
                {...campo('motivoBaja')}
                etiqueta="Motivo de la baja (tabla 10 de la CNMC)"
                vacio="Elija el motivo"
                valor={f.motivoBaja}
                opciones={MOTIVOS_BAJA.map((m) => ({ valor: m, texto: `${m} · ${NOMBRE_MOTIVO_BAJA[m]}` }))}
                alCambiar={(motivoBaja) => poner({ motivoBaja }, 'motivoBaja')}
              />
            )}

            <Opciones
              id={idCampoAtr('activacion')}
              leyenda="Activación (tabla 8 de la CNMC)"
              opciones={ACTIVACIONES.map((a) => ({ valor: a, texto: NOMBRE_ACTIVACION[a] }))}
              valor={f.activacion}
              alCambiar={(activacion: Activacion) => poner({ activacion }, 'activacion', 'fechaActivacion')}
              error={error('activacion')}
            />
            {f.activacion === 'F' && (
              <Entrada
                {...campo('fechaActivacion')}
                etiqueta="Fecha de activación"
                ayuda="Posterior a hoy."
                tipo="date"
                valor={f.fechaActivacion}
                corto
                alCambiar={(fechaActivacion) => poner({ fechaActivacion }, 'fechaActivacion')}
              />
            )}
          </>
        )}

        {motivos.length > 0 && (
          <div
            ref={cajaMotivos}
            tabIndex={-1}
            className="priv-aviso priv-aviso--error atr-rechazo"
            role="group"
            aria-labelledby="atr-rechazo-titulo"
          >
            <h2 id="atr-rechazo-titulo">La distribuidora rechazaría esta solicitud: no se ha enviado</h2>
            <ul>
              {motivos.map((m) => (
                <li key={`${m.codigo}-${m.comentario}`}>
                  <strong>{textoMotivoAtr(m)}.</strong> {detalleMotivoAtr(m)}
                </li>
              ))}
            </ul>
            <p>Corrija los datos y vuelva a enviarla: lo que ha escrito se conserva.</p>
          </div>
        )}

        {enviando && (
          <p className="med-cargando" role="status">
            <span className="priv-cargando__giro" aria-hidden="true"></span>
            Comprobando la solicitud como lo hará la distribuidora y dejándola en su carpeta de entrada…
          </p>
        )}

        <div className="admin-acciones">
          <BotonEnviar texto="Enviar solicitud" textoEnviando="Enviando…" clase="priv-boton" enviando={enviando} />
          <a className="priv-boton priv-boton--secundario" href={volver}>
            Cancelar
          </a>
        </div>
      </form>
    </>
  );
}
