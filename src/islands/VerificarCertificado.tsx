/**
 * The public verification page's island: a form for the code (prefilled, and checked at
 * once, when the address carries `?codigo=`), the answer in plain Spanish, and the optional check of
 * a PDF copy, hashed in the browser: nothing is uploaded. The logic is in src/lib/certificados/.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { codigoCanonico, errorCodigo } from '../lib/certificados/codigo.ts';
import { fechaHoraEmision, kwhCertificado, textoPeriodo, tituloPeriodo } from '../lib/certificados/contenido.ts';
import {
  consultarCodigo,
  filasMeses,
  huellaLegible,
  huellaSha256,
  type ResultadoVerificacion,
  type VerificacionRespuesta,
} from '../lib/certificados/verificacion.ts';
import type { ZonaHoraria } from '../lib/calendario/hora-civil.ts';
import { CampoTexto } from './comunes/formulario/CampoTexto.tsx';
import { ResumenErrores } from './comunes/formulario/ResumenErrores.tsx';
import { useErrores } from './comunes/formulario/usar-errores.ts';
import { Dato } from './comunes/Dato.tsx';
import './sesion/sesion.css';
import './VerificarCertificado.css';

const ID_CODIGO = 'verificar-codigo';

type Estado = { fase: 'inicio' } | { fase: 'consultando' } | { fase: 'hecho'; resultado: ResultadoVerificacion };

/** The page's island: takes no props; the code comes from the form or the address. */
export default function VerificarCertificado() {
  const [codigo, setCodigo] = useState('');
  const f = useErrores();
  const [estado, setEstado] = useState<Estado>({ fase: 'inicio' });
  const resultado = useRef<HTMLHeadingElement>(null);
  const enfocar = useRef(false);

  const verificar = async (texto: string, mover: boolean) => {
    const error = errorCodigo(texto);
    if (!f.comprobar(error ? [{ campo: ID_CODIGO, mensaje: error }] : [])) {
      setEstado({ fase: 'inicio' });
      return;
    }
    const canonico = codigoCanonico(texto)!;
    setCodigo(canonico);
    // The address names the code checked, so a reload or a shared link shows the same answer.
    history.replaceState(null, '', `${location.pathname}?codigo=${encodeURIComponent(canonico)}`);
    setEstado({ fase: 'consultando' });
    const r = await consultarCodigo(canonico);
    enfocar.current = mover;
    setEstado({ fase: 'hecho', resultado: r });
  };

  // A code in the address (the link printed in a certificate) is checked as the page opens.
  useEffect(() => {
    const enDireccion = new URLSearchParams(location.search).get('codigo');
    if (enDireccion) {
      setCodigo(enDireccion);
      void verificar(enDireccion, false);
    }
  }, []);

  // After a check the visitor asked for, focus goes to the answer's heading, which announces it.
  useEffect(() => {
    if (estado.fase === 'hecho' && enfocar.current) {
      enfocar.current = false;
      resultado.current?.focus();
    }
  }, [estado]);

  const enviar = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    void verificar(codigo, true);
  };

  return (
    <div className="verif">
      <div className="sesion verif-formulario">
        <form className="sesion__tarjeta" noValidate onSubmit={enviar} aria-labelledby="verif-form-titulo">
          <h2 id="verif-form-titulo" className="verif-subtitulo">
            Código de verificación
          </h2>
          <ResumenErrores titulo="Revise el código:" errores={f.errores} intento={f.intento} />
          <CampoTexto
            {...f.campo(ID_CODIGO)}
            etiqueta="Código del certificado"
            ayuda="16 letras y números, tal como figuran en el certificado (por ejemplo, 7K2M-9QXD-R4TB-H0WZ). Da igual mayúsculas, minúsculas, espacios o guiones."
            valor={codigo}
            alCambiar={setCodigo}
            autoComplete="off"
            autoCapitalize="characters"
          />
          <button type="submit" className="sesion__enviar" aria-disabled={estado.fase === 'consultando' || undefined}>
            Verificar
          </button>
        </form>
      </div>

      <p className="verif-estado" role="status">
        {estado.fase === 'consultando' && 'Consultando el código…'}
        {estado.fase === 'hecho' &&
          estado.resultado.tipo === 'valido' &&
          `El código ${estado.resultado.datos.codigo} corresponde a un certificado auténtico.`}
        {estado.fase === 'hecho' && estado.resultado.tipo === 'desconocido' && 'El código no corresponde a ningún certificado emitido.'}
        {estado.fase === 'hecho' && estado.resultado.tipo === 'error' && 'No se ha podido comprobar el código.'}
      </p>

      {estado.fase === 'hecho' && estado.resultado.tipo === 'valido' && <Autentico datos={estado.resultado.datos} titulo={resultado} />}
      {estado.fase === 'hecho' && estado.resultado.tipo !== 'valido' && (
        <section
          className={`verif-resultado verif-resultado--${estado.resultado.tipo === 'desconocido' ? 'no' : 'error'}`}
          aria-labelledby="verif-resultado-titulo"
        >
          <h2 id="verif-resultado-titulo" ref={resultado} tabIndex={-1}>
            <span className="verif-icono" aria-hidden="true">
              {estado.resultado.tipo === 'desconocido' ? '✕' : '!'}
            </span>
            {estado.resultado.tipo === 'desconocido' ? 'Código no válido' : 'No se ha podido comprobar'}
          </h2>
          <p>{estado.resultado.mensaje}</p>
        </section>
      )}
    </div>
  );
}

/** A genuine certificate: what it stated, and the check of a PDF copy. */
function Autentico({ datos, titulo }: { datos: VerificacionRespuesta; titulo: React.RefObject<HTMLHeadingElement | null> }) {
  const zona = datos.zonaHoraria as ZonaHoraria;
  return (
    <>
      <section className="verif-resultado verif-resultado--si" aria-labelledby="verif-resultado-titulo">
        <h2 id="verif-resultado-titulo" ref={titulo} tabIndex={-1}>
          <span className="verif-icono" aria-hidden="true">
            ✓
          </span>
          Certificado auténtico
        </h2>
        <p>
          {datos.distribuidora.nombre} emitió un certificado de consumo con el código <span className="verif-mono">{datos.codigo}</span>.
          Esto es lo que declaraba:
        </p>
        <dl className="verif-datos">
          <Dato t="Distribuidora">
            {datos.distribuidora.nombre} (NIF {datos.distribuidora.nif})
          </Dato>
          <Dato t="Titular">
            {datos.titular.nombre}, NIF <span className="verif-mono">{datos.titular.nif}</span>
            <span className="verif-sub">Por privacidad, solo se muestran cuatro cifras del NIF.</span>
          </Dato>
          <div>
            <dt>CUPS</dt>
            <dd className="verif-mono">{datos.cups}</dd>
          </div>
          <Dato t="Periodo">{textoPeriodo(datos.periodo).replace(/^del/, 'Del')}</Dato>
          <Dato t="Tarifa de acceso">{datos.tarifa}</Dato>
          <Dato t="Emitido">El {fechaHoraEmision(datos.emitidoEn, zona)}</Dato>
        </dl>
        <div className="verif-tabla" role="region" aria-labelledby="verif-meses-titulo" tabIndex={0}>
          <table>
            <caption id="verif-meses-titulo">Consumo certificado por mes</caption>
            <thead>
              <tr>
                <th scope="col">Mes</th>
                <th scope="col" className="verif-num">
                  Consumo
                </th>
                <th scope="col" className="verif-num">
                  Horas sin dato
                </th>
              </tr>
            </thead>
            <tbody>
              {filasMeses(datos).map((f) => (
                <tr key={f.mes}>
                  <th scope="row">{f.nombre}</th>
                  <td className="verif-num">{f.consumo}</td>
                  <td className="verif-num">{f.sinDato}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td className="verif-num">{kwhCertificado(datos.total.totalWh)} kWh</td>
                <td className="verif-num">{datos.total.horasSinDato}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        <p className="verif-nota">
          El certificado detalla además el consumo de cada mes por periodo ({datos.periodos.map(tituloPeriodo).join(', ')}) y qué parte
          procede de medidas reales y qué parte de estimaciones. Las horas sin dato no suman en ningún total.
        </p>
        <p className="verif-nota">
          Huella SHA-256 del PDF emitido: <span className="verif-mono verif-huella">{huellaLegible(datos.sha256)}</span>
        </p>
      </section>
      <ComprobarPdf sha256={datos.sha256} />
    </>
  );
}

type EstadoFichero =
  | { fase: 'nada' }
  | { fase: 'calculando'; nombre: string }
  | { fase: 'hecho'; nombre: string; coincide: boolean; huella: string }
  | { fase: 'error'; mensaje: string };

/** The check of a PDF copy: its SHA-256, computed here, against the one issued. */
function ComprobarPdf({ sha256 }: { sha256: string }) {
  const [estado, setEstado] = useState<EstadoFichero>({ fase: 'nada' });
  const elegir = async (fichero: File | undefined) => {
    if (!fichero) {
      setEstado({ fase: 'nada' });
      return;
    }
    setEstado({ fase: 'calculando', nombre: fichero.name });
    try {
      const huella = await huellaSha256(await fichero.arrayBuffer());
      setEstado({ fase: 'hecho', nombre: fichero.name, coincide: huella === sha256, huella });
    } catch {
      setEstado({
        fase: 'error',
        mensaje:
          'Su navegador no permite calcular la huella del fichero en esta página (hace falta una conexión segura, HTTPS). Compare la huella a mano con la de arriba.',
      });
    }
  };
  return (
    <section className="verif-pdf" aria-labelledby="verif-pdf-titulo">
      <h2 id="verif-pdf-titulo" className="verif-subtitulo">
        Comprobar su copia del PDF
      </h2>
      <p>
        Si tiene el fichero PDF del certificado, puede comprobar que es exactamente el que se emitió, sin ningún cambio. El fichero no se
        envía a ninguna parte: su navegador calcula su huella y la compara con la del certificado emitido.
      </p>
      <div className="verif-campo-fichero">
        <label htmlFor="verif-fichero">Fichero PDF del certificado</label>
        <input id="verif-fichero" type="file" accept="application/pdf,.pdf" onChange={(e) => void elegir(e.target.files?.[0])} />
      </div>
      <div role="status" className="verif-estado">
        {estado.fase === 'calculando' && `Comprobando ${estado.nombre}…`}
        {estado.fase === 'hecho' && estado.coincide && (
          <p className="verif-aviso verif-aviso--si">
            <span className="verif-icono" aria-hidden="true">
              ✓
            </span>
            <span>
              <strong>El fichero coincide:</strong> «{estado.nombre}» es exactamente el PDF emitido con este código.
            </span>
          </p>
        )}
        {estado.fase === 'hecho' && !estado.coincide && (
          <p className="verif-aviso verif-aviso--no">
            <span className="verif-icono" aria-hidden="true">
              ✕
            </span>
            <span>
              <strong>El fichero no coincide:</strong> «{estado.nombre}» no es el PDF emitido con este código. Puede ser otro certificado, o
              una copia modificada. Su huella es <span className="verif-mono verif-huella">{huellaLegible(estado.huella)}</span>.
            </span>
          </p>
        )}
        {estado.fase === 'error' && <p className="verif-aviso verif-aviso--no">{estado.mensaje}</p>}
      </div>
    </section>
  );
}
