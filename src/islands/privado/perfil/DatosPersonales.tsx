/**
 * The names (DNI/NIE account) or the company name (CIF account) of the profile, editable under the
 * registration rules (docs/producto.md §4, §5); an account without NIF edits either side.
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import {
  camposHabilitados,
  camposVisibles,
  claseCuenta,
  cuerpoDatos,
  ETIQUETAS,
  validarDatos,
  type DatosPerfil,
  type Perfil,
} from '../../../lib/perfil/pantalla.ts';
import { refresh } from '../../../lib/sesion/index.ts';
import { CampoTexto } from '../../comunes/formulario/CampoTexto.tsx';
import { BloquePerfil, FormularioPerfil } from './FormularioPerfil.tsx';
import { useFormulario } from './usar-formulario.ts';
import { urlApi } from '../../../lib/api/rutas.ts';

/** Props of `DatosPersonales`. */
export interface DatosPersonalesProps {
  /** The profile as loaded. */
  perfil: Perfil;
  /** The saved profile, as the server answered it. */
  alGuardar: (perfil: Perfil) => void;
}

const AUTOCOMPLETAR = {
  nombre: 'given-name',
  apellido1: 'family-name',
  apellido2: 'additional-name',
  razonSocial: 'organization',
} as const;

/** The identity form. */
export function DatosPersonales({ perfil, alGuardar }: DatosPersonalesProps) {
  const clase = claseCuenta(perfil.tipoNif);
  const [datos, setDatos] = useState<DatosPerfil>({
    nombre: perfil.nombre,
    apellido1: perfil.apellido1,
    apellido2: perfil.apellido2,
    razonSocial: perfil.razonSocial,
  });
  const f = useFormulario();
  const habilitados = camposHabilitados(clase, datos);

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (!f.comprobar(validarDatos(perfil.tipoNif, datos))) return;
    await f.enviar(
      () => apiFetch<Perfil>(urlApi('/perfil'), { method: 'PUT', json: cuerpoDatos(clase, datos) }),
      (p) => {
        alGuardar(p);
        // The greeting comes from the session; a refresh brings the new name into it.
        void refresh();
        return 'Sus datos se han guardado.';
      },
    );
  };

  const explicacion =
    clase === 'empresa'
      ? 'Su cuenta es de una empresa (CIF): figura con su razón social.'
      : clase === 'persona'
        ? 'Su cuenta es de una persona (DNI o NIE): figura con su nombre y sus dos apellidos.'
        : 'Su cuenta no tiene NIF: puede figurar con un nombre y dos apellidos o con una razón social, no con ambos.';

  return (
    <BloquePerfil
      id="perfil-datos"
      titulo={clase === 'empresa' ? 'Razón social' : clase === 'persona' ? 'Nombre y apellidos' : 'Nombre o razón social'}
    >
      <p className="priv-nota">{explicacion}</p>
      <FormularioPerfil
        idTitulo="perfil-datos"
        f={f}
        etiquetaAlertas="Resultado de guardar los datos"
        alEnviar={onSubmit}
        texto="Guardar los datos"
        textoEnviando="Guardando…"
      >
        {camposVisibles(clase).map((c) => (
          <CampoTexto
            key={c}
            {...f.campo(c)}
            etiqueta={ETIQUETAS[c]}
            valor={datos[c]}
            alCambiar={f.alCambiar(c, (v) => setDatos((d) => ({ ...d, [c]: v })))}
            autoComplete={AUTOCOMPLETAR[c]}
            requerido={clase !== 'libre'}
            deshabilitado={!habilitados[c]}
          />
        ))}
      </FormularioPerfil>
    </BloquePerfil>
  );
}
