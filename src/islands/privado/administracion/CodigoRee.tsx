/**
 * The REE code of a supply company (CNMC table 1, four digits) in the user detail: the issuer its
 * ATR messages must carry (docs/decisions/020). Shown for accounts with some `-comercializadora`;
 * the server decides who may change it.
 */
import { useId, useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../../lib/administracion/api.ts';
import { mensajesDeError } from '../../../lib/api/cliente.ts';
import type { UsuarioDetalle } from '../../../lib/administracion/usuarios.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { urlApi } from '../../../lib/api/rutas.ts';

export function CodigoRee(props: { detalle: UsuarioDetalle; alCambiar: (d: UsuarioDetalle) => void }) {
  const id = useId();
  const [valor, setValor] = useState(props.detalle.codigoRee ?? '');
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [enviando, setEnviando] = useState(false);
  const texto = valor.trim();
  const error = texto !== '' && !/^[0-9]{4}$/.test(texto) ? 'El código REE son cuatro cifras.' : null;
  const sinCambios = texto === (props.detalle.codigoRee ?? '');

  const guardar = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (error || sinCambios || enviando) return;
    setEnviando(true);
    const r = await apiFetch<UsuarioDetalle>(urlApi('/administrador/usuarios/{id}/codigo-ree', { path: { id: props.detalle.id } }), {
      method: 'PUT',
      json: { codigoRee: texto === '' ? null : texto },
    });
    setEnviando(false);
    if (!r.ok) return setAlertas(alertasDe(mensajesDeError(r.error)));
    props.alCambiar(r.datos);
    setAlertas(
      alertasDe(
        [r.datos.codigoRee ? `Código REE guardado: ${r.datos.codigoRee}.` : 'Código REE retirado: sus mensajes ATR no se tramitarán.'],
        'success',
      ),
    );
  };

  return (
    <section className="admin-seccion" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Código REE de comercializadora</h2>
      <p>
        El código de la tabla 1 de la CNMC con el que esta comercializadora firma sus mensajes ATR (CodigoREEEmpresaEmisora). Sin él, sus
        solicitudes se apartan a <code>entrada/rechazados</code>.
      </p>
      <form onSubmit={(ev) => void guardar(ev)} noValidate>
        <div className="admin-campo admin-campo--corto">
          <label htmlFor={`${id}-campo`}>Código REE (cuatro cifras; vacío para retirarlo)</label>
          <input
            id={`${id}-campo`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={valor}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(ev) => setValor(ev.currentTarget.value)}
          />
          {error && (
            <p id={`${id}-error`} className="admin-campo__error">
              {error}
            </p>
          )}
        </div>
        <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} etiqueta="Avisos del código REE" />
        <div className="admin-acciones">
          <button type="submit" className="admin-boton" aria-disabled={!!error || sinCambios || enviando}>
            Guardar código REE
          </button>
        </div>
      </form>
    </section>
  );
}
