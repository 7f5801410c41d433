/**
 * Generated demo accounts, so user administration has a realistic list to page, search and filter:
 * `cliente001@correo.example` … `cliente150@correo.example`, password `Demo1234`. About one in six
 * is a company (CIF, company name), the rest people (DNI, some NIE). cliente001–120 are active with
 * the activation permissions, cliente121–140 await activation with a live link, as registration
 * leaves them, and cliente141–150 were deactivated by an administrator.
 *
 * Identifiers follow the demo accounts' convention (src/server/demo/accounts.ts): CIFs use province
 * code 00, which no real company holds; DNI/NIE numbers start with 00, a range long retired.
 */
import { letraDni, controlCif } from '../../lib/nif.ts';
import { ACTIVACION_TTL_MS, crearEnlace } from '../auth/cuentas.ts';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import { DEMO_PASSWORD } from '../demo/accounts.ts';
import type { DemoStep } from '../demo/load.ts';
import type { Random } from '../demo/random.ts';
import { cambiarEstadoCuenta, grantPermissions, insertUser, permisosAlActivar } from './service.ts';

const HORA = 60 * 60 * 1000;
const DIA = 24 * HORA;

/** How many accounts, and where each state's range ends (1-based, inclusive). */
export const CLIENTES_DEMO = { total: 150, ultimoActivo: 120, ultimoPendiente: 140 } as const;

/** The e-mail of generated demo account `n` (1-based). */
export function correoClienteDemo(n: number): string {
  return `cliente${String(n).padStart(3, '0')}@correo.example`;
}

/** First names and surnames of the generated people (also the benchmark's 100,000 accounts). */
export const NOMBRES = [
  'Lucía',
  'María',
  'Carmen',
  'Ana',
  'Laura',
  'Marta',
  'Elena',
  'Paula',
  'Sara',
  'Cristina',
  'Isabel',
  'Pilar',
  'Rocío',
  'Nuria',
  'Beatriz',
  'Inés',
  'Alba',
  'Noelia',
  'Ángela',
  'Begoña',
  'Iratxe',
  'Montserrat',
  'Sofía',
  'Julia',
  'Antonio',
  'José',
  'Manuel',
  'Francisco',
  'David',
  'Javier',
  'Daniel',
  'Carlos',
  'Jesús',
  'Alejandro',
  'Miguel',
  'Rafael',
  'Pablo',
  'Sergio',
  'Fernando',
  'Jorge',
  'Alberto',
  'Álvaro',
  'Íñigo',
  'Adrián',
  'Rubén',
  'Óscar',
  'Joaquín',
  'Xabier',
  'Jordi',
  'Ramón',
] as const;

export const APELLIDOS = [
  'García',
  'Rodríguez',
  'González',
  'Fernández',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Alonso',
  'Gutiérrez',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Gil',
  'Ramírez',
  'Serrano',
  'Blanco',
  'Molina',
  'Morales',
  'Suárez',
  'Ortega',
  'Delgado',
  'Castro',
  'Ortiz',
  'Rubio',
  'Marín',
  'Sanz',
  'Núñez',
  'Iglesias',
  'Medina',
  'Garrido',
  'Cortés',
  'Castillo',
  'Santos',
  'Lozano',
  'Guerrero',
  'Cano',
  'Prieto',
  'Méndez',
  'Cruz',
  'Calvo',
  'Gallego',
  'Peña',
  'León',
  'Herrera',
  'Márquez',
  'Cabrera',
  'Vidal',
  'Echeverría',
  'Goikoetxea',
  'Puig',
  'Ibáñez',
] as const;

const EMPRESA_NOMBRE = [
  'Talleres',
  'Panadería',
  'Construcciones',
  'Transportes',
  'Hostal',
  'Bodegas',
  'Carpintería',
  'Frutas',
  'Instalaciones',
  'Cerámicas',
  'Lácteos',
  'Gestoría',
  'Agrícola',
  'Almacenes',
  'Climatización',
  'Imprenta',
] as const;
const EMPRESA_LUGAR = [
  'del Norte',
  'La Vega',
  'San Roque',
  'El Robledal',
  'Los Olivos',
  'Río Duero',
  'La Meseta',
  'Sierra Alta',
  'Valle Verde',
  'del Tajo',
  'Las Encinas',
  'Puerto Viejo',
  'Santa Ana',
  'El Molino',
  'Campo Real',
  'Los Pinos',
] as const;
const EMPRESA_FORMA = [', S.L.', ', S.L.', ', S.L.', ', S.A.', ', S.Coop.'] as const;

/** One generated person or company, before it is stored. */
export interface ClienteDemo {
  email: string;
  nif: string;
  nombre: string;
  apellido1: string;
  apellido2: string;
  razonSocial: string;
}

/** Draws a DNI (00 + 6 random digits + letter) or, one time in eight, an NIE (X/Y + 00 + 5 digits). */
function nifPersona(random: Random): string {
  if (random.chance(1 / 8)) {
    const inicial = random.pick(['X', 'Y'] as const);
    const digitos = `00${String(random.int(0, 99_999)).padStart(5, '0')}`;
    return `${inicial}${digitos}${letraDni(Number(`${'XYZ'.indexOf(inicial)}${digitos}`))}`;
  }
  const numero = `00${String(random.int(100_000, 999_999)).padStart(6, '0')}`;
  return `${numero}${letraDni(Number(numero))}`;
}

/** Draws a CIF of province 00: B (S.L.) or A (S.A.), whose control is a digit. */
function cifEmpresa(random: Random, forma: string): string {
  const letra = forma === ', S.A.' ? 'A' : forma === ', S.Coop.' ? 'F' : 'B';
  // 10000 and up: the five demo accounts of docs/api.md hold B0000xxxx below it.
  const siete = `00${String(random.int(10_000, 99_999))}`;
  return `${letra}${siete}${controlCif(siete)}`;
}

/** The generated accounts' data, deterministic for a given random stream; NIFs are unique. */
export function clientesDemo(random: Random): ClienteDemo[] {
  const usados = new Set<string>();
  const unico = (draw: () => string) => {
    for (;;) {
      const nif = draw();
      if (!usados.has(nif)) {
        usados.add(nif);
        return nif;
      }
    }
  };
  const out: ClienteDemo[] = [];
  for (let n = 1; n <= CLIENTES_DEMO.total; n++) {
    const email = correoClienteDemo(n);
    if (random.chance(1 / 6)) {
      const forma = random.pick(EMPRESA_FORMA);
      const razonSocial = `${random.pick(EMPRESA_NOMBRE)} ${random.pick(EMPRESA_LUGAR)} Demo${forma}`;
      out.push({ email, nif: unico(() => cifEmpresa(random, forma)), nombre: '', apellido1: '', apellido2: '', razonSocial });
    } else {
      out.push({
        email,
        nif: unico(() => nifPersona(random)),
        nombre: random.pick(NOMBRES),
        apellido1: random.pick(APELLIDOS),
        apellido2: random.pick(APELLIDOS),
        razonSocial: '',
      });
    }
  }
  return out;
}

/**
 * Stores one generated account in its state, through the same services registration, activation
 * and administration use.
 */
async function guardar(db: Db, cliente: ClienteDemo, n: number, passwordHash: string, random: Random, now: Date): Promise<void> {
  if (n <= CLIENTES_DEMO.ultimoPendiente && n > CLIENTES_DEMO.ultimoActivo) {
    // Registered within the last 40 hours, so its 48-hour activation link is still live.
    const alta = new Date(now.getTime() - random.int(1, 40 * 60) * 60_000);
    const { id } = await insertUser(db, { ...cliente, passwordHash, estado: 'pendiente', now: alta });
    await crearEnlace(db, id, 'activacion', alta, ACTIVACION_TTL_MS);
    return;
  }
  // Registered some time in the last two years.
  const alta = new Date(now.getTime() - random.int(3 * DIA, 730 * DIA));
  const { id } = await insertUser(db, { ...cliente, passwordHash, estado: 'activo', now: alta });
  await grantPermissions(db, id, permisosAlActivar());
  if (n > CLIENTES_DEMO.ultimoPendiente) {
    await cambiarEstadoCuenta(db, id, 'inactivo', new Date(alta.getTime() + random.int(1, 48) * HORA));
  }
}

/**
 * The demo step. One argon2 hash of `Demo1234` serves every generated account: argon2id at the
 * portal's parameters takes tens of milliseconds per hash, so 150 of them would add seconds to
 * every first start, and a PHC string carries its own salt, so sharing one is still a valid hash
 * (these accounts share a published password anyway).
 */
export const demoClientes: DemoStep = async (db, random, now) => {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const clientes = clientesDemo(random);
  for (const [i, cliente] of clientes.entries()) await guardar(db, cliente, i + 1, passwordHash, random, now);
  return { clientesGenerados: clientes.length };
};
