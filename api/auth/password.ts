// Passwords are hashed with argon2id at OWASP's recommended parameters (19 MiB, t=2, p=1).
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = {
  algorithm: 2 /* Argon2id: the package's enum is a const enum, which isolatedModules cannot import */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Verifying against this when no user matches keeps the response time the same either way. */
let dummyHash: Promise<string> | undefined;
export const timingSafeDummy = (): Promise<string> => (dummyHash ??= hashPassword('not-a-real-password'));
