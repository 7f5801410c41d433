/**
 * The dialogs of the FTP screen's actions: a name (new folder, rename), a destination folder
 * (move), a confirmation (delete, replace). Each checks what it can before calling and shows the
 * exchange's own message (Spanish, as it comes) when the call is refused.
 */
import { useEffect, useId, useRef, useState } from 'react';
import {
  destinosMover,
  distribuidoraDe,
  errorNuevoNombre,
  rutaMovida,
  rutaRenombrada,
  seleccionInicial,
  type ClienteFtp,
  type ElementoFtp,
  type ResultadoFtp,
} from '../../../lib/intercambio/pantalla.ts';
import { unir } from '../../../lib/intercambio/rutas.ts';
import { DialogoFtp } from './DialogoFtp.tsx';

/** Most folders the move dialog reads to offer destinations (one listing each). */
const MAX_CARPETAS_LEIDAS = 150;

/** What every action dialog needs from the screen. */
interface Comun {
  /** Ends the dialog; `hecho` is the sentence to announce after a success. */
  alTerminar: (hecho: string | null) => void;
  /** The FTP session ended (401). */
  alCaducar: () => void;
  /** Where focus goes when the element that opened the dialog is gone. */
  focoAlCerrar: () => HTMLElement | null;
}

/** A server's refusal shown inside a dialog. */
function ErrorDialogo({ id, mensaje }: { id: string; mensaje: string | null }) {
  if (!mensaje) return null;
  return (
    <p id={id} className="ftp-dialogo__error" role="alert">
      {mensaje}
    </p>
  );
}

/** Runs a call, closing with `hecho` on success, showing the refusal otherwise. */
function useLlamada(c: Comun) {
  const [enCurso, setEnCurso] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ejecutar = async <T,>(llamada: () => Promise<ResultadoFtp<T>>, hecho: string) => {
    setEnCurso(true);
    setError(null);
    const r = await llamada();
    setEnCurso(false);
    if (r.ok) c.alTerminar(hecho);
    else if (r.sesion) c.alCaducar();
    else setError(r.mensaje);
  };
  return { enCurso, error, setError, ejecutar };
}

/** Props of `DialogoNombre`. */
export interface DialogoNombreProps extends Comun {
  /** `crear`: a new folder in `carpeta`; `renombrar`: a new name for `elemento`. */
  modo: { tipo: 'crear'; carpeta: string } | { tipo: 'renombrar'; elemento: ElementoFtp };
  /** Names already in the folder. */
  existentes: readonly string[];
  cliente: ClienteFtp;
}

/** The name of a new folder, or the new name of a file or folder. */
export function DialogoNombre(p: DialogoNombreProps) {
  const id = useId();
  const campo = useRef<HTMLInputElement>(null);
  const actual = p.modo.tipo === 'renombrar' ? p.modo.elemento.name : undefined;
  const [nombre, setNombre] = useState(actual ?? '');
  const [tocado, setTocado] = useState(false);
  const llamada = useLlamada(p);
  const limpio = nombre.trim();
  const errorLocal = tocado ? errorNuevoNombre(limpio, p.existentes, actual) : null;
  const error = errorLocal ?? llamada.error;

  // The rename starts with the name selected without its extension, ready to be typed over.
  useEffect(() => {
    if (p.modo.tipo !== 'renombrar') return;
    const [desde, hasta] = seleccionInicial(p.modo.elemento.name, p.modo.elemento.isFolder);
    campo.current?.setSelectionRange(desde, hasta);
  }, []);

  const aceptar = () => {
    setTocado(true);
    if (errorNuevoNombre(limpio, p.existentes, actual)) {
      campo.current?.focus();
      return;
    }
    if (p.modo.tipo === 'crear') {
      const ruta = unir(p.modo.carpeta, limpio);
      void llamada.ejecutar(() => p.cliente.crearCarpeta(ruta), `Se ha creado la carpeta «${limpio}».`);
    } else {
      const e = p.modo.elemento;
      if (limpio === e.name) {
        p.alTerminar(null);
        return;
      }
      const destino = rutaRenombrada(e.id, limpio);
      void llamada.ejecutar(() => p.cliente.mover(e.id, destino), `«${e.name}» se llama ahora «${limpio}».`);
    }
  };

  const crear = p.modo.tipo === 'crear';
  return (
    <DialogoFtp
      abierto
      titulo={p.modo.tipo === 'crear' ? 'Nueva carpeta' : `Renombrar «${p.modo.elemento.name}»`}
      textoAceptar={crear ? 'Crear la carpeta' : 'Renombrar'}
      textoEnCurso={crear ? 'Creando…' : 'Renombrando…'}
      enCurso={llamada.enCurso}
      alAceptar={aceptar}
      alCancelar={() => p.alTerminar(null)}
      focoAlCerrar={p.focoAlCerrar}
    >
      <div className={`med-campo ftp-campo${error ? ' med-campo--error' : ''}`}>
        <label htmlFor={`${id}-nombre`}>{crear ? 'Nombre de la carpeta' : 'Nuevo nombre'}</label>
        <p id={`${id}-ayuda`} className="med-campo__ayuda">
          Sin barras (/ o \). Hasta 255 caracteres.
        </p>
        {error && (
          <p id={`${id}-error`} className="med-campo__error" role="alert">
            <span className="visually-hidden">Error: </span>
            {error}
          </p>
        )}
        <input
          ref={campo}
          id={`${id}-nombre`}
          type="text"
          value={nombre}
          data-autofoco
          autoComplete="off"
          spellCheck={false}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-ayuda${error ? ` ${id}-error` : ''}`}
          onChange={(ev) => {
            setNombre(ev.target.value);
            llamada.setError(null);
          }}
          onBlur={() => setTocado(nombre !== (actual ?? ''))}
        />
      </div>
    </DialogoFtp>
  );
}

/** The folders of a distributor, read listing by listing from its top folder (breadth first, capped). */
async function carpetasDe(cliente: ClienteFtp, raiz: string, signal: AbortSignal): Promise<ResultadoFtp<string[]>> {
  const encontradas: string[] = [raiz];
  const pendientes = [raiz];
  let leidas = 0;
  while (pendientes.length > 0 && leidas < MAX_CARPETAS_LEIDAS) {
    const carpeta = pendientes.shift()!;
    leidas++;
    const r = await cliente.listar(carpeta, signal);
    if (!r.ok) {
      // A folder that vanished meanwhile is skipped; anything else ends the search.
      if (r.status === 404) continue;
      return r;
    }
    for (const e of r.datos.elementos) {
      if (!e.isFolder) continue;
      encontradas.push(e.id);
      pendientes.push(e.id);
    }
  }
  return { ok: true, datos: encontradas };
}

/** Props of `DialogoMover`. */
export interface DialogoMoverProps extends Comun {
  elemento: ElementoFtp;
  cliente: ClienteFtp;
}

/** Moves a file or folder into another folder of the same distributor, chosen from a list. */
export function DialogoMover(p: DialogoMoverProps) {
  const id = useId();
  const e = p.elemento;
  const [destinos, setDestinos] = useState<string[] | null>(null);
  const [carga, setCarga] = useState<string | null>(null);
  const [destino, setDestino] = useState('');
  const llamada = useLlamada(p);

  useEffect(() => {
    const control = new AbortController();
    const raiz = `/${distribuidoraDe(e.id)}`;
    carpetasDe(p.cliente, raiz, control.signal)
      .then((r) => {
        if (control.signal.aborted) return;
        if (!r.ok) {
          if (r.sesion) p.alCaducar();
          else setCarga(r.mensaje);
          return;
        }
        const lista = destinosMover(e, r.datos);
        setDestinos(lista);
        setDestino(lista[0] ?? '');
      })
      .catch(() => undefined);
    return () => control.abort();
  }, []);

  const aceptar = () => {
    if (!destino) return;
    const nuevo = rutaMovida(e.id, destino);
    void llamada.ejecutar(() => p.cliente.mover(e.id, nuevo), `«${e.name}» se ha movido a ${destino}.`);
  };

  return (
    <DialogoFtp
      abierto
      titulo={`Mover «${e.name}»`}
      textoAceptar="Mover aquí"
      textoEnCurso="Moviendo…"
      enCurso={llamada.enCurso}
      aceptarDeshabilitado={!destino}
      alAceptar={aceptar}
      alCancelar={() => p.alTerminar(null)}
      focoAlCerrar={p.focoAlCerrar}
    >
      {destinos === null && !carga && (
        <p role="status">
          <span className="priv-cargando__giro" aria-hidden="true"></span> Buscando las carpetas…
        </p>
      )}
      {carga && (
        <p className="ftp-dialogo__error" role="alert">
          No hemos podido leer sus carpetas. {carga}
        </p>
      )}
      {destinos && destinos.length === 0 && (
        <p>
          No hay otra carpeta a la que moverlo. Cree antes una con «Nueva carpeta».
          {e.isFolder ? ' Una carpeta no se puede mover dentro de sí misma.' : ''}
        </p>
      )}
      {destinos && destinos.length > 0 && (
        <div className="med-campo ftp-campo">
          <label htmlFor={`${id}-destino`}>Carpeta de destino</label>
          <p id={`${id}-ayuda`} className="med-campo__ayuda">
            Ahora está en {e.parent}. Solo puede moverlo dentro de la misma distribuidora, y no a salida.
          </p>
          <select
            id={`${id}-destino`}
            value={destino}
            data-autofoco
            aria-describedby={`${id}-ayuda${llamada.error ? ` ${id}-error` : ''}`}
            onChange={(ev) => {
              setDestino(ev.target.value);
              llamada.setError(null);
            }}
          >
            {destinos.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
      )}
      <ErrorDialogo id={`${id}-error`} mensaje={llamada.error} />
    </DialogoFtp>
  );
}

/** Props of `DialogoBorrar`. */
export interface DialogoBorrarProps extends Comun {
  elemento: ElementoFtp;
  cliente: ClienteFtp;
}

/** Deletes a file, or a folder with everything in it, after saying so. */
export function DialogoBorrar(p: DialogoBorrarProps) {
  const id = useId();
  const e = p.elemento;
  // A folder's contents are counted first, so the question says what goes with it.
  const [dentro, setDentro] = useState<number | null>(e.isFolder ? null : 0);
  const llamada = useLlamada(p);

  useEffect(() => {
    if (!e.isFolder) return;
    const control = new AbortController();
    p.cliente
      .listar(e.id, control.signal)
      .then((r) => {
        if (control.signal.aborted) return;
        if (r.ok) setDentro(r.datos.elementos.length);
        else if (r.sesion) p.alCaducar();
        else setDentro(-1);
      })
      .catch(() => undefined);
    return () => control.abort();
  }, []);

  const aceptar = () =>
    void llamada.ejecutar(
      () => p.cliente.borrar(e.id),
      e.isFolder ? `Se ha borrado la carpeta «${e.name}».` : `Se ha borrado «${e.name}».`,
    );

  let texto: string;
  if (!e.isFolder) texto = `Se borrará el fichero «${e.name}». No se puede deshacer.`;
  else if (dentro === null) texto = `Comprobando lo que contiene la carpeta «${e.name}»…`;
  else if (dentro === 0) texto = `Se borrará la carpeta «${e.name}», que está vacía.`;
  else if (dentro < 0) texto = `Se borrará la carpeta «${e.name}» y todo lo que contenga. No se puede deshacer.`;
  else
    texto = `La carpeta «${e.name}» contiene ${dentro === 1 ? 'un elemento' : `${dentro} elementos`}. Se borrará con todo lo que contiene, también lo que haya en sus subcarpetas. No se puede deshacer.`;

  return (
    <DialogoFtp
      abierto
      titulo={e.isFolder ? '¿Borrar la carpeta?' : '¿Borrar el fichero?'}
      textoAceptar={e.isFolder && dentro !== 0 ? 'Borrar la carpeta y su contenido' : 'Borrar'}
      textoEnCurso="Borrando…"
      enCurso={llamada.enCurso}
      aceptarDeshabilitado={dentro === null}
      peligrosa
      alAceptar={aceptar}
      alCancelar={() => p.alTerminar(null)}
      focoAlCerrar={p.focoAlCerrar}
    >
      <p>{texto}</p>
      <ErrorDialogo id={`${id}-error`} mensaje={llamada.error} />
    </DialogoFtp>
  );
}

/** Props of `DialogoReemplazar`. */
export interface DialogoReemplazarProps {
  nombre: string;
  alResponder: (reemplazar: boolean) => void;
}

/** An upload would replace a file of the same name: asked first. */
export function DialogoReemplazar({ nombre, alResponder }: DialogoReemplazarProps) {
  return (
    <DialogoFtp
      abierto
      titulo="El fichero ya existe"
      textoAceptar="Reemplazarlo"
      peligrosa
      alAceptar={() => alResponder(true)}
      alCancelar={() => alResponder(false)}
    >
      <p>Ya existe «{nombre}». ¿Reemplazarlo?</p>
    </DialogoFtp>
  );
}
