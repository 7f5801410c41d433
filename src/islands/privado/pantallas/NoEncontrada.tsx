/** A private path with no screen (docs/producto.md §2 names only the paths the app has). */

/** The "not found" screen of the private area. */
export default function NoEncontrada() {
  return (
    <div className="priv-pagina">
      <h1 tabIndex={-1}>Página no encontrada</h1>
      <p>No hay ninguna página del área privada en esta dirección. Puede que el enlace esté mal escrito o que la página ya no exista.</p>
      <p>
        <a href="/inicio">Ir a Inicio</a>
      </p>
    </div>
  );
}
