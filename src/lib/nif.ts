/**
 * Spanish tax identifiers (docs/producto.md §5, docs/sector.md §2): DNI, NIE and CIF, validated with their
 * control characters. Shared by the registration form and the API.
 */

/** The mod-23 letter table of the DNI (also used by the NIE and the CUPS). */
export const LETRAS_DNI = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** First letters of a CIF (legal entities), Orden EHA/451/2008 as python-stdnum accepts them. */
const LETRAS_CIF = 'ABCDEFGHJNPQRSUVW';

/** Kind of identifier the registration form sees while the user types (docs/producto.md §4). */
export type TipoNif = 'DNI' | 'CIF' | 'INCOMPLETO';

/** Upper-cases and removes spaces, dots and dashes. */
export function normalizarNif(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}

/** The control letter of an 8-digit DNI number. */
export function letraDni(numero: number): string {
  return LETRAS_DNI[numero % 23]!;
}

/** Valid DNI: 8 digits and the mod-23 letter. */
export function esDniValido(nif: string): boolean {
  const m = /^(\d{8})([A-Z])$/.exec(nif);
  return m !== null && letraDni(Number(m[1])) === m[2];
}

/** Valid NIE: X, Y or Z (0, 1, 2), 7 digits and the mod-23 letter. */
export function esNieValido(nif: string): boolean {
  const m = /^([XYZ])(\d{7})([A-Z])$/.exec(nif);
  if (!m) return false;
  const numero = Number(`${'XYZ'.indexOf(m[1]!)}${m[2]}`);
  return letraDni(numero) === m[3];
}

/**
 * Valid NIF of a person without DNI or NIE (Orden EHA/451/2008, art. 2): K (Spaniards under 14),
 * L (Spaniards resident abroad) or M (foreigners without NIE), 7 digits and the mod-23 letter of
 * those 7 digits, as python-stdnum's es.nif computes it. They are people: their accounts take names.
 */
export function esNifPersonaEspecialValido(nif: string): boolean {
  const m = /^([KLM])(\d{7})([A-Z])$/.exec(nif);
  return m !== null && letraDni(Number(m[2])) === m[3];
}

/** The control digit (0–9) of a CIF's 7 digits: Luhn over the digits. */
export function controlCif(siete: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(siete[i]);
    if (i % 2 === 0) {
      const doubled = d * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    } else {
      sum += d;
    }
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Valid CIF: entity letter, 7 digits and control. Letters A, B, E, H need a digit; N, P, Q, R, S, W
 * need a letter (`JABCDEFGHI`); the others accept either (docs/producto.md §5).
 */
export function esCifValido(nif: string): boolean {
  const m = /^([A-Z])(\d{7})([0-9A-J])$/.exec(nif);
  if (!m || !LETRAS_CIF.includes(m[1]!)) return false;
  const [, letra, digitos, control] = m as unknown as [string, string, string, string];
  const c = controlCif(digitos);
  const comoDigito = control === String(c);
  const comoLetra = control === 'JABCDEFGHI'[c];
  if ('ABEH'.includes(letra)) return comoDigito;
  if ('NPQRSW'.includes(letra)) return comoLetra;
  return comoDigito || comoLetra;
}

/** Whether an identifier is a valid NIF of a person (DNI, NIE, K, L or M) or a legal entity (CIF), already normalised. */
export function esNifValido(nif: string): boolean {
  return esDniValido(nif) || esNieValido(nif) || esNifPersonaEspecialValido(nif) || esCifValido(nif);
}

/**
 * Classifies what the user has typed (docs/producto.md §4): DNI for a valid NIF of a person (DNI, NIE, K, L
 * or M: the name fields apply), CIF for a valid CIF, INCOMPLETO for anything else, empty included.
 */
export function tipoNif(value: string): TipoNif {
  const nif = normalizarNif(value);
  if (esDniValido(nif) || esNieValido(nif) || esNifPersonaEspecialValido(nif)) return 'DNI';
  if (esCifValido(nif)) return 'CIF';
  return 'INCOMPLETO';
}
