// Quote references (TQ-{reference}) as a keyed permutation of the quote's row id: unique by
// construction, so the quotes table needs no index on them, and, without the key, they say
// nothing about how many quotes anyone has had (docs/product.md §10). The key is random, made by the
// migration that introduced it and kept in the database, so a backup carries it.
// docs/decisions/011-quote-references.md says why this replaced random references.
//
// The permutation is a Feistel network over 45 bits in the manner of NIST SP 800-38G's FF1 for
// an odd split (22 + 23 bits, alternating), ten rounds, with AES-128 as the round function.
// Rounds for a whole batch of quotes go through AES together, one call per round.
import { createCipheriv, type Cipher } from 'node:crypto';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '#shared/reference';

export { REFERENCE_ALPHABET, REFERENCE_LENGTH };
const LEFT_BITS = 22;
const RIGHT_BITS = 23;
const RIGHT_SIZE = 2 ** RIGHT_BITS;
const LEFT_MASK = 2 ** LEFT_BITS - 1;
const RIGHT_MASK = 2 ** RIGHT_BITS - 1;
/** Row ids up to this (exclusive) have a reference: 35 trillion quotes. */
export const MAX_SEQUENCE = 2 ** (LEFT_BITS + RIGHT_BITS);
const ROUNDS = 10;
const BLOCK = 16;

export interface ReferenceCipher {
  /** The references of the given row ids, in order. */
  encode(sequences: readonly number[]): string[];
  /**
   * The row id a 9-character reference stands for (the inverse permutation), or null when it is
   * not one of REFERENCE_LENGTH characters of REFERENCE_ALPHABET. Every such reference decodes to
   * some id: whether a row has it is the caller's question.
   */
  decode(reference: string): number | null;
}

export function createReferenceCipher(key: Uint8Array): ReferenceCipher {
  if (key.length !== 16) throw new Error(`the quote reference key must be 16 bytes, got ${key.length}`);
  const aes: Cipher = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);

  let scratch = Buffer.alloc(0);

  /** F(r, x) for every x at once: the first 32 bits of AES(r ‖ x), one AES call for the batch. */
  function roundFunction(round: number, xs: Uint32Array): Buffer {
    const n = xs.length;
    if (scratch.length < BLOCK * n) scratch = Buffer.alloc(BLOCK * n);
    const input = scratch.subarray(0, BLOCK * n);
    for (let i = 0; i < n; i++) {
      input[i * BLOCK] = round;
      input.writeUInt32BE(xs[i], i * BLOCK + 4);
    }
    return aes.update(input);
  }

  /**
   * The network over every value at once. Round r turns (a, b) into (b, a xor F(r, b)), where a
   * has LEFT_BITS in even rounds and RIGHT_BITS in odd ones, and F(r, x) is cut to a's width.
   */
  function permute(values: readonly number[]): number[] {
    const n = values.length;
    let a = new Uint32Array(n);
    let b = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      a[i] = Math.floor(values[i] / RIGHT_SIZE);
      b[i] = values[i] % RIGHT_SIZE;
    }
    for (let round = 0; round < ROUNDS; round++) {
      const output = roundFunction(round, b);
      const mask = round % 2 === 0 ? LEFT_MASK : RIGHT_MASK;
      for (let i = 0; i < n; i++) a[i] = (a[i] ^ (output.readUInt32BE(i * BLOCK) & mask)) >>> 0;
      [a, b] = [b, a];
    }
    return Array.from(a, (ai, i) => ai * RIGHT_SIZE + b[i]);
  }

  /** The rounds backwards: (x, y) after round r came from (y xor F(r, x), x). */
  function unpermute(value: number): number {
    let a = Math.floor(value / RIGHT_SIZE);
    let b = value % RIGHT_SIZE;
    const one = new Uint32Array(1);
    for (let round = ROUNDS - 1; round >= 0; round--) {
      one[0] = a;
      const mask = round % 2 === 0 ? LEFT_MASK : RIGHT_MASK;
      const previousA = (b ^ (roundFunction(round, one).readUInt32BE(0) & mask)) >>> 0;
      b = a;
      a = previousA;
    }
    return a * RIGHT_SIZE + b;
  }

  return {
    encode(sequences) {
      for (const n of sequences) {
        if (!Number.isInteger(n) || n < 0 || n >= MAX_SEQUENCE) throw new RangeError(`no quote reference for row id ${n}`);
      }
      return permute(sequences).map(toReference);
    },
    decode(reference) {
      const value = fromReference(reference);
      return value === null ? null : unpermute(value);
    },
  };
}

function fromReference(reference: string): number | null {
  if (reference.length !== REFERENCE_LENGTH) return null;
  let value = 0;
  for (const ch of reference) {
    const digit = REFERENCE_ALPHABET.indexOf(ch);
    if (digit === -1) return null;
    value = value * 32 + digit;
  }
  return value;
}

function toReference(value: number): string {
  let reference = '';
  for (let i = 0; i < REFERENCE_LENGTH; i++) {
    reference = REFERENCE_ALPHABET[value % 32] + reference;
    value = Math.floor(value / 32);
  }
  return reference;
}
