// How a quote reference is written (TQ-{reference}): what the contract documents and the server's
// generator (api/quotes/reference.ts) produces. No code: safe for any bundle.

// Crockford-style alphabet: no 0/O or 1/I confusion when read out over the phone. 32 characters,
// so one random byte's low 5 bits pick one without bias.
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/**
 * 10 characters of 5 bits, held unique by an index (decision 038): 2 naming the time bucket the
 * quote was made in, then 8 random ones (40 bits). Quotes stored before keep the references they
 * were given: 8 random characters (before decision 011) or 9 (decision 011's permutation of the
 * row id).
 */
export const REFERENCE_LENGTH = 10;
/** Every length a stored reference has: the older ones first. */
export const REFERENCE_LENGTHS = [8, 9, REFERENCE_LENGTH] as const;
/**
 * No reference of REFERENCE_LENGTH begins with this: a typed `TQ` before 8 characters is then
 * always the prefix, never the reference's own first two characters.
 */
export const REFERENCE_PREFIX = 'TQ';
