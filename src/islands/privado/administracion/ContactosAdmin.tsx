/**
 * /administrador/contacto: the work queue of queries and claims (docs/decisions/018) of a
 * distributor the user administers: overdue first and flagged in words, then by deadline, then by
 * sending date (the server's order), filtered by procedure, topic or claim type, subtype, step and
 * "only overdue" (in the address, so back, forward and a reload keep them) and paged by the server.
 * Each reference leads to the case, where its step's actions are taken.
 */
import { conPunto } from '../../../lib/formato/frases.ts';
import { formatearFecha, hoyMadrid } from '../../../lib/administracion/fechas.ts';
import {
  listaContacto,
  nombrePasoCola,
  nombreProcedimiento,
  opcionesSubtipoCola,
  opcionesTipoCola,
  PASOS_COLA,
  RUTA_ADMIN_CONTACTO,
  textoAsunto,
  textoPlazoCaso,
  textoTema,
  textoTipo,
  turnoCorto,
  urlCasoAdmin,
  type FiltrosContacto,
} from '../../../lib/contacto/pantalla.ts';
import type { CasoContactoResumen } from '../../../lib/contacto/respuestas.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { CampoSelect, type Opcion } from './comun.tsx';
import { Filtro, FormularioFiltros, opcionesFiltro, ResultadosLista, SinDistribuidoras, TablaPaginada } from './lista.tsx';
import { colaRecordada, NotaDistribuidora, useColaPorDistribuidora } from './cola.tsx';
import './administracion.css';
import './accesos.css';

const OPCIONES_PROCEDIMIENTO: Opcion[] = [
  { valor: '', texto: 'Consultas y reclamaciones' },
  { valor: 'consulta', texto: 'Solo consultas' },
  { valor: 'reclamacion', texto: 'Solo reclamaciones' },
];
const OPCIONES_PASO = opcionesFiltro('Abiertos', PASOS_COLA, nombrePasoCola);
const OPCIONES_VENCIDAS: Opcion[] = [
  { valor: '', texto: 'Todos' },
  { valor: 'si', texto: 'Solo los vencidos' },
];

/** The last filters used in this page, so a case's "back" returns to them. */
const recuerdo = colaRecordada(RUTA_ADMIN_CONTACTO);

/** The queue with the filters it had when last shown. */
export const urlColaContactoRecordada = recuerdo.url;

/** A deadline in a row: the date and, when it has passed, "Vencido" in words and style. */
function CeldaPlazo({ c, hoy }: { c: CasoContactoResumen; hoy: string }) {
  const p = textoPlazoCaso(c, hoy);
  if (!p) return <td>Sin plazo</td>;
  return (
    <td>
      <span className="admin-nowrap">{p.fechaCorta}</span>
      {p.vencido ? (
        <span className="admin-estado adm-acc-vencida adm-acc-vencida--bloque">Vencido</span>
      ) : (
        p.resto && <span className="admin-motivo">{p.resto}</span>
      )}
    </td>
  );
}

/** What a case is: the procedure and its topic or type. */
const clase = (c: CasoContactoResumen) =>
  c.procedimiento === 'consulta' ? `${nombreProcedimiento('consulta')}: ${textoTema(c.tema)}` : `Reclamación: ${textoTipo(c.tipo)}`;

/** The staff's queue of queries and claims. */
export default function ContactosAdmin({ ruta }: PropsPantalla) {
  const { propias, lista: l, opcionesDistribuidora, actual } = useColaPorDistribuidora(listaContacto, recuerdo);
  const { borrador, setBorrador } = l;
  const hoy = hoyMadrid();

  // The type and subtype offered follow the procedure and type chosen; a choice that no longer fits is cleared.
  const poner = (cambios: Partial<FiltrosContacto>) =>
    setBorrador((b) => {
      const n = { ...b, ...cambios };
      if (n.tipo && !opcionesTipoCola(n.procedimiento).some((o) => o.valor === n.tipo)) n.tipo = '';
      if (n.procedimiento === 'consulta' || (n.subtipo && !opcionesSubtipoCola(n.tipo).some((o) => o.valor === n.subtipo))) n.subtipo = '';
      return n;
    });

  return (
    <section className="admin">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="admin__intro">
        Las consultas, peticiones y reclamaciones enviadas a su distribuidora. Primero aparecen las de plazo vencido, después las demás por
        la fecha en que vence su plazo y al final las que no tienen plazo. Las cerradas se encuentran eligiendo su paso. Abra una para ver
        sus mensajes y documentos y dar el paso que le corresponda.
      </p>

      {propias.length === 0 ? (
        <SinDistribuidoras para="tramitar consultas y reclamaciones" />
      ) : (
        <>
          <NotaDistribuidora propias={propias} actual={actual} />
          <FormularioFiltros
            etiqueta="Filtrar consultas y reclamaciones"
            alEnviar={l.filtrar}
            conFiltros={l.conFiltros}
            alLimpiar={l.limpiar}
          >
            {propias.length > 1 && <Filtro lista={l} clave="distribuidora" etiqueta="Distribuidora" opciones={opcionesDistribuidora} />}
            <CampoSelect
              id="ct-filtro-procedimiento"
              etiqueta="Procedimiento"
              valor={borrador.procedimiento}
              opciones={OPCIONES_PROCEDIMIENTO}
              alCambiar={(v) => poner({ procedimiento: v as FiltrosContacto['procedimiento'] })}
            />
            <CampoSelect
              id="ct-filtro-tipo"
              etiqueta={borrador.procedimiento === 'consulta' ? 'Tema' : borrador.procedimiento === 'reclamacion' ? 'Tipo' : 'Tema o tipo'}
              valor={borrador.tipo}
              opciones={[{ valor: '', texto: 'Todos' }, ...opcionesTipoCola(borrador.procedimiento)]}
              alCambiar={(v) => poner({ tipo: v })}
            />
            {borrador.procedimiento !== 'consulta' && (
              <CampoSelect
                id="ct-filtro-subtipo"
                etiqueta="Subtipo de reclamación"
                valor={borrador.subtipo}
                opciones={[{ valor: '', texto: 'Todos' }, ...opcionesSubtipoCola(borrador.tipo)]}
                alCambiar={(v) => poner({ subtipo: v })}
              />
            )}
            <Filtro lista={l} clave="paso" etiqueta="Paso" opciones={OPCIONES_PASO} />
            <Filtro lista={l} clave="vencidas" etiqueta="Plazo" opciones={OPCIONES_VENCIDAS} />
          </FormularioFiltros>

          <ResultadosLista
            lista={l}
            que={['expediente', 'expedientes']}
            cargando="Cargando consultas y reclamaciones…"
            vacioConFiltros="No hay consultas ni reclamaciones que coincidan con los filtros elegidos."
            vacio={conPunto(`No hay consultas ni reclamaciones abiertas en ${nombreDistribuidora(actual)}`)}
            avisarPaginaInexistente
          />
          <TablaPaginada
            lista={l}
            titulo={`Consultas y reclamaciones de ${nombreDistribuidora(actual)}`}
            que="expedientes"
            clase="adm-acc-tabla"
            columnas={['Referencia', 'Vence', 'Qué es', 'Paso', 'Le toca a', 'Solicitante', 'Enviada']}
            fila={(c) => (
              <tr key={c.id} className={c.vencido ? 'adm-acc-fila--vencida' : undefined}>
                <th scope="row" className="admin-tabla__principal">
                  <a href={urlCasoAdmin(c.id)}>{c.referencia}</a>
                  <span className="admin-motivo">{textoAsunto(c)}</span>
                </th>
                <CeldaPlazo c={c} hoy={hoy} />
                <td>{clase(c)}</td>
                <td>{c.pasoNombre}</td>
                <td>{turnoCorto(c.turno)}</td>
                <td>{c.solicitante || '—'}</td>
                <td className="admin-nowrap">{formatearFecha(c.presentadoEn)}</td>
              </tr>
            )}
          />
        </>
      )}
    </section>
  );
}
