/**
 * The SFTP host key (src/server/intercambio/sftp.ts): ssh2's generator writes, about once in 400
 * keys, an ed25519 key its own parser refuses, and a server given it does not start. The portal's
 * keys are always readable, and a stored unreadable one is replaced.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import { claveDeHost, generarClaveSsh } from '../../src/server/intercambio/sftp.ts';

const { utils } = ssh2;
const carpetas: string[] = [];
const carpeta = () => {
  const c = mkdtempSync(join(tmpdir(), 'portal-clave-'));
  carpetas.push(c);
  return c;
};
afterAll(() => {
  for (const c of carpetas) rmSync(c, { recursive: true, force: true });
});

/** A key straight from ssh2's generator that ssh2's parser refuses. */
function claveIlegible(): string {
  for (let i = 0; i < 50_000; i++) {
    const { private: privada } = utils.generateKeyPairSync('ed25519');
    if (utils.parseKey(privada) instanceof Error) return privada;
  }
  throw new Error('ssh2 ya no genera claves ilegibles');
}

describe('SSH keys', () => {
  it('are always readable by ssh2: 3,000 of them, where its own generator fails about 7 times', () => {
    for (let i = 0; i < 3_000; i++) {
      const par = generarClaveSsh();
      expect(utils.parseKey(par.private)).not.toBeInstanceOf(Error);
      expect(utils.parseKey(par.public)).not.toBeInstanceOf(Error);
    }
  });

  it('keep a comment when asked', () => {
    const par = generarClaveSsh('pruebas');
    expect(par.public.endsWith(' pruebas')).toBe(true);
  });
});

describe('the host key in DATA_DIR', () => {
  it('is generated once and then read back', () => {
    const dir = carpeta();
    const primera = claveDeHost(dir, null);
    expect(utils.parseKey(primera)).not.toBeInstanceOf(Error);
    expect(claveDeHost(dir, null)).toBe(primera);
  });

  it('replaces a stored key that ssh2 cannot read, and keeps the new one', () => {
    const dir = carpeta();
    const fichero = join(dir, 'sftp_host_ed25519_key');
    const mala = claveIlegible();
    writeFileSync(fichero, mala);
    const nueva = claveDeHost(dir, null);
    expect(nueva).not.toBe(mala);
    expect(utils.parseKey(nueva)).not.toBeInstanceOf(Error);
    expect(readFileSync(fichero, 'utf8')).toBe(nueva);
    expect(claveDeHost(dir, null)).toBe(nueva);
  });

  it('is SFTP_HOST_KEY when given', () => {
    const dada = generarClaveSsh().private;
    expect(claveDeHost(carpeta(), dada)).toBe(dada);
  });
});
