// Quote references (TQ-{reference}): 10 characters of the phone-safe alphabet, held unique by the
// quotes table's unique index on public_id (docs/decisions/038-quote-references-measured-alternatives.md).
//
// - The first 2 characters name the time bucket the quote was made in (BUCKET_MS of its createdAt,
//   counted round a cycle of 1,023 buckets). They are there for the index: references made close
//   together sort together, so a batch of new quotes writes to a few neighbouring leaf pages of the
//   index instead of one random page each. They say only roughly when, within the cycle, the quote
//   was made, which whoever holds the reference knows anyway; never how many quotes anyone has had.
// - The other 8 characters are 40 bits from node's CSPRNG: nothing about the row id, the order of
//   quotes or their number (docs/product.md §10). The bytes are drawn in blocks into one reused
//   buffer (randomFillSync), one byte a character: the alphabet has 32 characters, so a byte's low
//   5 bits pick one without bias and no byte is ever rejected.
// - No bucket is written TQ, so a typed `TQ` before 8 characters is always the prefix
//   (#shared/leads readReference).
//
// Quotes stored before keep the references they were given (8 or 9 characters, already in
// public_id): they are found through the same index.
import { randomFillSync } from 'node:crypto';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH, REFERENCE_PREFIX } from '#shared/reference';

export { REFERENCE_ALPHABET, REFERENCE_LENGTH };

/** Characters of a reference that name its time bucket; the rest are random. */
export const BUCKET_CHARACTERS = 2;
/** Random characters of a reference: 5 bits each, 40 bits. */
export const RANDOM_CHARACTERS = REFERENCE_LENGTH - BUCKET_CHARACTERS;
/** How long one bucket lasts. */
export const BUCKET_MS = 100;
/** Two characters write 1,024 buckets; the one written TQ is never used. */
export const BUCKETS = 32 ** BUCKET_CHARACTERS - 1;

/**
 * Gives a new reference for a quote made at `at` (milliseconds since the epoch) on each call. The
 * quote writer takes one; tests pass their own to force clashes.
 */
export type ReferenceSource = (at: number) => string;

/** The bucket's number written as it starts a reference, the one that would read TQ skipped. */
const SKIPPED = REFERENCE_ALPHABET.indexOf(REFERENCE_PREFIX[0]) * 32 + REFERENCE_ALPHABET.indexOf(REFERENCE_PREFIX[1]);
const CODES = Array.from(REFERENCE_ALPHABET, (ch) => ch.charCodeAt(0));

/** The 2 characters that start every reference made at `at`. */
export function bucketPrefix(at: number): string {
  if (!Number.isFinite(at)) throw new RangeError(`no reference bucket for the time ${at}`);
  const bucket = ((Math.floor(at / BUCKET_MS) % BUCKETS) + BUCKETS) % BUCKETS;
  const written = bucket >= SKIPPED ? bucket + 1 : bucket;
  return String.fromCharCode(CODES[written >> 5], CODES[written & 31]);
}

/** Random bytes are drawn this many at a time: one CSPRNG call every 512 references. */
const BLOCK = 4096;

/** A source of references: the bucket of `at`, then 40 bits from node's CSPRNG. */
export function randomReferences(): ReferenceSource {
  const bytes = Buffer.allocUnsafe(BLOCK);
  let next = BLOCK;
  const codes: number[] = new Array(RANDOM_CHARACTERS);
  // The prefix of the last bucket asked for: a batch of quotes shares it.
  let lastBucket = Number.NaN;
  let prefix = '';
  return function reference(at) {
    const bucket = Math.floor(at / BUCKET_MS);
    if (bucket !== lastBucket) {
      lastBucket = bucket;
      prefix = bucketPrefix(at);
    }
    if (next + RANDOM_CHARACTERS > BLOCK) {
      randomFillSync(bytes);
      next = 0;
    }
    for (let i = 0; i < RANDOM_CHARACTERS; i++) codes[i] = CODES[bytes[next + i] & 31];
    next += RANDOM_CHARACTERS;
    return prefix + String.fromCharCode(...codes);
  };
}
