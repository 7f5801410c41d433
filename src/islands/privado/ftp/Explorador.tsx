/**
 * The FTP screen once logged in: the files the company exchanges with each distributor, the same
 * ones its SFTP client sees. The folder shown lives in the address (`?carpeta=/epd/entrada`), so back
 * and forward move between folders. A breadcrumb, the actions of the folder (upload, new folder,
 * reload) and a table of its contents with the actions of each element; uploads and downloads
 * show their progress below.
 */
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { guardarBlob } from '../../../lib/medidas/pantalla/descarga.ts';
import { normalizarRuta, unir } from '../../../lib/intercambio/rutas.ts';
import {
  errorAntesDeSubir,
  MAX_SUBIDA_BYTES,
  migasDe,
  motivoSinCarpeta,
  motivoSinSubida,
  reemplazaria,
  seProcesaAlSubir,
  tamanoFtp,
  urlFichero,
  type ClienteFtp,
  type ElementoFtp,
  type ListadoFtp,
} from '../../../lib/intercambio/pantalla.ts';
import { Cargando, type Carga } from '../medidas/comun.tsx';
import { useConsultaUrl } from '../usar-consulta.ts';
import { DialogoBorrar, DialogoMover, DialogoNombre, DialogoReemplazar } from './Dialogos.tsx';
import { TablaFtp } from './TablaFtp.tsx';
import { subirFichero, Transferencias, type FinSubida, type Transferencia } from './Transferencias.tsx';

/** The dialog open, if any. */
type Dialogo =
  | { tipo: 'carpeta' }
  | { tipo: 'renombrar'; elemento: ElementoFtp }
  | { tipo: 'mover'; elemento: ElementoFtp }
  | { tipo: 'borrar'; elemento: ElementoFtp }
  | { tipo: 'reemplazar'; nombre: string; responder: (si: boolean) => void };

/** The folder the address names, or the top when it names none or a wrong one. */
function carpetaDeConsulta(consulta: string): string {
  const valor = new URLSearchParams(consulta).get('carpeta');
  if (!valor) return '/';
  try {
    return normalizarRuta(valor);
  } catch {
    return '/';
  }
}

/** Props of `Explorador`. */
export interface ExploradorProps {
  cliente: ClienteFtp;
  /** The exchange refused the token: back to the login with a notice. */
  alCaducar: () => void;
  /** "Cerrar sesión FTP". */
  alCerrarSesion: () => void;
}

let siguienteId = 1;

/** The file browser. */
export function Explorador({ cliente, alCaducar, alCerrarSesion }: ExploradorProps) {
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const carpeta = carpetaDeConsulta(consulta);
  const [carga, setCarga] = useState<Carga<ListadoFtp>>({ fase: 'cargando' });
  const [recarga, setRecarga] = useState(0);
  const [dialogo, setDialogo] = useState<Dialogo | null>(null);
  const [aviso, setAviso] = useState<{ nivel: 'exito' | 'error'; texto: string } | null>(null);
  const [transferencias, setTransferencias] = useState<Transferencia[]>([]);
  const [arrastrando, setArrastrando] = useState(false);
  const titulo = useRef<HTMLHeadingElement>(null);
  const entradaFicheros = useRef<HTMLInputElement>(null);
  /** Focus goes to the folder's heading once its listing arrives (after a folder change or an action that removed the focused row). */
  const enfocarAlCargar = useRef(false);
  const carpetaActual = useRef(carpeta);
  carpetaActual.current = carpeta;

  useEffect(() => {
    const control = new AbortController();
    setCarga((c) => (c.fase === 'lista' && c.datos.carpeta === carpeta ? c : { fase: 'cargando' }));
    cliente
      .listar(carpeta, control.signal)
      .then((r) => {
        if (control.signal.aborted) return;
        if (r.ok) setCarga({ fase: 'lista', datos: r.datos });
        else if (r.sesion) alCaducar();
        else setCarga({ fase: 'error', mensaje: r.mensaje });
      })
      .catch(() => undefined);
    return () => control.abort();
  }, [carpeta, recarga]);

  useEffect(() => {
    if (carga.fase === 'cargando' || !enfocarAlCargar.current) return;
    enfocarAlCargar.current = false;
    titulo.current?.focus();
  }, [carga]);

  const recargar = useCallback(() => setRecarga((n) => n + 1), []);

  const abrir = (ruta: string) => {
    if (ruta === carpeta) return;
    setAviso(null);
    enfocarAlCargar.current = true;
    cambiarConsulta(ruta === '/' ? '' : `carpeta=${encodeURIComponent(ruta)}`);
  };

  const elementos = carga.fase === 'lista' ? carga.datos.elementos : [];
  const sinSubida = motivoSinSubida(carpeta);
  const sinCarpeta = motivoSinCarpeta(carpeta);

  const actualizar = (id: number, cambios: Partial<Transferencia>) =>
    setTransferencias((lista) => lista.map((t) => (t.id === id ? { ...t, ...cambios } : t)));

  const descargar = async (e: ElementoFtp) => {
    const id = siguienteId++;
    const control = new AbortController();
    setTransferencias((l) => [
      ...l,
      { id, tipo: 'descarga', nombre: e.name, hechos: 0, total: e.size || null, estado: 'en-curso', cancelar: () => control.abort() },
    ]);
    const r = await cliente.descargar(e.id, {
      signal: control.signal,
      alProgresar: (hechos, total) => actualizar(id, { hechos, total: total ?? (e.size || null) }),
    });
    if (r.ok) {
      guardarBlob(r.blob, e.name);
      actualizar(id, { estado: 'hecha', hechos: r.blob.size, total: r.blob.size, mensaje: `Descargado (${tamanoFtp(r.blob.size)}).` });
      return;
    }
    if (r.sesion) {
      alCaducar();
      return;
    }
    actualizar(id, { estado: r.mensaje === 'Descarga cancelada.' ? 'cancelada' : 'error', mensaje: r.mensaje });
  };

  /** Asks whether to replace a file; resolves with the answer. */
  const preguntarReemplazo = (nombre: string) =>
    new Promise<boolean>((resolver) => {
      setDialogo({
        tipo: 'reemplazar',
        nombre,
        responder: (si) => {
          setDialogo(null);
          resolver(si);
        },
      });
    });

  /** Uploads the files chosen into the folder shown when they were chosen, one after another. */
  const subir = async (ficheros: File[]) => {
    const destino = carpeta;
    if (motivoSinSubida(destino) || ficheros.length === 0) return;
    setAviso(null);
    const cola: { id: number; fichero: File }[] = [];
    for (const f of ficheros) {
      const id = siguienteId++;
      const base: Transferencia = { id, tipo: 'subida', nombre: f.name, hechos: 0, total: f.size, estado: 'esperando' };
      const error = errorAntesDeSubir(f, elementos);
      if (error) {
        setTransferencias((l) => [...l, { ...base, estado: 'error', mensaje: `No se ha subido: ${error}` }]);
        continue;
      }
      if (reemplazaria(f.name, elementos) && !(await preguntarReemplazo(f.name))) {
        setTransferencias((l) => [...l, { ...base, estado: 'cancelada', mensaje: 'No se ha subido: ya existía y no lo ha reemplazado.' }]);
        continue;
      }
      setTransferencias((l) => [...l, base]);
      cola.push({ id, fichero: f });
    }
    for (const { id, fichero } of cola) {
      const r = await new Promise<FinSubida>((resolver) => {
        const cancelar = subirFichero(
          urlFichero(unir(destino, fichero.name)),
          cliente.token(),
          fichero,
          (hechos, total) => actualizar(id, { hechos, total }),
          resolver,
        );
        actualizar(id, { estado: 'en-curso', cancelar });
      });
      if (r === 'cancelada') {
        actualizar(id, { estado: 'cancelada', cancelar: undefined });
        continue;
      }
      if (!r.ok && r.sesion) {
        alCaducar();
        return;
      }
      actualizar(
        id,
        r.ok
          ? { estado: 'hecha', hechos: fichero.size, cancelar: undefined, mensaje: `Subido a ${destino} (${tamanoFtp(fichero.size)}).` }
          : { estado: 'error', cancelar: undefined, mensaje: `No se ha subido: ${r.mensaje}` },
      );
      if (r.ok && carpetaActual.current === destino) recargar();
    }
  };

  const alTerminarDialogo = (hecho: string | null) => {
    setDialogo(null);
    if (hecho) {
      setAviso({ nivel: 'exito', texto: hecho });
      enfocarAlCargar.current = true;
      recargar();
    }
  };

  const comunDialogo = {
    alTerminar: alTerminarDialogo,
    alCaducar,
    focoAlCerrar: () => titulo.current,
  };

  const soltar = (ev: DragEvent<HTMLDivElement>) => {
    ev.preventDefault();
    setArrastrando(false);
    if (sinSubida) {
      setAviso({ nivel: 'error', texto: sinSubida });
      return;
    }
    void subir([...ev.dataTransfer.files]);
  };

  const migas = migasDe(carpeta);
  const nombres = elementos.map((e) => e.name);

  return (
    <section className="ftp-explorador" aria-labelledby="ftp-carpeta-titulo">
      <div className="ftp-sesion">
        <p className="ftp-sesion__texto">Ha entrado en el FTP.</p>
        <button type="button" className="priv-boton priv-boton--secundario ftp-boton-pequeno" onClick={alCerrarSesion}>
          Cerrar sesión FTP
        </button>
      </div>

      {carpeta !== '/' && (
        <nav className="ftp-migas" aria-label="Carpeta actual">
          <ol>
            {migas.map((m, i) => (
              <li key={m.ruta}>
                {i === migas.length - 1 ? (
                  <span aria-current="location">{m.texto}</span>
                ) : (
                  <button type="button" className="ftp-enlace" onClick={() => abrir(m.ruta)}>
                    {m.texto}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}

      <h2 id="ftp-carpeta-titulo" ref={titulo} tabIndex={-1} className="ftp-titulo">
        {carpeta === '/' ? 'Mis carpetas' : `Carpeta ${carpeta}`}
      </h2>

      <div className="ftp-barra-acciones">
        <button
          type="button"
          className="priv-boton"
          disabled={sinSubida !== null}
          aria-describedby={sinSubida ? 'ftp-sin-subida' : 'ftp-nota-subida'}
          onClick={() => entradaFicheros.current?.click()}
        >
          Subir ficheros
        </button>
        <input
          ref={entradaFicheros}
          type="file"
          multiple
          hidden
          aria-label="Ficheros que subir"
          data-testid="ftp-ficheros"
          onChange={(ev) => {
            const lista = [...(ev.target.files ?? [])];
            ev.target.value = '';
            void subir(lista);
          }}
        />
        <button
          type="button"
          className="priv-boton priv-boton--secundario"
          disabled={sinCarpeta !== null}
          aria-describedby={sinCarpeta ? 'ftp-sin-carpeta' : undefined}
          onClick={() => setDialogo({ tipo: 'carpeta' })}
        >
          Nueva carpeta
        </button>
        <button type="button" className="priv-boton priv-boton--secundario" onClick={recargar}>
          Recargar
        </button>
      </div>
      {sinSubida ? (
        <p id="ftp-sin-subida" className="priv-nota ftp-nota-acciones">
          {sinSubida}
        </p>
      ) : (
        <p id="ftp-nota-subida" className="priv-nota ftp-nota-acciones">
          Hasta {tamanoFtp(MAX_SUBIDA_BYTES)} por fichero.
          {seProcesaAlSubir(carpeta) && ' Los ficheros que suba aquí se procesan automáticamente.'}
          <span className="ftp-solo-escritorio"> También puede arrastrarlos a la lista.</span>
        </p>
      )}
      {sinCarpeta && !sinSubida && (
        <p id="ftp-sin-carpeta" className="priv-nota">
          {sinCarpeta}
        </p>
      )}
      {sinCarpeta && sinSubida && (
        <p id="ftp-sin-carpeta" className="visually-hidden">
          {sinCarpeta}
        </p>
      )}

      <div role="status" className={aviso?.nivel === 'exito' ? 'priv-aviso priv-aviso--info ftp-aviso' : 'visually-hidden'}>
        {aviso?.nivel === 'exito' ? aviso.texto : ''}
      </div>
      {aviso?.nivel === 'error' && (
        <p className="priv-aviso priv-aviso--error" role="alert">
          {aviso.texto}
        </p>
      )}

      <Transferencias
        lista={transferencias}
        alLimpiar={() => setTransferencias((l) => l.filter((t) => t.estado === 'esperando' || t.estado === 'en-curso'))}
      />

      <div
        className={`ftp-lista${arrastrando ? ' ftp-lista--arrastrando' : ''}`}
        onDragOver={(ev) => {
          if (!ev.dataTransfer.types.includes('Files')) return;
          ev.preventDefault();
          ev.dataTransfer.dropEffect = sinSubida ? 'none' : 'copy';
          setArrastrando(!sinSubida);
        }}
        onDragLeave={() => setArrastrando(false)}
        onDrop={soltar}
      >
        {carga.fase === 'cargando' && <Cargando texto="Cargando la carpeta…" />}
        {carga.fase === 'error' && (
          <div className="priv-aviso priv-aviso--error" role="alert">
            <p>
              <strong>No hemos podido abrir la carpeta.</strong> {carga.mensaje}
            </p>
            <p className="ftp-botones">
              <button type="button" className="priv-boton priv-boton--secundario" onClick={recargar}>
                Reintentar
              </button>
              {carpeta !== '/' && (
                <button type="button" className="priv-boton priv-boton--secundario" onClick={() => abrir('/')}>
                  Ir a Mis carpetas
                </button>
              )}
            </p>
          </div>
        )}
        {carga.fase === 'lista' && elementos.length === 0 && <p className="ftp-vacia">Esta carpeta está vacía.</p>}
        {carga.fase === 'lista' && elementos.length > 0 && (
          <TablaFtp
            titulo={carpeta === '/' ? 'Mis carpetas' : carpeta}
            elementos={elementos}
            alAbrir={(e) => abrir(e.id)}
            alDescargar={(e) => void descargar(e)}
            alRenombrar={(e) => setDialogo({ tipo: 'renombrar', elemento: e })}
            alMover={(e) => setDialogo({ tipo: 'mover', elemento: e })}
            alBorrar={(e) => setDialogo({ tipo: 'borrar', elemento: e })}
          />
        )}
      </div>

      {dialogo?.tipo === 'carpeta' && (
        <DialogoNombre {...comunDialogo} cliente={cliente} modo={{ tipo: 'crear', carpeta }} existentes={nombres} />
      )}
      {dialogo?.tipo === 'renombrar' && (
        <DialogoNombre {...comunDialogo} cliente={cliente} modo={{ tipo: 'renombrar', elemento: dialogo.elemento }} existentes={nombres} />
      )}
      {dialogo?.tipo === 'mover' && <DialogoMover {...comunDialogo} cliente={cliente} elemento={dialogo.elemento} />}
      {dialogo?.tipo === 'borrar' && <DialogoBorrar {...comunDialogo} cliente={cliente} elemento={dialogo.elemento} />}
      {dialogo?.tipo === 'reemplazar' && <DialogoReemplazar nombre={dialogo.nombre} alResponder={dialogo.responder} />}
    </section>
  );
}
