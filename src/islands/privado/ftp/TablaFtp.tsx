/**
 * The contents of a folder on the FTP screen: one row per folder or file with its name (a button:
 * a folder opens, a file downloads), size, date and the actions it allows. The folders that always
 * exist say so instead of offering actions they cannot take. On a phone the size and date move
 * under the name, so the table needs no sideways scrolling.
 */
import {
  descripcionCarpeta,
  fechaHoraFtp,
  nombreCarpetaDistribuidora,
  tamanoFtp,
  type ElementoFtp,
} from '../../../lib/intercambio/pantalla.ts';

/** Props of `TablaFtp`. */
export interface TablaFtpProps {
  /** The folder shown, for the caption. */
  titulo: string;
  elementos: readonly ElementoFtp[];
  alAbrir: (e: ElementoFtp) => void;
  alDescargar: (e: ElementoFtp) => void;
  alRenombrar: (e: ElementoFtp) => void;
  alMover: (e: ElementoFtp) => void;
  alBorrar: (e: ElementoFtp) => void;
}

/** A folder or a page with a folded corner, drawn in the current colour; hidden from assistive technology. */
export function Icono({ carpeta }: { carpeta: boolean }) {
  return carpeta ? (
    <svg className="ftp-icono ftp-icono--carpeta" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M2.5 6.5a2 2 0 0 1 2-2h4.6l2 2.2h8.4a2 2 0 0 1 2 2v9.8a2 2 0 0 1-2 2h-15a2 2 0 0 1-2-2z" />
    </svg>
  ) : (
    <svg className="ftp-icono ftp-icono--fichero" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 2.5h8.2l4.8 4.8v13.2a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-17a1 1 0 0 1 1-1z" />
      <path className="ftp-icono__esquina" d="M14 2.5v5h5" />
    </svg>
  );
}

/** The sentence under a name: what a fixed folder is for, or the distributor of a top folder. */
function nota(e: ElementoFtp): string | null {
  if (e.parent === '/') return nombreCarpetaDistribuidora(e.name);
  return e.fixed ? descripcionCarpeta(e.id) : null;
}

/** The table of a folder's contents. */
export function TablaFtp(p: TablaFtpProps) {
  return (
    <table className="ftp-tabla">
      <caption className="visually-hidden">Contenido de {p.titulo}</caption>
      <thead>
        <tr>
          <th scope="col">Nombre</th>
          <th scope="col" className="ftp-num ftp-col-ancha">
            Tamaño
          </th>
          <th scope="col" className="ftp-col-ancha">
            Modificado
          </th>
          <th scope="col">Acciones</th>
        </tr>
      </thead>
      <tbody>
        {p.elementos.map((e) => {
          const n = nota(e);
          const fecha = fechaHoraFtp(e.modified);
          return (
            <tr key={e.id} className={e.isFolder ? 'ftp-fila ftp-fila--carpeta' : 'ftp-fila'}>
              <th scope="row" className="ftp-nombre">
                <button
                  type="button"
                  className="ftp-enlace"
                  onClick={() => (e.isFolder ? p.alAbrir(e) : p.alDescargar(e))}
                  data-ruta={e.id}
                >
                  <Icono carpeta={e.isFolder} />
                  <span className="ftp-enlace__texto">{e.name}</span>
                  <span className="visually-hidden">{e.isFolder ? ' (carpeta, abrir)' : ' (fichero, descargar)'}</span>
                </button>
                {e.fromDistributor && <span className="ftp-marca">De la distribuidora</span>}
                {n && <span className="ftp-nota">{n}</span>}
                {/* On a phone the size and date columns are hidden: they are written here instead. */}
                {!(e.isFolder && fecha === '—') && (
                  <span className="ftp-meta-movil">
                    {!e.isFolder && <span>{tamanoFtp(e.size)}</span>}
                    {!e.isFolder && ' · '}
                    <span>{fecha}</span>
                  </span>
                )}
              </th>
              <td className="ftp-num ftp-col-ancha">
                {e.isFolder ? (
                  <>
                    <span aria-hidden="true">—</span>
                    <span className="visually-hidden">Sin tamaño</span>
                  </>
                ) : (
                  tamanoFtp(e.size)
                )}
              </td>
              <td className="ftp-col-ancha ftp-fecha">{fecha}</td>
              <td className="ftp-acciones">
                {e.fixed ? (
                  <span className="ftp-fija">
                    Carpeta fija<span className="visually-hidden">: no se puede renombrar, mover ni borrar</span>
                  </span>
                ) : (
                  <div className="ftp-acciones__botones">
                    {!e.isFolder && (
                      <button type="button" className="ftp-accion" onClick={() => p.alDescargar(e)}>
                        Descargar<span className="visually-hidden"> {e.name}</span>
                      </button>
                    )}
                    <button type="button" className="ftp-accion" onClick={() => p.alRenombrar(e)}>
                      Renombrar<span className="visually-hidden"> {e.name}</span>
                    </button>
                    <button type="button" className="ftp-accion" onClick={() => p.alMover(e)}>
                      Mover<span className="visually-hidden"> {e.name}</span>
                    </button>
                    <button type="button" className="ftp-accion ftp-accion--peligro" onClick={() => p.alBorrar(e)}>
                      Borrar<span className="visually-hidden"> {e.name}</span>
                    </button>
                  </div>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
