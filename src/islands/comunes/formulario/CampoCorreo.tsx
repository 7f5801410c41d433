/** An e-mail address field (docs/diseno.md "Forms"): `CampoTexto` with the e-mail input's settings. */
import { CampoTexto, type PropsEntrada } from './CampoTexto.tsx';

/** Props of `CampoCorreo`: a text field's, its autocomplete token `email` unless told. */
export type CampoCorreoProps = Omit<PropsEntrada, 'autoComplete'> & { autoComplete?: string };

/**
 * Accessibility contract: `CampoTexto`'s, as `type="email"` with the e-mail keyboard on phones, no
 * automatic capital letter and the `email` autocomplete token, so browsers and password managers
 * offer the user's own address.
 */
export function CampoCorreo({ autoComplete = 'email', ...p }: CampoCorreoProps) {
  return <CampoTexto {...p} tipo="email" inputMode="email" autoCapitalize="none" autoComplete={autoComplete} />;
}
