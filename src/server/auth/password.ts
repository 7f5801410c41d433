/** Password hashing with argon2id at the OWASP Password Storage Cheat Sheet parameters. */
import { hash, verify } from '@node-rs/argon2';

/** argon2id, m = 19 MiB, t = 2, p = 1 (OWASP's first recommended configuration). */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password into a PHC string that carries its own salt and parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Checks a password against a stored hash; false for a malformed hash rather than an error. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
