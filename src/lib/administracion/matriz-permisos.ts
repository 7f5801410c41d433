/**
 * The permissions matrix of a user's detail: one row per distributor, one column per
 * area. What each cell may do follows decision 006 and docs/api.md "Permissions": `-distribucion`
 * follows the holder of supply points and is never edited by hand; granting or revoking `<d>-<area>`
 * needs `<d>-administrador`; an administrator cannot remove their own `-administrador`. The screen
 * sends only the differences (`PUT …/permisos {conceder, revocar}`).
 */
import { administraTodas, AREAS, distribuidorasAdministradas, permiso, type Area } from '../permisos.ts';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../distribuidoras.ts';

/** Why a cell cannot be changed; null when it can. */
export type BloqueoCelda = 'automatico' | 'sin-permiso' | 'propio-administrador' | 'solo-administrador-total' | null;

/** Explanation of each lock, shown beside the matrix and given to the checkbox's description. */
export const MOTIVO_BLOQUEO: Record<Exclude<BloqueoCelda, null>, string> = {
  automatico: 'El permiso de distribución se concede automáticamente a los titulares de suministros de cada distribuidora, según su NIF.',
  'sin-permiso': 'Necesita el permiso de administración de esta distribuidora para cambiar sus permisos.',
  'propio-administrador': 'No puede retirarse a sí mismo el permiso de administración.',
  'solo-administrador-total': 'Solo un administrador de todas las distribuidoras concede o retira permisos de administración.',
};

/** One cell of the matrix. */
export interface CeldaPermiso {
  /** `<d>-<area>`. */
  permiso: string;
  /** Distributor of the row. */
  distribuidora: CodigoDistribuidora;
  /** Area of the column. */
  area: Area;
  /** Granted now (after the edits). */
  concedido: boolean;
  /** Granted when the detail was read. */
  original: boolean;
  /** Why it cannot be changed, or null. */
  bloqueo: BloqueoCelda;
}

/** Who is editing: their permissions, and whether the target is themself. */
export interface Editor {
  /** The caller's permissions (session `Permisos`). */
  permisos: readonly string[];
  /** The user shown is the caller. */
  esUnoMismo: boolean;
}

/** Why a cell is locked for this editor, or null. */
export function bloqueoCelda(d: CodigoDistribuidora, area: Area, concedido: boolean, editor: Editor): BloqueoCelda {
  if (area === 'distribucion') return 'automatico';
  if (!editor.permisos.includes(permiso(d, 'administrador'))) return 'sin-permiso';
  if (editor.esUnoMismo && area === 'administrador' && concedido) return 'propio-administrador';
  // Making or unmaking an administrator is for an administrator of every distributor (docs/decisions/014).
  if (area === 'administrador' && !administraTodas(editor.permisos)) return 'solo-administrador-total';
  return null;
}

/**
 * The rows of the matrix, distributor by distributor, in the order of `DISTRIBUIDORAS` and `AREAS`:
 * the distributors the editor administers (the server shows it no other permissions; decision 014).
 */
export function construirMatriz(originales: readonly string[], actuales: readonly string[], editor: Editor): CeldaPermiso[][] {
  const antes = new Set(originales);
  const ahora = new Set(actuales);
  const filas = administraTodas(editor.permisos) ? CODIGOS_DISTRIBUIDORA : distribuidorasAdministradas(editor.permisos);
  return filas.map((d) =>
    AREAS.map((area) => {
      const p = permiso(d, area);
      return {
        permiso: p,
        distribuidora: d,
        area,
        concedido: ahora.has(p),
        original: antes.has(p),
        // The lock is judged on the state read from the server: unticking one's own admin box is what is refused.
        bloqueo: bloqueoCelda(d, area, antes.has(p), editor),
      };
    }),
  );
}

/** The list after ticking or unticking one permission; a locked cell leaves it unchanged. */
export function alternarPermiso(actuales: readonly string[], originales: readonly string[], p: string, editor: Editor): string[] {
  const dash = p.indexOf('-');
  const d = p.slice(0, dash) as CodigoDistribuidora;
  const area = p.slice(dash + 1) as Area;
  if (!(CODIGOS_DISTRIBUIDORA as readonly string[]).includes(d) || !(AREAS as readonly string[]).includes(area)) return [...actuales];
  if (bloqueoCelda(d, area, originales.includes(p), editor) !== null) return [...actuales];
  return actuales.includes(p) ? actuales.filter((x) => x !== p) : [...actuales, p];
}

/** What changed between the permissions read and the ones ticked: the body of `PUT …/permisos`. */
export function diferenciasPermisos(originales: readonly string[], actuales: readonly string[]): { conceder: string[]; revocar: string[] } {
  const antes = new Set(originales);
  const ahora = new Set(actuales);
  // `-distribucion` is never sent (the API answers 400): it is not the administrator's to change.
  const editable = (p: string) => !p.endsWith('-distribucion');
  return {
    conceder: [...ahora].filter((p) => !antes.has(p) && editable(p)).sort(),
    revocar: [...antes].filter((p) => !ahora.has(p) && editable(p)).sort(),
  };
}

/** Whether there is anything to save. */
export function hayCambiosPermisos(originales: readonly string[], actuales: readonly string[]): boolean {
  const { conceder, revocar } = diferenciasPermisos(originales, actuales);
  return conceder.length + revocar.length > 0;
}

/** A sentence that sums up the pending changes ("Se concederán 2 permisos y se retirará 1."); '' when none. */
export function resumenCambios(conceder: number, revocar: number): string {
  const partes: string[] = [];
  if (conceder) partes.push(`se ${conceder === 1 ? 'concederá 1 permiso' : `concederán ${conceder} permisos`}`);
  if (revocar) partes.push(`se ${revocar === 1 ? 'retirará 1 permiso' : `retirarán ${revocar} permisos`}`);
  if (!partes.length) return '';
  const frase = partes.join(' y ');
  return `${frase[0]!.toUpperCase()}${frase.slice(1)}.`;
}
