/**
 * The SSH keys of a supply company's SFTP access: how to connect to the file exchange's SFTP server,
 * the public keys registered (kind, fingerprint, comment, when added and last used), each with
 * "Borrar" confirmed first, and the form that adds one (the content of a .pub file). The server's
 * refusal of a key (not a public key, a private one, already registered, too many) is shown beside
 * the field and in the form's error summary.
 *
 * The screen shows it only to accounts with a `-comercializadora` permission and never while an
 * administrator acts as the user: the API answers 403 there, and a 403 ends the portal session.
 */
import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { esClavePrivada, MENSAJES_CLAVE } from '../../../lib/intercambio/claves.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, textosCampo } from '../../comunes/formulario/campo.ts';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import { Confirmacion } from '../administracion/comun.tsx';
import { BloquePerfil } from './FormularioPerfil.tsx';
import '../administracion/administracion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** A registered key, as `GET /api/perfil/claves-ssh` lists it. */
export interface ClaveSsh {
  id: string;
  /** `ssh-ed25519`, `ecdsa-sha2-nistp256`… */
  tipo: string;
  /** `SHA256:…`, as `ssh-keygen -lf` prints it. */
  huella: string;
  /** The comment at the end of the .pub line; may be empty. */
  comentario: string;
  /** ISO instants. */
  creadaEn: string;
  usadaEn: string | null;
}

/** Props of `ClavesSsh`. */
export interface ClavesSshProps {
  /** The account's e-mail: the SFTP user name. */
  correo: string;
}

type Carga = { fase: 'cargando' } | { fase: 'error'; mensaje: string } | { fase: 'lista'; claves: ClaveSsh[]; puerto: number | null };

/** id of the textarea (the error summary links to it). */
const ID_CLAVE = 'claveSsh';
/** id of the list's heading, focused after a key is deleted (its button is gone). */
const ID_LISTA = 'perfil-claves-ssh-lista';
/** Port of the SFTP server. */

const DIA = new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' });
const HORA = new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', hour: '2-digit', minute: '2-digit' });

/** "03/05/2026", Madrid time; the text itself when it is no date. */
function dia(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : DIA.format(d);
}

/** "03/05/2026 a las 10:22", Madrid time. */
function diaYHora(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${DIA.format(d)} a las ${HORA.format(d)}`;
}

/** How a key is named in words: its comment, else its fingerprint. */
const nombreDe = (k: ClaveSsh) => (k.comentario ? `«${k.comentario}»` : k.huella);

/** The SFTP access block of the profile. */
export function ClavesSsh({ correo }: ClavesSshProps) {
  const [carga, setCarga] = useState<Carga>({ fase: 'cargando' });
  const [texto, setTexto] = useState('');
  const [enviando, setEnviando] = useState(false);
  const [alertasForm, setAlertasForm] = useState<Alerta[]>([]);
  const [alertasLista, setAlertasLista] = useState<Alerta[]>([]);
  const [aBorrar, setABorrar] = useState<ClaveSsh | null>(null);
  const [borrando, setBorrando] = useState<string | null>(null);
  const bloqueo = useRef(false);
  const tituloLista = useRef<HTMLHeadingElement>(null);
  const e = useErrores();
  // The host the browser reached the portal by: the SFTP server listens on the same one.
  const host = typeof window === 'undefined' ? '' : window.location.hostname;

  const cargar = useCallback(async () => {
    setCarga({ fase: 'cargando' });
    const r = await apiFetch<{ puertoSftp: number | null; claves: ClaveSsh[] }>(urlApi('/perfil/claves-ssh'));
    setCarga(r.ok ? { fase: 'lista', claves: r.datos.claves, puerto: r.datos.puertoSftp } : { fase: 'error', mensaje: r.error.mensaje });
  }, []);

  useEffect(() => {
    void cargar();
  }, [cargar]);

  const anadir = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (bloqueo.current) return;
    setAlertasForm([]);
    const clave = texto.trim();
    if (!e.comprobar(clave ? [] : [{ campo: ID_CLAVE, mensaje: 'Pegue el contenido de su fichero de clave pública (.pub).' }])) return;
    // A private key pasted by mistake never leaves the browser.
    if (esClavePrivada(clave)) {
      setTexto('');
      e.comprobar([{ campo: ID_CLAVE, mensaje: MENSAJES_CLAVE.privada }]);
      return;
    }
    bloqueo.current = true;
    setEnviando(true);
    // A new action: the previous deletion's result no longer describes the list.
    setAlertasLista([]);
    const r = await apiFetch<ClaveSsh>(urlApi('/perfil/claves-ssh'), { method: 'POST', json: { clave } });
    bloqueo.current = false;
    setEnviando(false);
    if (r.ok) {
      setTexto('');
      setCarga((c) => (c.fase === 'lista' ? { ...c, claves: [...c.claves, r.datos] } : c));
      setAlertasForm(alertasDe([`Clave añadida. Su huella es ${r.datos.huella}.`], 'success'));
      if (carga.fase !== 'lista') void cargar();
    } else if (r.status === 422 || r.status === 409) {
      // What is wrong is the key pasted: said beside the field, and the summary takes the focus.
      e.comprobar([{ campo: ID_CLAVE, mensaje: r.error.mensaje }]);
    } else {
      setAlertasForm(alertasDe([r.error.mensaje], 'error'));
    }
  };

  const borrar = async (k: ClaveSsh) => {
    setABorrar(null);
    setAlertasLista([]);
    // A new action: the form's earlier result or refusal («ya está registrada») may no longer hold.
    setAlertasForm([]);
    e.limpiar(ID_CLAVE);
    setBorrando(k.id);
    const r = await apiFetch(urlApi('/perfil/claves-ssh/{id}', { path: { id: k.id } }), { method: 'DELETE' });
    setBorrando(null);
    // A 404: the key was already gone (deleted from another tab); the list drops it all the same.
    if (r.ok || r.status === 404) {
      setCarga((c) => (c.fase === 'lista' ? { ...c, claves: c.claves.filter((x) => x.id !== k.id) } : c));
      setAlertasLista(alertasDe([`Hemos borrado la clave ${nombreDe(k)}: ya no sirve para entrar por SFTP.`], 'success'));
      // The key's button is gone: the focus goes to the list's heading, just above the result.
      tituloLista.current?.focus();
    } else {
      setAlertasLista(alertasDe([r.error.mensaje], 'error'));
    }
  };

  const campo = e.campo(ID_CLAVE);
  const t = textosCampo({
    ...campo,
    ayuda: (
      <>
        Una línea que empieza por <code>ssh-ed25519</code>, <code>ecdsa-sha2-nistp256</code> o <code>ssh-rsa</code>, por ejemplo la del
        fichero <code>~/.ssh/id_ed25519.pub</code>. Nunca pegue la clave privada.
      </>
    ),
  });

  return (
    <BloquePerfil id="perfil-claves-ssh" titulo="Acceso SFTP con clave SSH">
      {carga.fase === 'lista' && carga.puerto === null ? (
        <p className="priv-nota">El servidor SFTP del intercambio no está activo ahora: mientras tanto use la pantalla FTP del portal.</p>
      ) : (
        <>
          <p className="priv-nota">
            Su empresa también puede intercambiar ficheros por SFTP, con cualquier programa cliente, con la orden:
          </p>
          <p className="priv-sftp__orden">
            <code>
              sftp -P {carga.fase === 'lista' ? carga.puerto : 2222} {correo}@{host}
            </code>
          </p>
        </>
      )}
      <p className="priv-nota">
        Entre con la contraseña del portal o, sin contraseña, con una clave SSH cuya parte pública haya registrado aquí (lo recomendable
        para los procesos automáticos). Si no tiene ninguna, créela con <code>ssh-keygen -t ed25519</code>.
      </p>

      <h3 id={ID_LISTA} ref={tituloLista} tabIndex={-1} className="priv-sftp__titulo">
        Claves registradas
      </h3>
      <ListaAlertas
        alertas={alertasLista}
        alCerrar={(id) => setAlertasLista((a) => a.filter((x) => x.id !== id))}
        etiqueta="Resultado de borrar la clave"
      />
      {carga.fase === 'cargando' && <p role="status">Cargando las claves…</p>}
      {carga.fase === 'error' && (
        <div className="priv-aviso priv-aviso--error" role="alert">
          <p>No hemos podido cargar sus claves: {carga.mensaje}</p>
          <p>
            <button type="button" className="priv-boton priv-boton--secundario" onClick={() => void cargar()}>
              Reintentar
            </button>
          </p>
        </div>
      )}
      {carga.fase === 'lista' && carga.claves.length === 0 && (
        <p className="priv-nota">No tiene ninguna clave registrada: por SFTP solo puede entrar con su contraseña.</p>
      )}
      {carga.fase === 'lista' && carga.claves.length > 0 && (
        <ul className="priv-claves" aria-labelledby={ID_LISTA}>
          {carga.claves.map((k) => (
            <li key={k.id} className="priv-clave">
              <div className="priv-clave__datos">
                <p className="priv-clave__titulo">
                  <strong>{k.comentario || 'Sin comentario'}</strong>
                  <span className="priv-etiqueta">{k.tipo}</span>
                </p>
                <p className="priv-clave__huella">
                  <span className="visually-hidden">Huella: </span>
                  <code>{k.huella}</code>
                </p>
                <p className="priv-clave__fechas">
                  <span>
                    Añadida el <time dateTime={k.creadaEn}>{dia(k.creadaEn)}</time>
                  </span>
                  <span>
                    {k.usadaEn ? (
                      <>
                        Último uso el <time dateTime={k.usadaEn}>{diaYHora(k.usadaEn)}</time>
                      </>
                    ) : (
                      'Sin usar'
                    )}
                  </span>
                </p>
              </div>
              <button
                type="button"
                className="priv-boton priv-boton--secundario priv-clave__borrar"
                aria-busy={borrando === k.id || undefined}
                onClick={() => borrando === null && setABorrar(k)}
              >
                Borrar<span className="visually-hidden"> la clave {nombreDe(k)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}

      <h3 id="perfil-claves-ssh-nueva" className="priv-sftp__titulo">
        Añadir una clave
      </h3>
      <div className="sesion priv-formulario">
        <ResumenErrores titulo="Revise los campos marcados" errores={e.errores} intento={e.intento} />
        <ListaAlertas
          alertas={alertasForm}
          alCerrar={(id) => setAlertasForm((a) => a.filter((x) => x.id !== id))}
          etiqueta="Resultado de añadir la clave"
        />
        <form noValidate onSubmit={(ev) => void anadir(ev)} aria-labelledby="perfil-claves-ssh-nueva">
          <div className={claseCampo('campo', campo)}>
            <CabeceraCampo
              id={ID_CLAVE}
              etiqueta="Clave pública (contenido del fichero .pub)"
              error={campo.error}
              textos={t}
              bloque="campo"
            />
            <textarea
              {...atributosControl({ ...campo, requerido: true }, t)}
              className="priv-sftp__clave"
              value={texto}
              rows={4}
              onChange={(x) => {
                setTexto(x.target.value);
                e.limpiar(ID_CLAVE);
              }}
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
            />
          </div>
          <BotonEnviar clase="priv-boton" texto="Añadir clave" textoEnviando="Añadiendo…" enviando={enviando} />
        </form>
      </div>

      <Confirmacion
        abierta={aBorrar !== null}
        titulo="Borrar la clave SSH"
        textoConfirmar="Borrar la clave"
        peligrosa
        alConfirmar={() => {
          if (aBorrar) void borrar(aBorrar);
        }}
        alCancelar={() => setABorrar(null)}
      >
        {aBorrar && (
          <>
            <p>
              La clave {aBorrar.comentario ? <>«{aBorrar.comentario}» (</> : null}
              <code>{aBorrar.huella}</code>
              {aBorrar.comentario ? ')' : null} dejará de servir para entrar por SFTP.
            </p>
            <p>Los programas que la usen tendrán que entrar con otra clave o con la contraseña del portal.</p>
          </>
        )}
      </Confirmacion>
    </BloquePerfil>
  );
}
