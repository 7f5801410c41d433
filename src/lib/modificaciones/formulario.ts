/**
 * The request form of /modificacionesContractuales/modificaciones-contractuales in plain TypeScript:
 * its fields as typed, the checks on submit (the same rules the API applies, on the supply point's
 * data the API gave), the messages per field, and the body it sends.
 */
import type { SolicitudEntrada } from './esquemas.ts';
import type { TipoSolicitud } from './motivos.ts';
import { exigeNormalizadas, leerKw, potenciasNormalizadas, textoKw } from './potencias.ts';
import { campoPeriodo, comprobarSolicitud, type CampoSolicitud, type ErrorRegla } from './reglas.ts';
import { contratoDesdeApi, periodosDe, TARIFAS_ELEGIBLES, type ContextoApi, type ContratoApi, type ModoTitular } from './tipos.ts';

/** The form's fields as typed. */
export interface FormularioSolicitud {
  cups: string;
  tipo: TipoSolicitud | '';
  /** Up to six powers in kW as typed ("4,6"), P1 first. */
  potencias: string[];
  tarifa: string;
  modo: ModoTitular;
  nif: string;
  nombre: string;
}

/** An empty form for a supply point. */
export function formularioVacio(cups: string): FormularioSolicitud {
  return { cups, tipo: '', potencias: ['', '', '', '', '', ''], tarifa: '', modo: 'correccion', nif: '', nombre: '' };
}

/** The control each field's messages link to. */
export const ID_CAMPO: Readonly<Record<CampoSolicitud, string>> = {
  suministro: 'mod-suministro',
  tipo: 'mod-tipo-potencia',
  tarifa: 'mod-tarifa',
  p1: 'mod-p1',
  p2: 'mod-p2',
  p3: 'mod-p3',
  p4: 'mod-p4',
  p5: 'mod-p5',
  p6: 'mod-p6',
  modo: 'mod-modo-correccion',
  nif: 'mod-nif',
  nombre: 'mod-nombre',
};

/** The order fields appear in, for the error summary. */
const ORDEN: readonly CampoSolicitud[] = ['suministro', 'tipo', 'tarifa', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'modo', 'nif', 'nombre'];

/** The tariff whose powers the form asks for: the current one for a change of power, the chosen one for a change of tariff. */
export function tarifaDePotencias(f: FormularioSolicitud, contrato: ContratoApi): string | null {
  if (f.tipo === 'potencia') return contrato.tarifa;
  if (f.tipo === 'tarifa') return f.tarifa || null;
  return null;
}

/** How many power fields the form shows. */
export function periodosFormulario(f: FormularioSolicitud, contrato: ContratoApi): number {
  const tarifa = tarifaDePotencias(f, contrato);
  return tarifa ? periodosDe(tarifa) : 0;
}

/** The label of a power field: 2.0TD names what each period covers. */
export function etiquetaPeriodo(tarifa: string, i: number): string {
  if (tarifa === '2.0TD') return i === 0 ? 'Potencia P1, punta y llano (kW)' : 'Potencia P2, valle (kW)';
  return `Potencia P${i + 1} (kW)`;
}

/** The tariffs the holder may move to (low voltage, not the current one); none for a high-voltage supply. */
export function tarifasPosibles(contrato: ContratoApi): string[] {
  if (contrato.tensionV >= 1000) return [];
  return TARIFAS_ELEGIBLES.filter((t) => t !== contrato.tarifa);
}

/** The hint under the power fields: what values the supply point admits. */
export function ayudaPotencias(contrato: ContratoApi): string {
  const maximo = `La instalación admite como mucho ${textoKw(Math.round(contrato.potenciaMaximaKw * 1000))} kW.`;
  if (!exigeNormalizadas(contrato))
    return `Su suministro tiene maxímetro: puede contratar cualquier potencia en kW, con tres decimales como mucho. ${maximo}`;
  const valores = potenciasNormalizadas(contrato.fases, contrato.tensionV).filter((w) => w <= Math.round(contrato.potenciaMaximaKw * 1000));
  const tipo = contrato.fases === 'monofasico' ? 'monofásico (230 V)' : 'trifásico (400 V)';
  return `Su suministro es ${tipo} con limitador de potencia: solo admite potencias normalizadas. Hasta el máximo de su instalación son ${valores.map(textoKw).join(' · ')} kW.`;
}

/** Every problem of the form on submit, with the rules' messages; empty when it may be sent. */
export function validarFormulario(f: FormularioSolicitud, contexto: ContextoApi | null): ErrorRegla[] {
  if (!f.cups) return [{ codigo: null, campo: 'suministro', mensaje: 'Elija el suministro que quiere modificar.' }];
  if (!f.tipo)
    return [{ codigo: null, campo: 'tipo', mensaje: 'Elija qué quiere cambiar: la potencia, la tarifa o los datos del titular.' }];
  if (!contexto) return [{ codigo: null, campo: 'suministro', mensaje: 'Espere a que se carguen los datos del suministro.' }];
  const ctx = {
    contrato: contratoDesdeApi(contexto.contrato),
    enBaja: contexto.enBaja,
    cortado: contexto.cortado,
    solicitudEnCurso: contexto.solicitudEnCurso?.referencia ?? null,
    ultimoCambioPotencia: contexto.ultimoCambioPotencia,
    titularDesde: contexto.titularDesde,
    hoy: contexto.hoy,
  };
  const n = periodosFormulario(f, contexto.contrato);
  const potenciasW = f.potencias.slice(0, n).map(leerKw);
  const errores =
    f.tipo === 'titular'
      ? comprobarSolicitud(ctx, { tipo: 'titular', modo: f.modo, nif: f.nif, nombre: f.nombre })
      : f.tipo === 'potencia'
        ? comprobarSolicitud(ctx, { tipo: 'potencia', potenciasW })
        : comprobarSolicitud(ctx, { tipo: 'tarifa', tarifa: f.tarifa, potenciasW });
  return [...errores].sort((a, b) => ORDEN.indexOf(a.campo) - ORDEN.indexOf(b.campo));
}

/** The messages of each field, joined, in the form's order: one summary entry and one message per field. */
export function erroresPorCampo(errores: readonly ErrorRegla[]): { campo: CampoSolicitud; mensaje: string }[] {
  const out: { campo: CampoSolicitud; mensaje: string }[] = [];
  for (const e of errores) {
    const ya = out.find((x) => x.campo === e.campo);
    if (ya) ya.mensaje = `${ya.mensaje} ${e.mensaje}`;
    else out.push({ campo: e.campo, mensaje: e.mensaje });
  }
  return out;
}

/** The body of POST /api/modificaciones for a form that passed `validarFormulario`. */
export function cuerpoSolicitud(f: FormularioSolicitud, contrato: ContratoApi): SolicitudEntrada {
  const potenciasKw = f.potencias.slice(0, periodosFormulario(f, contrato)).map((p) => (leerKw(p) ?? 0) / 1000);
  switch (f.tipo) {
    case 'potencia':
      return { cups: f.cups, tipo: 'potencia', potenciasKw };
    case 'tarifa':
      return { cups: f.cups, tipo: 'tarifa', tarifa: f.tarifa, potenciasKw };
    default:
      return { cups: f.cups, tipo: 'titular', modo: f.modo, nif: f.modo === 'cambio' ? f.nif : '', nombre: f.nombre };
  }
}

/** The field of period i, re-exported for the screen. */
export { campoPeriodo };
