/**
 * Demo access and connection requests (docs/decisions/017), written through the same services a
 * real request goes through: drafts saved, documents received and stored as an upload is, every
 * step taken by `actuar` with the clock set to the day it happened. The demo developer
 * (promotor@electra.example) has a request at every step at EPD and EOD; EPD's staff queue has
 * work, one of it overdue. No mail is sent (publicUrl null).
 */
import { listaNudosDe, type DatosSolicitud } from '../../lib/accesoyconexion/solicitud.ts';
import type { AccionAcceso } from '../../lib/accesoyconexion/procedimiento.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { eq } from 'drizzle-orm';
import { listCapacidadDemanda } from '../capacidad-nodal/demanda.ts';
import { listCapacidad } from '../capacidad-nodal/service.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { DemoStep } from '../demo/load.ts';
import { momentoDemo, pasosDemo, type PasoDemoCaso } from '../documentos/demo.ts';
import type { Lado } from '../expedientes/acceso.ts';
import { SISTEMA, type ActorExpediente } from '../expedientes/service.ts';
import { actuar, crearBorrador, guardarBorrador, type DepsAcceso } from './service.ts';

/** One step of a demo request: the business days before today it happened, who and what. */
type PasoDemo = PasoDemoCaso<{ accion: AccionAcceso; mensaje?: string; extra?: Record<string, unknown> }>;

/** One demo request: where, its data (the node chosen by voltage from the publication), and its steps. */
interface SolicitudDemo {
  distribuidora: CodigoDistribuidora;
  datos: DatosSolicitud;
  pasos: PasoDemo[];
}

const BASE: DatosSolicitud = {
  fechaPuestaServicio: '2027-09-01',
  contactoNombre: 'Marta Ruiz Calvo',
  contactoTelefono: '910000031',
  enNombrePropio: true,
  provincia: 'Madrid',
  codigoPostal: '28903',
  sueloUrbanizado: false,
  correspondenciaMisma: true,
};

const presentar = (dias: number): PasoDemo[] => [
  { dias, lado: 'solicitante', documento: 'memoria', nombre: 'memoria-tecnica.pdf' },
  { dias, lado: 'solicitante', documento: 'planos', nombre: 'planos-situacion.pdf' },
  { dias, lado: 'solicitante', documento: 'garantia', nombre: 'resguardo-garantia-art23.pdf' },
  { dias, lado: 'solicitante', accion: 'presentar' },
];

const PROPUESTA = {
  puntoConexion: 'Celda de línea 3 de la subestación, barra de 20 kV',
  condicionesTecnicas:
    'Línea subterránea de 20 kV de 1,2 km hasta la celda; telemando y protección de interconexión a cargo del solicitante.',
  importeEuros: 186_400,
  plazoObrasMeses: 14,
};

/** The demo's requests of the developer. */
function solicitudesDemo(): SolicitudDemo[] {
  const fv = (municipio: string, direccion: string, catastral: string, potenciaKw: number, tensionKv: number): DatosSolicitud => ({
    ...BASE,
    tipo: 'generacion',
    tecnologia: 'fotovoltaica',
    municipio,
    direccion,
    referenciaCatastral: catastral,
    latitud: 40.28 + potenciaKw / 1e6,
    longitud: -3.71,
    potenciaKw,
    tensionKv,
  });
  return [
    // A draft, half filled in.
    { distribuidora: 'epd', datos: { tipo: 'generacion', tecnologia: 'fotovoltaica', potenciaKw: 2_500, municipio: 'Pinto' }, pasos: [] },
    // Corrections asked: four business days left to answer.
    {
      distribuidora: 'epd',
      datos: fv('Getafe', 'Polígono 12, parcela 40', '28065A012000400000AB', 4_900, 20),
      pasos: [
        ...presentar(19),
        {
          dias: 16,
          lado: 'distribuidora',
          accion: 'pedir_subsanacion',
          mensaje: 'El resguardo de la garantía no indica la referencia catastral de la parcela. Envíe uno que la incluya.',
        },
      ],
    },
    // Admitted, the propuesta previa being prepared.
    {
      distribuidora: 'epd',
      datos: fv('Parla', 'Camino de la Fuente, s/n', '28106A003000120000KX', 9_800, 20),
      pasos: [...presentar(12), { dias: 8, lado: 'distribuidora', accion: 'admitir' }],
    },
    // A propuesta previa waiting for the developer.
    {
      distribuidora: 'epd',
      datos: fv('Valdemoro', 'Paraje Los Llanos, parcela 7', '28161A005000070000QT', 12_000, 20),
      pasos: [
        ...presentar(40),
        { dias: 30, lado: 'distribuidora', accion: 'admitir' },
        { dias: 3, lado: 'distribuidora', documento: 'propuesta_previa', nombre: 'propuesta-previa.pdf' },
        { dias: 3, lado: 'distribuidora', accion: 'enviar_propuesta', extra: { propuesta: PROPUESTA } },
      ],
    },
    // Overdue for the distributor: admitted 45 business days ago, its 30 days gone.
    {
      distribuidora: 'epd',
      datos: { ...fv('Fuenlabrada', 'Calle de la Energía, 2', '28058A001000020000LM', 2_000, 20), tipo: 'demanda', tecnologia: undefined },
      pasos: [
        ...presentar(50).filter((p) => !('documento' in p) || p.documento !== 'garantia'),
        { dias: 45, lado: 'distribuidora', accion: 'admitir' },
      ],
    },
    // Permits issued.
    {
      distribuidora: 'eod',
      datos: {
        ...fv('Mérida', 'Carretera de Don Álvaro, km 3', '06083A021000330000PF', 7_500, 45),
        provincia: 'Badajoz',
        codigoPostal: '06800',
      },
      pasos: [
        ...presentar(90),
        { dias: 75, lado: 'distribuidora', accion: 'admitir' },
        { dias: 40, lado: 'distribuidora', documento: 'propuesta_previa', nombre: 'propuesta-previa.pdf' },
        { dias: 40, lado: 'distribuidora', accion: 'enviar_propuesta', extra: { propuesta: { ...PROPUESTA, importeEuros: 92_300 } } },
        { dias: 30, lado: 'solicitante', accion: 'aceptar_propuesta' },
        { dias: 15, lado: 'distribuidora', documento: 'permisos', nombre: 'permisos-acceso-conexion.pdf' },
        { dias: 15, lado: 'distribuidora', accion: 'emitir_permisos' },
      ],
    },
    // Denied for lack of capacity.
    {
      distribuidora: 'eod',
      datos: {
        ...fv('Almendralejo', 'Polígono 8, parcela 112', '06011A008001120000ZR', 30_000, 45),
        provincia: 'Badajoz',
        codigoPostal: '06200',
      },
      pasos: [
        ...presentar(70),
        { dias: 55, lado: 'distribuidora', accion: 'admitir' },
        {
          dias: 20,
          lado: 'distribuidora',
          accion: 'denegar',
          extra: { motivo: 'capacidad' },
          mensaje: 'El nudo no tiene capacidad de acceso disponible para 30 MW; la publicación de capacidad lo muestra saturado.',
        },
      ],
    },
    // Filed three days ago at EOD: work for its staff.
    {
      distribuidora: 'eod',
      datos: {
        ...fv('Don Benito', 'Calle Villanueva, 18', '06044A002000180000HJ', 1_200, 20),
        provincia: 'Badajoz',
        codigoPostal: '06400',
      },
      pasos: presentar(3),
    },
  ];
}

/** Writes the demo requests. */
export const demoAccesoyconexion: DemoStep = async (db: Db, _random, now) => {
  const [promotor] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'promotor@electra.example'));
  const [gestora] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@electra.example'));
  if (!promotor || !gestora) return { solicitudesAcceso: 0 };
  const hoy = diaDe(now);
  let momento = now;
  const deps: DepsAcceso = { db, clock: { now: () => momento }, publicUrl: null };
  const actores: Record<Lado | 'sistema', ActorExpediente> = {
    solicitante: { ...SISTEMA, userId: promotor.id },
    distribuidora: { ...SISTEMA, userId: gestora.id },
    sistema: SISTEMA,
  };
  let n = 0;
  for (const s of solicitudesDemo()) {
    // From the list the request's type chooses from: firm demand capacity for a demand request, generation for the rest.
    const pub =
      listaNudosDe(s.datos.tipo) === 'demanda' ? await listCapacidadDemanda(db, s.distribuidora) : await listCapacidad(db, s.distribuidora);
    const nudos = pub?.nudos ?? [];
    // The node nearest the request's voltage with the most capacity, as a developer would pick.
    const kv = s.datos.tensionKv ?? 0;
    const nudo = [...nudos].sort((a, b) => Math.abs(a.tensionKv - kv) - Math.abs(b.tensionKv - kv) || b.disponibleMw - a.disponibleMw)[0];
    const datos = { ...s.datos, ...(nudo && s.datos.tensionKv ? { nudo: nudo.nudo } : {}) };
    momento = momentoDemo(hoy, s.pasos[0]?.dias ?? 0, 9);
    const e = await crearBorrador(deps, promotor.id, s.distribuidora, actores.solicitante);
    await guardarBorrador(deps, { ...e, paso: 'borrador' }, datos);
    await pasosDemo(db, e.id, s.pasos, {
      hoy,
      reloj: (m) => (momento = m),
      actores,
      actuar: (p, actor) => actuar(deps, e.id, p.lado, p.accion, { ...(p.mensaje ? { mensaje: p.mensaje } : {}), ...p.extra }, actor),
    });
    n++;
  }
  return { solicitudesAcceso: n };
};
