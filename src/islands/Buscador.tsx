/** Search over the public pages with the Pagefind index built with the site. */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { fragmentosResaltados } from '../lib/resaltado.ts';

interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
}
interface PagefindApi {
  search(term: string): Promise<{ results: { id: string; data(): Promise<PagefindResultData> }[] }>;
}

/** Where the index lives; a variable keeps the bundler from resolving it at build time. */
const PAGEFIND_URL = '/pagefind/pagefind.js';

type Estado =
  { tipo: 'inicial' } | { tipo: 'buscando' } | { tipo: 'error' } | { tipo: 'resultados'; termino: string; items: PagefindResultData[] };

/** The search form and its results; reads `?q=` so a search can be linked. */
export default function Buscador() {
  const [termino, setTermino] = useState('');
  const [estado, setEstado] = useState<Estado>({ tipo: 'inicial' });
  const api = useRef<Promise<PagefindApi> | null>(null);
  const inputId = useId();

  const buscar = async (q: string) => {
    const limpio = q.trim();
    if (!limpio) {
      setEstado({ tipo: 'inicial' });
      return;
    }
    setEstado({ tipo: 'buscando' });
    try {
      api.current ??= import(/* @vite-ignore */ PAGEFIND_URL) as Promise<PagefindApi>;
      const pf = await api.current;
      const r = await pf.search(limpio);
      const items = await Promise.all(r.results.slice(0, 20).map((x) => x.data()));
      setEstado({ tipo: 'resultados', termino: limpio, items });
    } catch {
      api.current = null;
      setEstado({ tipo: 'error' });
    }
  };

  useEffect(() => {
    const q = new URLSearchParams(window.location.search).get('q') ?? '';
    if (q) {
      setTermino(q);
      void buscar(q);
    }
  }, []);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const url = new URL(window.location.href);
    url.searchParams.set('q', termino.trim());
    window.history.replaceState(null, '', url);
    void buscar(termino);
  };

  return (
    <div className="buscador">
      <form role="search" onSubmit={onSubmit} noValidate>
        <label htmlFor={inputId}>¿Qué busca?</label>
        <div className="fila">
          <input
            id={inputId}
            type="search"
            value={termino}
            onChange={(e) => setTermino(e.target.value)}
            autoComplete="off"
            placeholder="Por ejemplo: reclamación, autoconsumo, averías"
          />
          <button type="submit">Buscar</button>
        </div>
      </form>
      <div aria-live="polite" className="estado">
        {estado.tipo === 'buscando' && <p>Buscando…</p>}
        {estado.tipo === 'error' && <p>No se ha podido realizar la búsqueda. Inténtelo de nuevo.</p>}
        {estado.tipo === 'resultados' && (
          <p>
            {estado.items.length === 0
              ? `No hay resultados para «${estado.termino}». Pruebe con otras palabras.`
              : `${estado.items.length} ${estado.items.length === 1 ? 'resultado' : 'resultados'} para «${estado.termino}».`}
          </p>
        )}
      </div>
      {estado.tipo === 'resultados' && estado.items.length > 0 && (
        <ol className="resultados">
          {estado.items.map((r) => (
            <li key={r.url}>
              <a href={r.url}>{r.meta.title ?? r.url}</a>
              <p>
                {fragmentosResaltados(r.excerpt).map((f, i) =>
                  f.marcado ? <mark key={i}>{f.texto}</mark> : <span key={i}>{f.texto}</span>,
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
