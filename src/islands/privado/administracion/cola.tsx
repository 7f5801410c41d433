/**
 * What the staff's queues of cases (access and connection requests, ATR requests, queries and
 * claims) share: the distributors the account administers, the list filtered by the address, one
 * distributor at a time (the first is the default, written '' in the address), the distributor's
 * name when there is only one, and the last filters used, so a case's «Volver» returns to them.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo } from 'react';
import type { DefinicionLista, Paginacion } from '../../../lib/administracion/consulta.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { distribuidorasAdministradas } from '../../../lib/incidencias/lista-gestion.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import type { Opcion } from './comun.tsx';
import { useListaFiltrada } from './lista.tsx';

/** A queue's last filters in this page, and its address with them. */
export function colaRecordada(ruta: string): { recordar: (consulta: string) => void; url: () => string } {
  let ultima = '';
  return {
    recordar: (consulta) => {
      ultima = consulta;
    },
    url: () => (ultima ? `${ruta}?${ultima}` : ruta),
  };
}

/** A queue of one distributor's cases at a time, remembered in `recuerdo`. */
export function useColaPorDistribuidora<F extends Paginacion & { distribuidora: string }, T>(
  definicionDe: (propias: readonly string[]) => DefinicionLista<F, T>,
  recuerdo: ReturnType<typeof colaRecordada>,
) {
  const permisos = useStore($permisos);
  const propias = useMemo(() => distribuidorasAdministradas(permisos), [permisos]);
  const definicion = useMemo(() => definicionDe(propias), [propias]);
  const lista = useListaFiltrada(definicion);
  useEffect(() => recuerdo.recordar(lista.consulta), [lista.consulta]);
  const opcionesDistribuidora: Opcion[] = propias.map((d, i) => ({ valor: i === 0 ? '' : d, texto: nombreDistribuidora(d) }));
  return { propias, lista, opcionesDistribuidora, actual: lista.filtros.distribuidora || propias[0] || '' };
}

/** The distributor's name, above the filters of an account that administers only one. */
export function NotaDistribuidora({ propias, actual }: { propias: readonly string[]; actual: string }) {
  if (propias.length !== 1) return null;
  return (
    <p className="admin-nota">
      Distribuidora: <strong>{nombreDistribuidora(actual)}</strong>
    </p>
  );
}
