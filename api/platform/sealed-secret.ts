// A secret kept at rest in the database (a Xero refresh token, a job's token): AES-256-GCM under a key derived
// from SESSION_SECRET with HKDF and the use's own label, so no other use of the secret shares the
// key; a random 96-bit nonce per seal, the label bound in as associated data. A copy of the
// database alone opens nothing, and a changed SESSION_SECRET opens none of the older seals (the
// owner connects again). The job token at rest is sealed by it too (api/bookings/tokens.ts).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  seal(secret: string): string;
  /** What `seal` made under the same key and label; undefined for anything else. */
  open(sealed: string): string | undefined;
}

/**
 * `label` names the use (the key's HKDF info); `associated` is bound into each seal, by default
 * `recovery-quote {label}` (the job token's seals, older than this module, bind their own).
 */
export function secretBox(sessionSecret: string, label: string, associated = `recovery-quote ${label}`): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', sessionSecret, 'recovery-quote', label, 32));
  const aad = Buffer.from(associated);
  return {
    seal(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, data] = sealed.split('.');
      if (version !== VERSION || !data) return undefined;
      const bytes = Buffer.from(data, 'base64url');
      if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES)).setAAD(aad);
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
