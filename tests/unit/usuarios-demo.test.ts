import { describe, expect, it } from 'vitest';
import { identidadDistribuidora } from '../../src/lib/certificados/identidad.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../src/lib/distribuidoras.ts';
import { esCifValido, esDniValido, esNieValido, esNifValido } from '../../src/lib/nif.ts';
import { DEMO_ACCOUNTS } from '../../src/server/demo/accounts.ts';
import { createRandom } from '../../src/server/demo/random.ts';
import { CLIENTES_DEMO, clientesDemo, correoClienteDemo } from '../../src/server/usuarios/demo.ts';

describe('generated demo accounts', () => {
  const clientes = clientesDemo(createRandom(20_250_428));

  it('are cliente001…cliente150 at correo.example', () => {
    expect(clientes).toHaveLength(CLIENTES_DEMO.total);
    expect(clientes[0]!.email).toBe('cliente001@correo.example');
    expect(clientes.at(-1)!.email).toBe(correoClienteDemo(150));
  });

  it('hold unique valid identifiers: people a DNI or NIE and three names, companies a CIF and a company name', () => {
    expect(new Set(clientes.map((c) => c.nif)).size).toBe(clientes.length);
    const empresas = clientes.filter((c) => c.razonSocial);
    for (const c of empresas) {
      expect(esCifValido(c.nif), c.nif).toBe(true);
      expect([c.nombre, c.apellido1, c.apellido2]).toEqual(['', '', '']);
    }
    for (const c of clientes.filter((x) => !x.razonSocial)) {
      expect(esDniValido(c.nif) || esNieValido(c.nif), c.nif).toBe(true);
      expect(c.nombre && c.apellido1 && c.apellido2).toBeTruthy();
    }
    // About one in six is a company.
    expect(empresas.length).toBeGreaterThan(12);
    expect(empresas.length).toBeLessThan(40);
    expect(clientes.some((c) => c.nif.startsWith('X') || c.nif.startsWith('Y'))).toBe(true);
  });

  it('are the same for the same seed', () => {
    expect(clientesDemo(createRandom(20_250_428))).toEqual(clientes);
  });
});

describe('the contract demo accounts', () => {
  it('hold valid identifiers of their own: no company reuses a distributor’s CIF, no two accounts share one', () => {
    const distribuidoras = CODIGOS_DISTRIBUIDORA.map((d) => identidadDistribuidora(d).nif);
    const todas = [...DEMO_ACCOUNTS.map((a) => a.nif), ...clientesDemo(createRandom(20_250_428)).map((c) => c.nif)];
    for (const a of DEMO_ACCOUNTS) expect(esNifValido(a.nif), a.email).toBe(true);
    expect(todas.filter((n) => distribuidoras.includes(n))).toEqual([]);
    expect(new Set(todas).size).toBe(todas.length);
  });
});
