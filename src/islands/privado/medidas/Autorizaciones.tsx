/**
 * «Autorizaciones» (docs/decisions/028-autorizaciones.md): the holder authorises a person or company,
 * by NIF, to read chosen data of chosen supply points until a date at most two years ahead, lists
 * those it gave with their state and revokes one after confirming; the account also sees the
 * authorisations it received. Checks run here with the server's own rules (src/lib/autorizaciones.ts);
 * the server's refusals are shown beside the field they concern, and the summary takes the focus.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import {
  DATOS_AUTORIZACION,
  errorFin,
  errorNifAutorizado,
  finMaximo,
  NOMBRE_DATO,
  NOMBRE_ESTADO,
  type AutorizacionDadaRespuesta,
  type AutorizacionesRespuesta,
  type AutorizacionRespuesta,
  type DatoAutorizacion,
} from '../../../lib/autorizaciones.ts';
import { fechaSinDia } from '../../../lib/formato/fechas.ts';
import { fechaLocalDe } from '../../../lib/calendario/hora-civil.ts';
import { normalizarNif } from '../../../lib/nif.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { CampoTexto } from '../../comunes/formulario/CampoTexto.tsx';
import { atributosControl, claseCampo, describedBy, idError, textosCampo } from '../../comunes/formulario/campo.ts';
import type { ErrorCampo } from '../../comunes/formulario/errores.ts';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import { Confirmacion } from '../administracion/comun.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, Cups, ErrorCarga, useSuministros, type Carga } from './comun.tsx';
import '../administracion/administracion.css';
import './autorizaciones.css';
import './medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** ids of the form's controls, in the summary's order. */
const IDS = { nif: 'aut-nif', nombre: 'aut-nombre', suministros: 'aut-suministros', datos: 'aut-datos', fin: 'aut-fin' } as const;

/** Which field a server refusal concerns, by what it says. */
function campoDeMensaje(m: string): string {
  if (/NIF|NIE|CIF|sí mismo/.test(m)) return IDS.nif;
  if (/nombre/i.test(m)) return IDS.nombre;
  if (/fecha|años|hoy/.test(m)) return IDS.fin;
  if (/dato/.test(m)) return IDS.datos;
  return IDS.suministros;
}

/** A group of checkboxes: a fieldset named by its legend, with its error next to it. */
function Casillas<T extends string>(p: {
  id: string;
  leyenda: string;
  opciones: readonly { valor: T; texto: ReactNode }[];
  elegidos: readonly T[];
  alCambiar: (v: T[]) => void;
  error?: string | undefined;
}) {
  const err = p.error ? idError(p.id) : undefined;
  return (
    <fieldset className={`aut-grupo${p.error ? ' admin-campo--error' : ''}`} aria-describedby={describedBy(err)}>
      <legend>{p.leyenda}</legend>
      {p.error && (
        <p id={err} className="admin-campo__error">
          <span className="visually-hidden">Error: </span>
          {p.error}
        </p>
      )}
      <ul className="aut-opciones">
        {p.opciones.map((o, i) => (
          <li key={o.valor}>
            <label className="aut-opcion">
              <input
                id={i === 0 ? p.id : `${p.id}-${o.valor}`}
                type="checkbox"
                checked={p.elegidos.includes(o.valor)}
                onChange={(e) => p.alCambiar(e.target.checked ? [...p.elegidos, o.valor] : p.elegidos.filter((x) => x !== o.valor))}
                aria-invalid={p.error ? true : undefined}
              />
              <span>{o.texto}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** One authorisation as a card: who, which supply points, what, until when, its state. */
function Tarjeta({
  a,
  lado,
  revocar,
}: {
  a: AutorizacionRespuesta;
  lado: 'dada' | 'recibida';
  revocar?: (a: AutorizacionRespuesta) => void;
}) {
  const quien = lado === 'dada' ? `${a.autorizado.nombre} (${a.autorizado.nif})` : `${a.titular.nombre}`;
  return (
    <li className="aut-tarjeta">
      <h3 className="aut-tarjeta__titulo">
        {lado === 'dada' ? 'A ' : 'De '}
        {quien}
        <span className={`priv-etiqueta aut-estado aut-estado--${a.estado}`}>{NOMBRE_ESTADO[a.estado]}</span>
      </h3>
      <p>
        {a.estado === 'revocada' ? 'Revocada' : a.estado === 'caducada' ? 'Terminó' : 'Vigente hasta'} el{' '}
        {a.estado === 'revocada' && a.revocadaEn ? fechaSinDia(fechaLocalDe(new Date(a.revocadaEn))) : fechaSinDia(a.fin)}. Dada el{' '}
        {fechaSinDia(a.inicio)}.
      </p>
      <p>Datos: {['Datos del contrato', ...a.datos.map((d) => NOMBRE_DATO[d])].join(', ')}.</p>
      <ul className="aut-suministros">
        {a.suministros.map((s) => (
          <li key={s.cups}>
            <Cups cups={s.cups} /> · {s.direccion}
          </li>
        ))}
      </ul>
      {revocar && a.estado === 'vigente' && (
        <p>
          <button type="button" className="priv-boton priv-boton--secundario" onClick={() => revocar(a)}>
            Revocar<span className="visually-hidden"> la autorización a {quien}</span>
          </button>
        </p>
      )}
    </li>
  );
}

/** The screen. */
export default function Autorizaciones({ ruta }: PropsPantalla) {
  const [propios, reintentarPropios] = useSuministros('propios');
  const [carga, setCarga] = useState<Carga<AutorizacionesRespuesta>>({ fase: 'cargando' });
  const [nif, setNif] = useState('');
  const [nombre, setNombre] = useState('');
  const [cups, setCups] = useState<string[]>([]);
  // Least by default: no data kind ticked and no end date, so the holder chooses each one.
  const [datos, setDatos] = useState<DatoAutorizacion[]>([]);
  const hoy = fechaLocalDe(new Date());
  const [fin, setFin] = useState('');
  const [aConfirmar, setAConfirmar] = useState(false);
  const [enviando, setEnviando] = useState(false);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [aRevocar, setARevocar] = useState<AutorizacionRespuesta | null>(null);
  const tituloDadas = useRef<HTMLHeadingElement>(null);
  const e = useErrores();
  const id = useId();

  const cargar = useCallback(async () => {
    const r = await apiFetch<AutorizacionesRespuesta>(urlApi('/autorizaciones'));
    setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
  }, []);
  useEffect(() => {
    void cargar();
  }, [cargar]);

  const enviar = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando) return;
    setAlertas([]);
    const errores: ErrorCampo[] = [];
    const eNif = errorNifAutorizado(nif, null);
    if (eNif) errores.push({ campo: IDS.nif, mensaje: eNif });
    if (!nombre.trim())
      errores.push({ campo: IDS.nombre, mensaje: 'Indique el nombre o la razón social de la persona o empresa autorizada.' });
    if (cups.length === 0) errores.push({ campo: IDS.suministros, mensaje: 'Elija al menos un suministro.' });
    if (datos.length === 0) errores.push({ campo: IDS.datos, mensaje: 'Elija al menos un tipo de dato.' });
    const eFin = errorFin(fin, hoy);
    if (eFin) errores.push({ campo: IDS.fin, mensaje: eFin });
    if (!e.comprobar(errores)) return;
    // Giving someone access to one's data is confirmed on a summary of exactly what is given.
    setAConfirmar(true);
  };

  const autorizar = async () => {
    setAConfirmar(false);
    setEnviando(true);
    const r = await apiFetch<AutorizacionDadaRespuesta>(urlApi('/autorizaciones'), {
      method: 'POST',
      json: { nif, nombre, cups, datos, fin },
    });
    setEnviando(false);
    if (r.ok) {
      setNif('');
      setNombre('');
      setCups([]);
      setDatos([]);
      setFin('');
      setAlertas([
        ...alertasDe(
          [
            `Ha autorizado a ${r.datos.autorizado.nombre} hasta el ${fechaSinDia(r.datos.fin)}. Le hemos enviado un correo con los detalles.`,
          ],
          'success',
        ),
        ...(r.datos.autorizadoConCuenta
          ? []
          : alertasDe(
              [
                `El NIF ${r.datos.autorizado.nif} aún no tiene cuenta en el portal. La autorización vale igual: podrá consultar los datos cuando se registre con ese NIF. Si no esperaba que la tuviera, compruebe el NIF y revóquela.`,
              ],
              'warning',
            )),
      ]);
      void cargar();
    } else if (r.status === 400 || r.status === 404) {
      const porCampo = new Map<string, string>();
      for (const m of mensajesDeError(r.error)) if (!porCampo.has(campoDeMensaje(m))) porCampo.set(campoDeMensaje(m), m);
      e.comprobar(
        Object.values(IDS)
          .filter((c) => porCampo.has(c))
          .map((c) => ({ campo: c, mensaje: porCampo.get(c)! })),
      );
    } else {
      setAlertas(alertasDe([r.error.mensaje], 'error'));
    }
  };

  const revocar = async (a: AutorizacionRespuesta) => {
    setARevocar(null);
    setAlertas([]);
    const r = await apiFetch<AutorizacionRespuesta>(urlApi('/autorizaciones/{id}/revocacion', { path: { id: a.id } }), { method: 'POST' });
    if (r.ok) {
      setAlertas(
        alertasDe([`Ha revocado la autorización a ${a.autorizado.nombre}: desde ahora no puede consultar esos suministros.`], 'success'),
      );
      await cargar();
      // The button is gone: the focus goes to the list's heading.
      tituloDadas.current?.focus();
    } else {
      setAlertas(alertasDe([r.error.mensaje], 'error'));
    }
  };

  const fNif = e.campo(IDS.nif);
  const fFin = e.campo(IDS.fin);
  const tFin = textosCampo({
    ...fFin,
    ayuda: `Elija el último día que necesita; como mucho, el ${fechaSinDia(finMaximo(hoy))}. Puede revocarla antes cuando quiera.`,
  });
  const elegidos = propios.fase === 'lista' ? propios.datos.filter((s) => cups.includes(s.cups)) : [];
  const listas = carga.fase === 'lista' ? carga.datos : null;

  return (
    <div className="priv-pagina med aut">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Autorice a otra persona o empresa (su asesor energético, su administrador de fincas, otra empresa del grupo…) a consultar los datos
        de los suministros que elija, desde su propia cuenta del portal y hasta la fecha que indique. Solo podrá consultarlos: nunca podrá
        solicitar cambios en sus contratos. Puede revocar la autorización en cualquier momento.
      </p>
      <ListaAlertas alertas={alertas} alCerrar={(x) => setAlertas((a) => a.filter((y) => y.id !== x))} etiqueta="Resultado" />

      <section className="med-panel" aria-labelledby={`${id}-nueva`}>
        <h2 id={`${id}-nueva`}>Nueva autorización</h2>
        {propios.fase === 'cargando' && <Cargando texto="Cargando sus suministros…" />}
        {propios.fase === 'error' && <ErrorCarga que="sus suministros" mensaje={propios.mensaje} reintentar={reintentarPropios} />}
        {propios.fase === 'lista' && propios.datos.length === 0 && (
          <p>No es titular de ningún suministro: no puede autorizar a nadie a consultar datos.</p>
        )}
        {propios.fase === 'lista' && propios.datos.length > 0 && (
          <div className="sesion priv-formulario">
            <ResumenErrores titulo="Revise los campos marcados" errores={e.errores} intento={e.intento} />
            <form noValidate onSubmit={(ev) => void enviar(ev)} aria-labelledby={`${id}-nueva`}>
              <CampoTexto
                {...fNif}
                etiqueta="NIF, NIE o CIF de la persona o empresa autorizada"
                valor={nif}
                alCambiar={e.alCambiar(IDS.nif, setNif)}
                autoComplete="off"
                autoCapitalize="characters"
                requerido
              />
              <CampoTexto
                {...e.campo(IDS.nombre)}
                etiqueta="Nombre o razón social"
                valor={nombre}
                alCambiar={e.alCambiar(IDS.nombre, setNombre)}
                autoComplete="off"
                requerido
              />
              <Casillas
                id={IDS.suministros}
                leyenda="Suministros que podrá consultar"
                opciones={propios.datos.map((s) => ({
                  valor: s.cups,
                  texto: (
                    <>
                      {s.direccion}, {s.municipio} · <Cups cups={s.cups} />
                    </>
                  ),
                }))}
                elegidos={cups}
                alCambiar={(v) => {
                  setCups(v);
                  e.limpiar(IDS.suministros);
                }}
                error={e.errorDe(IDS.suministros)}
              />
              <Casillas
                id={IDS.datos}
                leyenda="Datos que podrá consultar, además de los del contrato"
                opciones={DATOS_AUTORIZACION.map((d) => ({ valor: d, texto: NOMBRE_DATO[d] }))}
                elegidos={datos}
                alCambiar={(v) => {
                  setDatos(v);
                  e.limpiar(IDS.datos);
                }}
                error={e.errorDe(IDS.datos)}
              />
              <div className={claseCampo('campo', fFin)}>
                <CabeceraCampo id={IDS.fin} etiqueta="Autorizado hasta el día (incluido)" error={fFin.error} textos={tFin} bloque="campo" />
                <input
                  {...atributosControl({ ...fFin, requerido: true }, tFin)}
                  type="date"
                  value={fin}
                  min={hoy}
                  max={finMaximo(hoy)}
                  onChange={(x) => {
                    setFin(x.target.value);
                    e.limpiar(IDS.fin);
                  }}
                />
              </div>
              <BotonEnviar clase="priv-boton" texto="Autorizar" textoEnviando="Autorizando…" enviando={enviando} />
            </form>
          </div>
        )}
      </section>

      {carga.fase === 'cargando' && <Cargando texto="Cargando sus autorizaciones…" />}
      {carga.fase === 'error' && <ErrorCarga que="sus autorizaciones" mensaje={carga.mensaje} reintentar={() => void cargar()} />}
      {listas && (
        <>
          <section aria-labelledby="aut-dadas">
            <h2 id="aut-dadas" ref={tituloDadas} tabIndex={-1}>
              Autorizaciones dadas
            </h2>
            {listas.dadas.length === 0 ? (
              <p>No ha autorizado a nadie.</p>
            ) : (
              <ul className="aut-lista">
                {listas.dadas.map((a) => (
                  <Tarjeta key={a.id} a={a} lado="dada" revocar={setARevocar} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="aut-recibidas">
            <h2 id="aut-recibidas">Autorizaciones recibidas</h2>
            {listas.recibidas.length === 0 ? (
              <p>Ningún titular le ha autorizado a consultar sus suministros.</p>
            ) : (
              <>
                <p>
                  Puede consultar estos suministros en «Suministros», «Consumo horario», «Potencias máximas» y «Certificado de consumo».
                </p>
                <ul className="aut-lista">
                  {listas.recibidas.map((a) => (
                    <Tarjeta key={a.id} a={a} lado="recibida" />
                  ))}
                </ul>
              </>
            )}
          </section>
        </>
      )}

      <Confirmacion
        abierta={aConfirmar}
        titulo="Confirme la autorización"
        textoConfirmar="Autorizar"
        alConfirmar={() => void autorizar()}
        alCancelar={() => setAConfirmar(false)}
      >
        <dl className="aut-resumen">
          <dt>Autoriza a</dt>
          <dd>
            {nombre.trim()} ({normalizarNif(nif)})
          </dd>
          <dt>{elegidos.length === 1 ? 'Suministro' : `Suministros (${elegidos.length})`}</dt>
          <dd>
            <ul>
              {elegidos.map((s) => (
                <li key={s.cups}>
                  {s.direccion}, {s.municipio} · <Cups cups={s.cups} />
                </li>
              ))}
            </ul>
          </dd>
          <dt>Datos</dt>
          <dd>{['Datos del contrato', ...DATOS_AUTORIZACION.filter((d) => datos.includes(d)).map((d) => NOMBRE_DATO[d])].join(', ')}</dd>
          <dt>Hasta el</dt>
          <dd>{fin ? `${fechaSinDia(fin)} (incluido)` : ''}</dd>
        </dl>
        <p>Podrá consultar estos datos desde su propia cuenta, nunca cambiar sus contratos. Le enviaremos un correo con los detalles.</p>
      </Confirmacion>

      <Confirmacion
        abierta={aRevocar !== null}
        titulo="Revocar la autorización"
        textoConfirmar="Revocar"
        peligrosa
        alConfirmar={() => {
          if (aRevocar) void revocar(aRevocar);
        }}
        alCancelar={() => setARevocar(null)}
      >
        {aRevocar && (
          <p>
            {aRevocar.autorizado.nombre} ({aRevocar.autorizado.nif}) dejará de poder consultar{' '}
            {aRevocar.suministros.length === 1 ? 'el suministro' : `los ${aRevocar.suministros.length} suministros`} desde este momento.
          </p>
        )}
      </Confirmacion>
    </div>
  );
}
