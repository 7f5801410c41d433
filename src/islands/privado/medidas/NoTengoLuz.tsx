/**
 * /medidas/no-tengo-luz ("No tengo luz", docs/decisions/023): the holder picks one of their supply
 * points and learns, as on the public page, whether a network interruption or the meter explains
 * the lack of power, or gets the reference of the fault report registered in their account's name
 * (POST /api/averias/suministros/consulta). The answer is the public page's.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import type { RespuestaAveriaApi } from '../../../lib/averias/textos.ts';
import { Respuesta } from '../../comunes/RespuestaAveria.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, ErrorCarga, SelectorSuministro, SinSuministros, useSuministros } from './comun.tsx';
import './medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

type Estado =
  | { fase: 'inicial' }
  | { fase: 'consultando' }
  | { fase: 'listo'; cups: string; r: RespuestaAveriaApi }
  | { fase: 'error'; mensaje: string };

/** The screen. */
export default function NoTengoLuz({ ruta }: PropsPantalla) {
  const [carga, reintentar] = useSuministros('propios');
  const [cups, setCups] = useState('');
  const [estado, setEstado] = useState<Estado>({ fase: 'inicial' });
  const id = useId();

  // The first supply point is chosen once the list arrives.
  useEffect(() => {
    if (carga.fase === 'lista' && !carga.datos.some((s) => s.cups === cups)) setCups(carga.datos[0]?.cups ?? '');
  }, [carga, cups]);

  async function consultar(avisar: boolean) {
    if (!cups || estado.fase === 'consultando') return;
    setEstado({ fase: 'consultando' });
    const r = await apiFetch<RespuestaAveriaApi>(urlApi('/averias/suministros/consulta'), { method: 'POST', json: { cups, avisar } });
    setEstado(r.ok ? { fase: 'listo', cups, r: r.datos } : { fase: 'error', mensaje: mensajesDeError(r.error).join(' ') });
  }

  const enviar = (e: FormEvent) => {
    e.preventDefault();
    void consultar(false);
  };

  return (
    <div className="priv-pagina med">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Elija el suministro que se ha quedado sin luz. Le diremos al momento si hay una interrupción conocida en su zona o si su contador
        explica la falta de suministro y, si no, registraremos un aviso de avería a nombre de su cuenta, con una referencia. Para cualquier
        urgencia, llame al teléfono de averías de su distribuidora, gratuito y atendido las 24 horas.
      </p>
      {carga.fase === 'cargando' && <Cargando texto="Cargando sus suministros…" />}
      {carga.fase === 'error' && <ErrorCarga que="sus suministros" mensaje={carga.mensaje} reintentar={reintentar} />}
      {carga.fase === 'lista' && carga.datos.length === 0 && <SinSuministros />}
      {carga.fase === 'lista' && carga.datos.length > 0 && cups && (
        <>
          <form className="med-panel med-filtros" noValidate onSubmit={enviar} aria-label="Suministro sin luz">
            <SelectorSuministro
              id={`${id}-suministro`}
              suministros={carga.datos}
              cups={cups}
              alCambiar={(c) => {
                setCups(c);
                setEstado({ fase: 'inicial' });
              }}
            />
            <div>
              <button type="submit" className="priv-boton" aria-disabled={estado.fase === 'consultando' ? 'true' : undefined}>
                {estado.fase === 'consultando' ? 'Consultando…' : 'Comprobar'}
              </button>
            </div>
          </form>
          <div aria-live="polite">
            {estado.fase === 'listo' && estado.cups === cups && <Respuesta r={estado.r} alAvisar={() => void consultar(true)} />}
            {estado.fase === 'error' && (
              <div className="priv-aviso priv-aviso--error">
                <p>{estado.mensaje}</p>
              </div>
            )}
          </div>
        </>
      )}
    </div>
  );
}
