/**
 * /administrador/sips: for each distributor the user administers, load the supply-point register
 * from the distributor's SIPS2026 PS_ELECTRICIDAD file while the portal runs: first what the load
 * would change (per supply point, field by field, and what is kept because a later activation
 * decides it, docs/decisions/037), then the load once confirmed, with the upload's progress and
 * every faulty line listed if the file has any; and write the month's SIPS files again on demand
 * (docs/decisions/016).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { DISTRIBUIDORAS } from '../../../lib/distribuidoras.ts';
import { numero } from '../../../lib/formato/numeros.ts';
import { tamanoLegible } from '../../../lib/medidas/pantalla/descarga.ts';
import { $permisos, $session, logout } from '../../../lib/sesion/index.ts';
import { campoRegistro, distribuidorasSips, valorRegistro } from '../../../lib/sips/pantalla.ts';
import type { FicheroSipsRespuesta } from '../../../lib/sips/respuestas.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { FicherosSips } from './Sips.tsx';
import '../medidas/medidas.css';
import './sips.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The counts of a load, or of its preview. */
interface Cuentas {
  filas: number;
  nuevos: number;
  actualizados: number;
  sinCambios: number;
  conservados: number;
}

/** What a load would change (the preview's answer). */
interface Previa extends Cuentas {
  cambios: { cups: string; nuevo: boolean; campos: { campo: string; antes: string | null; despues: string | null }[] }[];
  camposConservados: { cups: string; campo: string; actual: string | null; fichero: string | null; motivo: string }[];
}

/** What the register upload answers. */
type RespuestaRegistro =
  | ({ fase: 'hecho' } & Cuentas)
  | ({ fase: 'previa' } & Previa)
  | { fase: 'rechazado'; filas: number; fallas: { linea: number; columna: string; motivo: string }[]; fallasOmitidas: number }
  | { fase: 'error'; mensaje: string };

/** What the server tells while it checks and loads the file (one JSON object per line). */
type Avance = { fase: 'procesando' } | { fase: 'comprobando'; filas: number } | { fase: 'cargando'; filas: number; total: number };

type EstadoSubida = { fase: 'libre' } | { fase: 'subiendo'; enviados: number; total: number } | Avance | RespuestaRegistro;

const SIN_CONEXION = 'No se ha podido enviar el fichero. Compruebe su conexión e inténtelo de nuevo.';

/**
 * Sends the file with XMLHttpRequest, the only browser API that reports an upload's progress, and
 * asks for the answer as NDJSON: the server then tells, line by line, how far its check and load
 * have gone, and ends with the result.
 */
function subirRegistro(
  distribuidora: string,
  fichero: File,
  alProgresar: (estado: Extract<EstadoSubida, { fase: 'subiendo' }> | Avance) => void,
  previa: boolean,
): Promise<RespuestaRegistro> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(
      'POST',
      previa
        ? urlApi('/administrador/sips/{distribuidora}/registro/previa', { path: { distribuidora } })
        : urlApi('/administrador/sips/{distribuidora}/registro', { path: { distribuidora } }),
    );
    const token = $session.get()?.jwtToken;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/x-ndjson, application/json;q=0.9');
    xhr.upload.onprogress = (e) => alProgresar({ fase: 'subiendo', enviados: e.loaded, total: fichero.size });
    xhr.upload.onload = () => alProgresar({ fase: 'procesando' });
    // The complete lines received so far; the last one, once the answer ends, is the result.
    const lineas = () =>
      xhr.responseText
        .split('\n')
        .slice(0, -1)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const esNdjson = () => (xhr.getResponseHeader('Content-Type') ?? '').startsWith('application/x-ndjson');
    xhr.onprogress = () => {
      if (xhr.status !== 200 || !esNdjson()) return;
      const ultima = lineas().at(-1);
      if (ultima && (ultima.fase === 'comprobando' || ultima.fase === 'cargando')) alProgresar(ultima as Avance);
    };
    xhr.onerror = () => resolve({ fase: 'error', mensaje: SIN_CONEXION });
    xhr.onload = () => {
      let cuerpo: Record<string, unknown> = {};
      try {
        cuerpo = (xhr.status === 200 && esNdjson() ? lineas().at(-1) : JSON.parse(xhr.responseText)) ?? {};
      } catch {
        // A proxy's page: the status says enough.
      }
      if (xhr.status === 200 && !esNdjson()) cuerpo = { ...cuerpo, fase: previa ? 'previa' : 'hecho' };
      if (xhr.status === 200 && (cuerpo.fase === 'hecho' || cuerpo.fase === 'previa')) resolve(cuerpo as RespuestaRegistro);
      else if (xhr.status === 422 || cuerpo.fase === 'rechazado')
        resolve({ ...(cuerpo as Omit<Extract<RespuestaRegistro, { fase: 'rechazado' }>, 'fase'>), fase: 'rechazado' });
      else {
        if (xhr.status === 401 || xhr.status === 403) logout();
        const mensaje = typeof cuerpo.message === 'string' ? cuerpo.message : `El servidor ha respondido ${xhr.status}.`;
        resolve({ fase: 'error', mensaje: xhr.status === 413 ? 'El fichero pasa de 1 GB: comprímalo con gzip o zip.' : mensaje });
      }
    };
    xhr.send(fichero);
  });
}

/** The register upload of one distributor. */
function CargaRegistro({ distribuidora, nombre, alCargar }: { distribuidora: string; nombre: string; alCargar: () => void }) {
  const id = useId();
  const entrada = useRef<HTMLInputElement>(null);
  const [estado, setEstado] = useState<EstadoSubida>({ fase: 'libre' });
  const [sinFichero, setSinFichero] = useState(false);
  // The file whose preview is shown: confirming loads that very file.
  const [revisado, setRevisado] = useState<File | null>(null);
  const resumen = useRef<HTMLHeadingElement>(null);
  const ocupado = ['subiendo', 'procesando', 'comprobando', 'cargando'].includes(estado.fase);

  const subir = async (fichero: File, previa: boolean) => {
    setEstado({ fase: 'subiendo', enviados: 0, total: fichero.size });
    const r = await subirRegistro(distribuidora, fichero, setEstado, previa);
    setEstado(r);
    setRevisado(r.fase === 'previa' ? fichero : null);
    if (r.fase === 'hecho') alCargar();
  };

  // The preview's heading takes the focus once shown, so a screen reader starts reading it.
  useEffect(() => {
    if (estado.fase === 'previa') resumen.current?.focus();
  }, [estado.fase]);

  const enviar = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    const fichero = entrada.current?.files?.[0];
    if (!fichero) {
      setSinFichero(true);
      entrada.current?.focus();
      return;
    }
    if (ocupado) return;
    setSinFichero(false);
    await subir(fichero, true);
  };

  const confirmar = async () => {
    if (!revisado || ocupado) return;
    await subir(revisado, false);
  };

  const cancelar = () => {
    setEstado({ fase: 'libre' });
    setRevisado(null);
    entrada.current?.focus();
  };

  return (
    <form className="med-panel sips-subida" noValidate onSubmit={(e) => void enviar(e)} aria-labelledby={`${id}-titulo`}>
      <h3 id={`${id}-titulo`}>
        Cargar el registro de suministros<span className="visually-hidden"> de {nombre}</span>
      </h3>
      <div className={`med-campo${sinFichero ? ' med-campo--error' : ''}`}>
        <label htmlFor={`${id}-fichero`}>Fichero SIPS2026 PS_ELECTRICIDAD</label>
        <p id={`${id}-ayuda`} className="med-campo__ayuda">
          CSV en UTF-8 con la cabecera de la CNMC, sin comprimir, .csv.gz o .zip. Antes de cargarlo verá qué cambia en cada suministro. Si
          alguna línea tiene errores no se carga nada.
        </p>
        {sinFichero && (
          <p id={`${id}-error`} className="med-campo__error">
            <span className="visually-hidden">Error: </span>Elija el fichero del registro.
          </p>
        )}
        <input
          ref={entrada}
          id={`${id}-fichero`}
          type="file"
          accept=".csv,.gz,.zip,text/csv,application/gzip,application/zip"
          aria-describedby={`${id}-ayuda${sinFichero ? ` ${id}-error` : ''}`}
          aria-invalid={sinFichero || undefined}
          onChange={() => {
            if (!ocupado) cancelar();
          }}
        />
      </div>
      <button type="submit" className="priv-boton" aria-disabled={ocupado || undefined}>
        Revisar los cambios
      </button>
      <div role="status">
        {estado.fase === 'subiendo' && (
          <>
            <p>
              Enviando el fichero: {tamanoLegible(estado.enviados)} de {tamanoLegible(estado.total)}.
            </p>
            <progress value={estado.enviados} max={estado.total} aria-label="Fichero enviado" />
          </>
        )}
        {estado.fase === 'procesando' && <p>Fichero recibido. Comprobando el registro… En un fichero grande puede tardar unos minutos.</p>}
        {estado.fase === 'comprobando' && <p>Comprobando el registro: {numero(estado.filas)} filas revisadas.</p>}
        {estado.fase === 'cargando' && (
          <>
            <p>
              El fichero no tiene errores. Cargando: {numero(estado.filas)} de {numero(estado.total)} suministros.
            </p>
            <progress value={estado.filas} max={estado.total} aria-label="Suministros cargados" />
          </>
        )}
        {estado.fase === 'hecho' && (
          <p>
            Registro cargado: {numero(estado.filas)} suministros, {numero(estado.nuevos)} nuevos, {numero(estado.actualizados)} actualizados
            y {numero(estado.sinCambios)} sin cambios.
            {estado.conservados > 0 &&
              ` En ${numero(estado.conservados)} se han conservado valores activados después de la fecha de los datos del fichero.`}
          </p>
        )}
        {estado.fase === 'error' && <p className="med-campo__error">No se ha cargado el registro: {estado.mensaje}</p>}
      </div>
      {estado.fase === 'previa' && revisado && (
        <VistaPrevia previa={estado} nombre={revisado.name} titulo={resumen} alConfirmar={() => void confirmar()} alCancelar={cancelar} />
      )}
      {estado.fase === 'rechazado' && (
        <div className="sips-rechazados">
          <h4>El fichero tiene errores y no se ha cargado nada</h4>
          <div className="sips-tabla-envoltorio" tabIndex={0} role="group" aria-label="Errores del fichero">
            <table className="sips-tabla">
              <caption className="visually-hidden">Errores del fichero, por línea</caption>
              <thead>
                <tr>
                  <th scope="col">Línea</th>
                  <th scope="col">Columna</th>
                  <th scope="col">Motivo</th>
                </tr>
              </thead>
              <tbody>
                {estado.fallas.map((f, i) => (
                  <tr key={i}>
                    <td className="sips-num">{f.linea || '—'}</td>
                    <td>{f.columna || '—'}</td>
                    <td>{f.motivo}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {estado.fallasOmitidas > 0 && <p>Y {numero(estado.fallasOmitidas)} errores más: corrija estos y vuelva a cargarlo.</p>}
        </div>
      )}
    </form>
  );
}

/** What loading the file would do, before it is done: the counts, each change and what is kept. */
function VistaPrevia({
  previa,
  nombre,
  titulo,
  alConfirmar,
  alCancelar,
}: {
  previa: Previa;
  nombre: string;
  titulo: RefObject<HTMLHeadingElement | null>;
  alConfirmar: () => void;
  alCancelar: () => void;
}) {
  const listados = previa.cambios.length;
  const cambios = previa.nuevos + previa.actualizados;
  return (
    <div className="sips-previa">
      <h4 ref={titulo} tabIndex={-1}>
        Qué cambiaría al cargar <span className="sips-nombre">{nombre}</span>
      </h4>
      <ul className="sips-previa__cuentas">
        <li>
          <strong>{numero(previa.nuevos)}</strong> {previa.nuevos === 1 ? 'suministro nuevo' : 'suministros nuevos'}
        </li>
        <li>
          <strong>{numero(previa.actualizados)}</strong> {previa.actualizados === 1 ? 'cambia' : 'cambian'}
        </li>
        <li>
          <strong>{numero(previa.sinCambios)}</strong> sin cambios
        </li>
        <li>
          <strong>{numero(previa.conservados)}</strong> con valores que se conservan
        </li>
      </ul>
      {cambios > 0 && (
        <div className="sips-tabla-envoltorio" tabIndex={0} role="group" aria-label="Cambios por suministro">
          <table className="sips-tabla sips-tabla--cambios sips-tabla--apilable">
            <caption>Cambios por suministro{cambios > listados ? ` (los ${numero(listados)} primeros de ${numero(cambios)})` : ''}</caption>
            <thead>
              <tr>
                <th scope="col">Suministro</th>
                <th scope="col">Campo</th>
                <th scope="col">Antes</th>
                <th scope="col">Después</th>
              </tr>
            </thead>
            <tbody>
              {previa.cambios.flatMap((c) =>
                c.nuevo
                  ? [
                      <tr key={c.cups}>
                        <th scope="row" className="sips-nombre">
                          {c.cups}
                        </th>
                        <td colSpan={3}>Suministro nuevo: se crea con los datos del fichero.</td>
                      </tr>,
                    ]
                  : c.campos.map((f, i) => (
                      <tr key={`${c.cups}-${f.campo}`}>
                        {i === 0 && (
                          <th scope="row" rowSpan={c.campos.length} className="sips-nombre">
                            {c.cups}
                          </th>
                        )}
                        <td data-etiqueta="Campo">{campoRegistro(f.campo)}</td>
                        <td data-etiqueta="Antes">{valorRegistro(f.antes)}</td>
                        <td data-etiqueta="Después">{valorRegistro(f.despues)}</td>
                      </tr>
                    )),
              )}
            </tbody>
          </table>
        </div>
      )}
      {previa.camposConservados.length > 0 && (
        <div className="sips-tabla-envoltorio" tabIndex={0} role="group" aria-label="Valores que se conservan">
          <table className="sips-tabla sips-tabla--apilable">
            <caption>Valores que se conservan: se activaron después de la fecha de los datos del fichero</caption>
            <thead>
              <tr>
                <th scope="col">Suministro</th>
                <th scope="col">Campo</th>
                <th scope="col">Se conserva</th>
                <th scope="col">El fichero trae</th>
                <th scope="col">Por</th>
              </tr>
            </thead>
            <tbody>
              {previa.camposConservados.map((k) => (
                <tr key={`${k.cups}-${k.campo}`}>
                  <th scope="row" className="sips-nombre">
                    {k.cups}
                  </th>
                  <td data-etiqueta="Campo">{campoRegistro(k.campo)}</td>
                  <td data-etiqueta="Se conserva">{valorRegistro(k.actual)}</td>
                  <td data-etiqueta="El fichero trae">{valorRegistro(k.fichero)}</td>
                  <td data-etiqueta="Por">{k.motivo}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        {cambios === 0 && previa.conservados === 0
          ? 'El fichero no cambia nada del registro.'
          : 'Nada ha cambiado todavía: revise la lista y confirme para cargar el registro.'}
      </p>
      <div className="sips-botones">
        <button type="button" className="priv-boton" onClick={alConfirmar}>
          Cargar el registro
        </button>
        <button type="button" className="priv-boton priv-boton--secundario" onClick={alCancelar}>
          Cancelar
        </button>
      </div>
    </div>
  );
}

/** Writing the month's files again. */
function GenerarMes({ distribuidora, alGenerar }: { distribuidora: string; alGenerar: () => void }) {
  const [estado, setEstado] = useState<{ fase: 'libre' | 'generando' } | { fase: 'hecho'; n: number } | { fase: 'error'; mensaje: string }>(
    {
      fase: 'libre',
    },
  );
  const generar = async () => {
    if (estado.fase === 'generando') return;
    setEstado({ fase: 'generando' });
    const r = await apiFetch<FicheroSipsRespuesta[]>(urlApi('/administrador/sips/{distribuidora}/ficheros', { path: { distribuidora } }), {
      method: 'POST',
      json: {},
    });
    setEstado(r.ok ? { fase: 'hecho', n: r.datos.length } : { fase: 'error', mensaje: r.error.mensaje });
    if (r.ok) alGenerar();
  };
  return (
    <div className="sips-botones">
      <button
        type="button"
        className="priv-boton priv-boton--secundario"
        onClick={() => void generar()}
        aria-disabled={estado.fase === 'generando' || undefined}
      >
        Generar de nuevo los ficheros de este mes
      </button>
      <p role="status">
        {estado.fase === 'generando' && 'Generando los cuatro ficheros… En una distribuidora grande puede tardar unos minutos.'}
        {estado.fase === 'hecho' && `Ficheros generados: ${estado.n}.`}
        {estado.fase === 'error' && `No se han generado: ${estado.mensaje}`}
      </p>
    </div>
  );
}

/** The SIPS administration screen. */
export default function SipsAdmin({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  const distribuidoras = distribuidorasSips(permisos, 'administrador');
  const [version, setVersion] = useState(0);
  return (
    <div className="priv-pagina med med--ancha">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        El registro de puntos de suministro de cada distribuidora se carga desde su fichero SIPS2026 PS_ELECTRICIDAD, el mismo formato que
        el portal publica. Los ficheros SIPS de cada mes se generan solos el día 1; aquí puede generarlos de nuevo tras cargar el registro.
      </p>
      {distribuidoras.map((d) => {
        const nombre = DISTRIBUIDORAS.find((x) => x.codigo === d)!.nombre;
        return (
          <section key={d} aria-labelledby={`sips-admin-${d}`}>
            <h2 id={`sips-admin-${d}`}>{nombre}</h2>
            <CargaRegistro distribuidora={d} nombre={nombre} alCargar={() => setVersion((n) => n + 1)} />
            <h3>Ficheros SIPS</h3>
            <GenerarMes distribuidora={d} alGenerar={() => setVersion((n) => n + 1)} />
            <FicherosSips key={`${d}-${version}`} distribuidora={d} />
          </section>
        );
      })}
    </div>
  );
}
