/**
 * The answer of "No tengo luz" (docs/decisions/023) in plain words, with the distributor's 24-hour
 * fault line: shared by the public page's island and the private area's screen. It lives apart from
 * the island so the private area's lazily loaded screen does not import an island entry (whose
 * stylesheet Astro moves into the public page's own CSS).
 */
import { textosRespuesta, type RespuestaAveriaApi } from '../../lib/averias/textos.ts';
import './respuesta-averia.css';

const formato = new Intl.DateTimeFormat('es-ES', {
  timeZone: 'Europe/Madrid',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
});
const fecha = (iso: string) => formato.format(new Date(iso));

/**
 * The answer, read out to screen readers as it arrives. Its heading is an h2 (under the page's h1)
 * unless `nivel` says otherwise; `alAvisar` offers to register a report when the meter explains it.
 */
export function Respuesta({ r, alAvisar, nivel = 2 }: { r: RespuestaAveriaApi; alAvisar?: (() => void) | undefined; nivel?: 2 | 3 }) {
  const t = textosRespuesta(r, fecha);
  const tel = r.distribuidora?.telefonoAverias;
  const H = nivel === 2 ? 'h2' : 'h3';
  return (
    <div className={`ntl-respuesta ntl-${r.resultado}`}>
      <H className="ntl-respuesta__titulo">{t.titulo}</H>
      {t.parrafos.map((p) => (
        <p key={p}>{p}</p>
      ))}
      {t.pasos.length > 0 && (
        <ol>
          {t.pasos.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ol>
      )}
      {tel && r.distribuidora && (
        <p className="ntl-telefono">
          Averías de {r.distribuidora.nombre}, 24 horas, gratuito: <a href={`tel:${tel.e164}`}>{tel.texto}</a>
        </p>
      )}
      {r.proximas.length > 0 && (
        <p>
          Además, hay trabajos programados en su zona:{' '}
          {r.proximas.map((p) => `${fecha(p.inicio)} (${p.descripcion.replace(/\.$/, '')})`).join('; ')}.
        </p>
      )}
      {alAvisar && r.resultado === 'contador' && r.situacionContador !== 'cortado' && (
        <button type="button" className="boton" onClick={alAvisar}>
          He seguido los pasos y sigo sin luz: registrar un aviso
        </button>
      )}
    </div>
  );
}
