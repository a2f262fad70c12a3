// UK registrations (number plates) as the quote form and the API read them: free of zod, so the
// widget can use it without the schema library.

/** A registration as typed: spaces and case do not matter ("ab12 cde" is AB12CDE). */
export const normaliseRegistration = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

/**
 * The shapes of UK registrations the DVLA could know, normalised: current (AB12CDE), prefix
 * (A123BCD), suffix (ABC123D), dateless (up to 4 digits and 3 letters either way round) and
 * Northern Irish (ABZ1234). Anything else is not worth a look-up.
 */
export const UK_REGISTRATION = /^(?:[A-Z]{2}\d{2}[A-Z]{3}|[A-Z]\d{1,3}[A-Z]{3}|[A-Z]{3}\d{1,3}[A-Z]|[A-Z]{1,3}\d{1,4}|\d{1,4}[A-Z]{1,3})$/;

/** What a quote records of a typed plate: its letters and digits, in capitals. */
export const plateCharacters = (value: string): string => value.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

export const REGISTRATION_INVALID = 'Please enter a valid UK registration';
