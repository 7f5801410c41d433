/**
 * Demo queries and claims (docs/decisions/018), written through the same services a real one goes
 * through: drafts with their data, documents received and stored as an upload is, every step taken
 * by `actuar` with the clock set to the day it happened. The household (consumidor@electra.example)
 * has a claim about the interruption the demo network incidents name for its EPD supply, awaiting
 * the information the distributor asked; a billing claim closed as not upheld with its answer; and
 * a query answered. The company (empresa@electra.example) has a data protection request open. EPD's
 * staff queue has work, one claim of it overdue. No mail is sent (publicUrl null).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DatosConsulta, DatosReclamacion } from '../../lib/contacto/datos.ts';
import type { ProcedimientoContacto } from '../../lib/contacto/procedimientos.ts';
import { construirCups } from '../../lib/cups.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import { partesLocales } from '../../lib/calendario/hora-civil.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { Db } from '../db/client.ts';
import { incidenciasRed, users } from '../db/schema.ts';
import type { DemoStep } from '../demo/load.ts';
import { momentoDemo, pasosDemo, type PasoDemoCaso } from '../documentos/demo.ts';
import type { Lado } from '../expedientes/acceso.ts';
import { SISTEMA, type ActorExpediente } from '../expedientes/service.ts';
import { correoClienteDemo } from '../usuarios/demo.ts';
import { actuar, crearBorrador, type DepsContacto } from './service.ts';

/** One step of a demo case: the business days before today it happened, who and what. */
type PasoDemo = PasoDemoCaso<{ lado: Lado; mensaje?: string; resultado?: '01' | '02' | '03' | '04' | '05' }>;

interface CasoDemo {
  cuenta: string;
  procedimiento: ProcedimientoContacto;
  distribuidora: CodigoDistribuidora;
  datos: DatosConsulta | DatosReclamacion;
  pasos: PasoDemo[];
}

/** A local date as the claim forms write it, YYYY-MM-DD (CNMC R1 FechaDesde and FechaHasta are dates). */
function fecha(instante: Date): string {
  return partesLocales(instante).fecha;
}

/** The household's EPD supply point, the one the closed network incident of the demo names. */
const CUPS_HOGAR_EPD = construirCups('9901', 1);

async function casosDemo(db: Db): Promise<CasoDemo[]> {
  const [corte] = await db
    .select({ inicio: incidenciasRed.inicio, fin: incidenciasRed.fin })
    .from(incidenciasRed)
    .where(
      and(
        eq(incidenciasRed.distribuidora, 'epd'),
        eq(incidenciasRed.estado, 'Cerrada'),
        sql`${CUPS_HOGAR_EPD} = any(${incidenciasRed.cups})`,
      ),
    )
    .limit(1);
  const casos: CasoDemo[] = [];
  if (corte?.fin) {
    // The interruption that left the household without power: accepted, then more information asked.
    casos.push({
      cuenta: 'consumidor@electra.example',
      procedimiento: 'reclamacion',
      distribuidora: 'epd',
      datos: {
        rol: '01',
        tipo: '05',
        subtipo: '022',
        campos: { cups: CUPS_HOGAR_EPD, fechaDesde: fecha(corte.inicio), fechaHasta: fecha(corte.fin) },
        mensaje:
          'Estuvimos sin luz toda la tarde por una avería en la red. Se estropeó la comida del congelador y pido que se revise la calidad del suministro en la calle.',
      },
      pasos: [
        { dias: 6, lado: 'solicitante', documento: 'reclamacion', nombre: 'fotos-congelador.pdf' },
        { dias: 6, lado: 'solicitante', accion: 'presentar' },
        { dias: 5, lado: 'distribuidora', accion: 'aceptar' },
        {
          dias: 2,
          lado: 'distribuidora',
          accion: 'pedir_informacion',
          mensaje:
            'Para estudiar la reclamación necesitamos saber si el interruptor general de su vivienda saltó durante el corte y a qué hora volvió la luz en su casa.',
        },
      ],
    });
  }
  casos.push(
    // A billing claim about a reading, closed as not upheld with its answer.
    {
      cuenta: 'consumidor@electra.example',
      procedimiento: 'reclamacion',
      distribuidora: 'epd',
      datos: {
        rol: '01',
        tipo: '02',
        subtipo: '009',
        campos: { nifTitular: '12345678Z', nombreTitular: 'Lucía Martín Ortega', cups: CUPS_HOGAR_EPD, numeroFactura: 'FE26-0081234' },
        mensaje: 'La lectura de la factura de septiembre es mucho más alta que la del contador. Adjunto la factura.',
      },
      pasos: [
        { dias: 40, lado: 'solicitante', documento: 'factura', nombre: 'factura-septiembre.pdf' },
        { dias: 40, lado: 'solicitante', accion: 'presentar' },
        { dias: 38, lado: 'distribuidora', accion: 'aceptar' },
        { dias: 30, lado: 'distribuidora', documento: 'respuesta', nombre: 'lecturas-contador.pdf' },
        {
          dias: 30,
          lado: 'distribuidora',
          accion: 'cerrar',
          resultado: '02',
          mensaje:
            'Hemos comprobado las lecturas que el contador envió por telegestión: la lectura facturada coincide con la real del 30 de septiembre. La diferencia se debe a que la factura anterior se emitió con una lectura estimada. Adjuntamos el detalle de las lecturas.',
        },
      ],
    },
    // A query about the next reading, answered.
    {
      cuenta: 'consumidor@electra.example',
      procedimiento: 'consulta',
      distribuidora: 'eod',
      datos: {
        tema: 'medidas',
        cups: construirCups('9902', 1),
        asunto: 'Autoconsumo: energía vertida',
        mensaje: '¿Dónde puedo ver la energía que mis placas vierten a la red cada hora?',
      },
      pasos: [
        { dias: 8, lado: 'solicitante', accion: 'presentar' },
        {
          dias: 7,
          lado: 'distribuidora',
          accion: 'responder',
          mensaje:
            'En «Consumos horarios» del área privada, eligiendo su suministro de Mérida: la curva muestra la energía consumida y la vertida de cada hora, y puede descargarla en CSV o Excel.',
        },
      ],
    },
    // The company's data protection request, open.
    {
      cuenta: 'empresa@electra.example',
      procedimiento: 'consulta',
      distribuidora: 'epd',
      datos: {
        tema: 'proteccion_datos',
        derecho: 'acceso',
        asunto: 'Acceso a los datos de la empresa',
        mensaje: 'Solicitamos copia de los datos personales de nuestros representantes que trata la distribuidora y con qué fin.',
      },
      pasos: [{ dias: 4, lado: 'solicitante', accion: 'presentar' }],
    },
    // A claim about an installation from a neighbour who is not a holder: overdue for acceptance.
    {
      cuenta: correoClienteDemo(1),
      procedimiento: 'reclamacion',
      distribuidora: 'epd',
      datos: {
        rol: '08',
        tipo: '06',
        subtipo: '026',
        campos: {
          ubicacion: 'Calle de los Colegios, 14',
          ubicacionProvincia: '28',
          ubicacionMunicipio: '28005',
          ubicacionCodigoPostal: '28801',
        },
        mensaje: 'La puerta del centro de transformación de la calle está abierta y se puede entrar. Es peligroso para los niños.',
      },
      pasos: [{ dias: 9, lado: 'solicitante', accion: 'presentar' }],
    },
  );
  return casos;
}

/** Writes the demo queries and claims. */
export const demoContacto: DemoStep = async (db: Db, _random, now) => {
  const [gestora] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@electra.example'));
  if (!gestora) return { consultasYReclamaciones: 0 };
  const hoy = diaDe(now);
  let momento = now;
  const deps: DepsContacto = { db, clock: { now: () => momento }, publicUrl: null };
  const distribuidora: ActorExpediente = { ...SISTEMA, userId: gestora.id };
  let n = 0;
  for (const c of await casosDemo(db)) {
    const [u] = await db.select({ id: users.id }).from(users).where(eq(users.email, c.cuenta));
    if (!u) continue;
    const actores: Record<Lado, ActorExpediente> = { solicitante: { ...SISTEMA, userId: u.id }, distribuidora };
    momento = momentoDemo(hoy, c.pasos[0]?.dias ?? 0, 9);
    const e = await crearBorrador(deps, c.procedimiento, u.id, c.distribuidora, c.datos, actores.solicitante);
    await pasosDemo(db, e.id, c.pasos, {
      hoy,
      reloj: (m) => (momento = m),
      actores,
      actuar: (p, actor) =>
        actuar(
          deps,
          e.id,
          p.lado,
          p.accion,
          { ...(p.mensaje ? { mensaje: p.mensaje } : {}), ...(p.resultado ? { resultado: p.resultado } : {}) },
          actor,
        ),
    });
    n++;
  }
  return { consultasYReclamaciones: n };
};
