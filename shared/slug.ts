// Slugs turn an operator's row names ("Not Rolling") into the values the quote form sends
// (`not-rolling`). Only ASCII letters and digits survive, so a name and the value sent for it
// agree however the browser or database treats other characters.

/** Lower case, each run of non-alphanumerics to one `-`, no `-` at either end. */
export function slugify(name: string): string {
  return name
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

const SLUG_END = -1;
const SLUG_DASH = 45;

const isAlphanumeric = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** Upper-case ASCII letters to lower case; callers only pass alphanumerics. */
const lowerAscii = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * `slugify(a) === slugify(b)`, without building either slug: the quote path compares each
 * request value against every row name of a company, and this keeps it free of allocation.
 */
export function sameSlug(a: string, b: string): boolean {
  let i = skipSeparators(a, 0);
  let j = skipSeparators(b, 0);
  for (;;) {
    let codeA: number;
    if (i >= a.length) codeA = SLUG_END;
    else if (isAlphanumeric(a.charCodeAt(i))) codeA = lowerAscii(a.charCodeAt(i++));
    else {
      i = skipSeparators(a, i);
      codeA = i >= a.length ? SLUG_END : SLUG_DASH;
    }

    let codeB: number;
    if (j >= b.length) codeB = SLUG_END;
    else if (isAlphanumeric(b.charCodeAt(j))) codeB = lowerAscii(b.charCodeAt(j++));
    else {
      j = skipSeparators(b, j);
      codeB = j >= b.length ? SLUG_END : SLUG_DASH;
    }

    if (codeA !== codeB) return false;
    if (codeA === SLUG_END) return true;
  }
}

function skipSeparators(s: string, from: number): number {
  let k = from;
  while (k < s.length && !isAlphanumeric(s.charCodeAt(k))) k++;
  return k;
}
