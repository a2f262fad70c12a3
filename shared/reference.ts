// How a quote reference is written (TQ-{reference}): what the contract documents and the server's
// cipher (api/quotes/reference.ts) produces. No code: safe for any bundle.

// Crockford-style alphabet: no 0/O or 1/I confusion when read out over the phone.
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** 9 characters of 5 bits: the 45-bit domain. (The random references before it had 8.) */
export const REFERENCE_LENGTH = 9;
