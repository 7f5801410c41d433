/**
 * The account's list of queries or of claims: the intro, a message left by the screen that sent the
 * user here (a draft deleted), the button that starts a new one, and the list or why it is empty.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { apiCasos, resumenCasos } from '../../../lib/contacto/pantalla.ts';
import type { ProcedimientoContacto } from '../../../lib/contacto/procedimientos.ts';
import type { CasoContactoResumen } from '../../../lib/contacto/respuestas.ts';
import { Cargando, ErrorCarga, type Carga } from '../medidas/comun.tsx';
import { $avisoContacto, ListaCasos } from './comun.tsx';

/** Props of `ListaPropia`. */
export interface ListaPropiaProps {
  titulo: string;
  procedimiento: ProcedimientoContacto;
  intro: ReactNode;
  nueva: { href: string; texto: string };
  vacio: ReactNode;
  hoy: string;
}

/** The list screen of one procedure. */
export function ListaPropia(p: ListaPropiaProps) {
  const [lista, setLista] = useState<Carga<CasoContactoResumen[]>>({ fase: 'cargando' });
  const [recarga, setRecarga] = useState(0);
  const [aviso] = useState(() => $avisoContacto.get());
  const cajaAviso = useRef<HTMLDivElement>(null);
  const que = p.procedimiento === 'consulta' ? 'sus consultas' : 'sus reclamaciones';

  useEffect(() => {
    const peticion = new AbortController();
    setLista({ fase: 'cargando' });
    void apiFetch<CasoContactoResumen[]>(apiCasos(p.procedimiento), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setLista(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [recarga, p.procedimiento]);

  useEffect(() => {
    $avisoContacto.set(null);
    cajaAviso.current?.focus();
  }, []);

  return (
    <div className="priv-pagina med med--ancha ac ct">
      <h1 tabIndex={-1}>{p.titulo}</h1>
      <p className="med-intro">{p.intro}</p>
      {aviso && (
        <div ref={cajaAviso} tabIndex={-1} className="priv-aviso priv-aviso--info ct-anuncio" role="status">
          <p>{aviso}</p>
        </div>
      )}
      <p>
        <a className="priv-boton ac-boton-enlace" href={p.nueva.href}>
          {p.nueva.texto}
        </a>
      </p>
      <section aria-labelledby="ct-lista-titulo" className="ac-lista">
        <h2 id="ct-lista-titulo">{p.procedimiento === 'consulta' ? 'Sus consultas' : 'Sus reclamaciones'}</h2>
        {lista.fase === 'cargando' && <Cargando texto={`Cargando ${que}…`} />}
        {lista.fase === 'error' && <ErrorCarga que={que} mensaje={lista.mensaje} reintentar={() => setRecarga((n) => n + 1)} />}
        {lista.fase === 'lista' && lista.datos.length === 0 && p.vacio}
        {lista.fase === 'lista' && lista.datos.length > 0 && (
          <>
            <p className="med-nota-linea">{resumenCasos(lista.datos, p.procedimiento)}</p>
            <ListaCasos procedimiento={p.procedimiento} filas={lista.datos} hoy={p.hoy} />
          </>
        )}
      </section>
    </div>
  );
}
