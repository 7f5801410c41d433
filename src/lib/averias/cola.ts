/**
 * The staff queue of fault reports, grouped by area: reports of the same distributor, postal code
 * and municipality form one group, so several reports from one street show up as one probable
 * network fault. Pure, shared by the API and its tests.
 */

/** One pending report as the queue needs it. */
export interface AvisoCola {
  id: string;
  referencia: string;
  distribuidora: string;
  codigoPostal: string;
  municipio: string;
  codigoIne: string;
  provincia: string;
  cups: string;
  /** UTC ISO. */
  creado: string;
}

/** A group of reports of one area. */
export interface GrupoAvisos<A extends AvisoCola = AvisoCola> {
  /** `<distribuidora>|<codigoPostal>|<codigoIne>`: what the confirm action names. */
  clave: string;
  distribuidora: string;
  codigoPostal: string;
  municipio: string;
  codigoIne: string;
  provincia: string;
  total: number;
  /** UTC ISO of the newest report. */
  ultimo: string;
  /** Newest first. */
  avisos: A[];
}

/** The key of a report's area. */
export function claveZona(a: Pick<AvisoCola, 'distribuidora' | 'codigoPostal' | 'codigoIne'>): string {
  return `${a.distribuidora}|${a.codigoPostal}|${a.codigoIne}`;
}

/** Groups reports by area: groups with the newest report first; within a group, newest first. */
export function agruparAvisos<A extends AvisoCola>(avisos: readonly A[]): GrupoAvisos<A>[] {
  const grupos = new Map<string, GrupoAvisos<A>>();
  for (const a of avisos) {
    const clave = claveZona(a);
    let g = grupos.get(clave);
    if (!g) {
      g = {
        clave,
        distribuidora: a.distribuidora,
        codigoPostal: a.codigoPostal,
        municipio: a.municipio,
        codigoIne: a.codigoIne,
        provincia: a.provincia,
        total: 0,
        ultimo: a.creado,
        avisos: [],
      };
      grupos.set(clave, g);
    }
    g.avisos.push(a);
    g.total++;
    if (a.creado > g.ultimo) g.ultimo = a.creado;
  }
  const lista = [...grupos.values()];
  for (const g of lista) g.avisos.sort((x, y) => (x.creado < y.creado ? 1 : x.creado > y.creado ? -1 : x.id < y.id ? -1 : 1));
  // Newest activity first; equal instants by more reports, then by key, so the order is stable.
  return lista.sort((x, y) => (x.ultimo !== y.ultimo ? (x.ultimo < y.ultimo ? 1 : -1) : y.total - x.total || (x.clave < y.clave ? -1 : 1)));
}

/** The public description of the incident a confirmed group becomes. */
export function descripcionIncidenciaDeGrupo(g: Pick<GrupoAvisos, 'total' | 'municipio' | 'codigoPostal'>): string {
  return `Avería en la red de baja tensión en ${g.municipio} (${g.codigoPostal}), confirmada a partir de ${g.total} ${
    g.total === 1 ? 'aviso' : 'avisos'
  } de falta de suministro. Nuestro equipo trabaja para reponerlo.`;
}
