/**
 * What the server said when a staff action on a case failed (an access request, a query or claim):
 * announced at once (`role="alert"`), each message in its own paragraph, and, when the case changed
 * meanwhile (409), a button that reloads it so the staff see what they would act on.
 */
import './accesos.css';

/** Props of `FalloDeAccion`. */
export interface FalloDeAccionProps {
  /** The first line, in bold: «No se ha podido …:». */
  encabezado: string;
  /** The server's messages; nothing is drawn without any. */
  mensajes: readonly string[];
  /** The case changed meanwhile: the button's text and what it does. */
  actualizar?: { texto: string; alPulsar: () => void } | null;
}

export function FalloDeAccion({ encabezado, mensajes, actualizar }: FalloDeAccionProps) {
  if (mensajes.length === 0) return null;
  return (
    <div className="adm-acc-aviso adm-acc-aviso--error" role="alert">
      <p>
        <strong>{encabezado}</strong>
      </p>
      {mensajes.map((m) => (
        <p key={m}>{m}</p>
      ))}
      {actualizar && (
        <p>
          <button type="button" className="admin-boton admin-boton--secundario admin-boton--pequeno" onClick={actualizar.alPulsar}>
            {actualizar.texto}
          </button>
        </p>
      )}
    </div>
  );
}
