/** The NIF, NIE or CIF field of the registration and recovery forms (docs/producto.md §4, §5). */
import { nifTecleado } from '../../lib/cuentas/formulario-registro.ts';
import { CampoTexto, type PropsEntrada } from '../comunes/formulario/CampoTexto.tsx';

/** Props of `CampoNif`: a text field's, labelled "NIF/CIF" unless told. */
export type CampoNifProps = Omit<PropsEntrada, 'etiqueta' | 'autoComplete'> & { etiqueta?: string };

/** A required text field that upper-cases the letters as they are typed, with capital letters on phone keyboards. */
export function CampoNif({ etiqueta = 'NIF/CIF', alCambiar, ...p }: CampoNifProps) {
  return (
    <CampoTexto
      {...p}
      etiqueta={etiqueta}
      alCambiar={(v) => alCambiar(nifTecleado(v))}
      autoComplete="off"
      autoCapitalize="characters"
      requerido
    />
  );
}
