/**
 * /medidas/certificado-consumo: issue a PDF certificate of a supply point's consumption
 * for whole past months (by default the last twelve), and list the certificates issued, newest first,
 * each downloadable again and checkable on the public verification page. The server makes the PDF;
 * the rules and words live in src/lib/certificados/.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import { erroresPeriodo, mesEnCurso, periodoPorDefecto, sumarMeses, zonaHorariaDeIne } from '../../../lib/certificados/periodo.ts';
import {
  enlaceVerificacion,
  resumenCertificado,
  tituloCertificado,
  type CertificadoRespuesta,
} from '../../../lib/certificados/pantalla.ts';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import { Dato } from '../../comunes/Dato.tsx';
import '../../sesion/sesion.css';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, Cups, ErrorCarga, SelectorSuministro, SinSuministros, useSuministros, Vacio, type Carga } from './comun.tsx';
import { CamposPeriodo, erroresDePeriodo, type DefinicionPeriodo } from './periodo.tsx';
import { Descargas } from './Descargas.tsx';
import './medidas.css';
import './certificados.css';
import { urlApi } from '../../../lib/api/rutas.ts';

const ID_SUMINISTRO = 'cert-suministro';
/** The months' fields. */
const PERIODO: DefinicionPeriodo = {
  tipo: 'month',
  ids: { desde: 'cert-desde', hasta: 'cert-hasta' },
  etiquetas: ['Desde el mes', 'Hasta el mes'],
};

/** The list of issued certificates (GET /api/certificados), with a reload. */
function useCertificados(): [Carga<CertificadoRespuesta[]>, () => void] {
  const [carga, setCarga] = useState<Carga<CertificadoRespuesta[]>>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    const control = new AbortController();
    void apiFetch<CertificadoRespuesta[]>(urlApi('/certificados'), { signal: control.signal }).then((r) => {
      if (control.signal.aborted) return;
      setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => control.abort();
  }, [intento]);
  return [carga, () => setIntento((n) => n + 1)];
}

/** One issued certificate in the list. */
function TarjetaCertificado({ c, nuevo }: { c: CertificadoRespuesta; nuevo: boolean }) {
  const r = resumenCertificado(c);
  const idTitulo = `cert-${c.id}`;
  return (
    <li className="med-tarjeta" aria-labelledby={idTitulo} data-certificado={c.codigo}>
      <h3 id={idTitulo} className="med-tarjeta__titulo">
        {tituloCertificado(c)}
        <span className="med-tarjeta__lugar">
          {c.direccion}
          {nuevo && <strong> · Recién emitido</strong>}
        </span>
      </h3>
      <dl className="med-tarjeta__datos">
        <Dato t="CUPS">
          <Cups cups={c.cups} />
        </Dato>
        <Dato t="Código de verificación">
          <span className="med-cups">{c.codigo}</span>
        </Dato>
        <Dato t="Consumo certificado">
          {r.consumo}
          {r.sinDato && <span className="med-sub">{r.sinDato}</span>}
        </Dato>
        <Dato t="Emitido">{r.emitido}</Dato>
      </dl>
      {!c.titularActual && (
        <p className="med-nota-linea">Ya no figura como titular de este suministro; el certificado sigue siendo suyo y válido.</p>
      )}
      <Descargas
        ficheros={[{ texto: 'Descargar el PDF', ruta: urlApi('/certificados/{id}/pdf', { path: { id: c.id } }), nombre: c.fichero }]}
      />
      <ul className="med-tarjeta__enlaces">
        <li>
          <a href={enlaceVerificacion(c.codigo)}>
            Verificar este certificado<span className="visually-hidden"> ({c.codigo})</span>
          </a>
        </li>
      </ul>
    </li>
  );
}

/** The consumption certificates screen. */
export default function Certificados({ ruta }: PropsPantalla) {
  const [lista, reintentarLista] = useSuministros('certificados');
  const suministros = lista.fase === 'lista' ? lista.datos : null;
  const [cups, setCups] = useState('');
  const suministro = suministros ? (suministros.find((s) => s.cups === cups) ?? suministros[0] ?? null) : null;
  const mesActual = useMemo(() => mesEnCurso(Date.now(), zonaHorariaDeIne(suministro?.codigoIne ?? '28')), [suministro?.codigoIne]);
  const [borrador, setBorrador] = useState(() => periodoPorDefecto(mesEnCurso(Date.now())));
  const f = useErrores();
  const [enviando, setEnviando] = useState(false);
  const [emitido, setEmitido] = useState<CertificadoRespuesta | null>(null);
  const [certificados, recargar] = useCertificados();

  const emitir = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (!suministro || enviando) return;
    if (!f.comprobar(erroresDePeriodo(erroresPeriodo(borrador.desde, borrador.hasta, mesActual), PERIODO.ids))) return;
    setEmitido(null);
    setEnviando(true);
    const r = await apiFetch<CertificadoRespuesta>(urlApi('/certificados'), {
      method: 'POST',
      json: { cups: suministro.cups, desde: borrador.desde, hasta: borrador.hasta },
    });
    setEnviando(false);
    if (r.ok) {
      setEmitido(r.datos);
      recargar();
      return;
    }
    // The server's refusal (no measures in those months, too many certificates…) points at the months.
    f.comprobar(mensajesDeError(r.error).map((mensaje, i) => ({ campo: i === 0 ? PERIODO.ids.desde : PERIODO.ids.hasta, mensaje })));
  };

  const maximo = sumarMeses(mesActual, -1);

  return (
    <div className="priv-pagina med med--ancha">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Obtenga un certificado en PDF del consumo de uno de sus suministros, mes a mes y por periodo tarifario, emitido por su
        distribuidora. Lleva un código con el que cualquiera puede comprobar que es auténtico en la página{' '}
        <a href="/verificar-certificado">Verificar un certificado</a>.
      </p>

      {lista.fase === 'cargando' && <Cargando texto="Cargando sus suministros…" />}
      {lista.fase === 'error' && <ErrorCarga que="sus suministros" mensaje={lista.mensaje} reintentar={reintentarLista} />}
      {suministros && suministros.length === 0 && <SinSuministros />}

      {suministros && suministro && (
        <form className="med-panel med-filtros" noValidate onSubmit={(e) => void emitir(e)} aria-labelledby="cert-emitir-titulo">
          <h2 id="cert-emitir-titulo" className="cert-titulo">
            Emitir un certificado
          </h2>
          <ResumenErrores titulo="No hemos podido emitir el certificado:" errores={f.errores} intento={f.intento} />
          <SelectorSuministro id={ID_SUMINISTRO} suministros={suministros} cups={suministro.cups} alCambiar={setCups} />
          <div className="med-filtros__fechas">
            <CamposPeriodo {...PERIODO} valor={borrador} poner={setBorrador} errorDe={f.errorDe} max={maximo} />
            <button type="submit" className="priv-boton med-filtros__ver" aria-disabled={enviando || undefined}>
              {enviando && <span className="priv-cargando__giro med-giro-boton" aria-hidden="true"></span>}
              Emitir certificado
            </button>
          </div>
          <p className="med-nota-linea">
            Meses completos ya terminados, hasta 24; por defecto, los últimos doce. El certificado indica cuánta energía procede de medidas
            reales y cuánta de estimaciones, y cuántas horas no tienen dato (no se cuentan como consumo cero).
          </p>
          <p className="med-descargas__estado" role="status">
            {enviando && 'Preparando el certificado…'}
            {emitido && `Certificado emitido con el código ${emitido.codigo}. Puede descargarlo en la lista de certificados emitidos.`}
          </p>
        </form>
      )}

      {suministros && suministros.length > 0 && (
        <section className="med-resultado" aria-labelledby="cert-lista-titulo" aria-busy={certificados.fase === 'cargando'}>
          <h2 id="cert-lista-titulo" className="med-navegacion__titulo">
            Certificados emitidos
          </h2>
          {certificados.fase === 'cargando' && <Cargando texto="Cargando sus certificados…" />}
          {certificados.fase === 'error' && <ErrorCarga que="sus certificados" mensaje={certificados.mensaje} reintentar={recargar} />}
          {certificados.fase === 'lista' && certificados.datos.length === 0 && (
            <Vacio titulo="Todavía no ha emitido ningún certificado" nivel="h3">
              <p>
                Cuando emita uno, aparecerá aquí y podrá descargarlo de nuevo cuando quiera: siempre el mismo documento, con el mismo
                código.
              </p>
            </Vacio>
          )}
          {certificados.fase === 'lista' && certificados.datos.length > 0 && (
            <ul className="med-tarjetas">
              {certificados.datos.map((c) => (
                <TarjetaCertificado key={c.id} c={c} nuevo={c.id === emitido?.id} />
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
