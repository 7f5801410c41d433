/** The public reference of a fault report: AV-<year>-<six-digit number>, e.g. AV-2026-000123. */

/** Builds the reference from the year of its registration (Madrid civil year) and its number. */
export function referenciaAveria(anio: number, numero: number): string {
  return `AV-${anio}-${String(numero).padStart(6, '0')}`;
}

/** The year and number of a reference, or null when it does not have that form. */
export function leerReferenciaAveria(texto: string): { anio: number; numero: number } | null {
  const m = /^AV-(\d{4})-(\d{6,})$/.exec(texto.trim().toUpperCase());
  return m ? { anio: Number(m[1]), numero: Number(m[2]) } : null;
}

/** The civil year in Spain's peninsular time of an instant (a report at 00:30 on 1 January Madrid time is of the new year). */
export function anioMadrid(instante: Date): number {
  return Number(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Madrid', year: 'numeric' }).format(instante));
}
