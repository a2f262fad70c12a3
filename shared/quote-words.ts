// One way to word a stored quote, for the alert email, the CSV export and the Quotes tab, so the
// three never disagree (docs/product.md §16). Quotes store the form's values ("not-rolling",
// "engine-failure", "luton van"); these functions turn them into the words a person reads.
// Pure and free of runtime dependencies beyond shared/: the widget never imports this module.
import { DEFAULT_PROBLEM_TYPES, GEARBOX_OPTIONS, ROLLING_OPTIONS } from './constants';
import { formatPence } from './money';

type Options = readonly { value: string; label: string }[];

/**
 * How a choice is written: `label` as a form label ("Not Rolling", "Luton Van"), which is how the
 * Quotes tab lists them; `sentence` as words in a line of prose ("Not rolling", "Luton van"),
 * which is how the alert email writes them. Both start from the same label.
 */
export type WordStyle = 'label' | 'sentence';

/** A label in sentence case: title-cased words after the first are lowered; "N/A" or "4x4" stay. */
const sentence = (words: string): string =>
  words
    .split(' ')
    .map((word, i) => (i > 0 && /^\p{Lu}\p{Ll}+$/u.test(word) ? word.toLowerCase() : word))
    .join(' ');

/**
 * A stored choice in words: a known option by its label; anything else (an operator's own charge
 * name, a vehicle) by its own words with hyphens as spaces, capitalised as a label, or in a
 * sentence only at its start, so what an operator typed is never re-cased.
 */
function choice(value: string, options: Options, style: WordStyle): string {
  const known = options.find((option) => option.value === value.toLowerCase());
  if (known) return style === 'sentence' ? sentence(known.label) : known.label;
  const words = value.replace(style === 'label' ? /[-_]+/g : /-/g, ' ').trim();
  if (style === 'label') return words.replace(/(^|\s)\p{Ll}/gu, (letter) => letter.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const vehicleWords = (value: string, style: WordStyle = 'label') => choice(value, [], style);
export const gearboxWords = (value: string, style: WordStyle = 'label') => choice(value, GEARBOX_OPTIONS, style);
export const rollingWords = (value: string, style: WordStyle = 'label') => choice(value, ROLLING_OPTIONS, style);
export const problemWords = (value: string, style: WordStyle = 'label') => choice(value, DEFAULT_PROBLEM_TYPES, style);

/** The money a quote shows: "£187.20". */
export const moneyWords = (pence: number): string => formatPence(pence);
/** The money in a spreadsheet cell, pounds as a plain number: "187.20". */
export const plainPounds = (pence: number): string => (pence / 100).toFixed(2);

/** What a quote needed straight away is called. */
export const NOW = 'Now';

// A calendar day (YYYY-MM-DD) is already a UK one: read at UTC midnight and written in UTC, so no zone shifts it.
const calendarDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
/** "Sat, 5 Dec 2026". */
export const dayWords = (day: string): string => calendarDay.format(new Date(`${day}T00:00:00Z`));

export interface Urgency {
  urgency: string;
  preferredDate: string | null;
  preferredTime: string | null;
}

/**
 * When the recovery is needed: "Now", or the scheduled day and time. `day` writes the date
 * ("Sat, 5 Dec 2026" by default) and `at` joins the time (" at " by default).
 */
export function neededWords(q: Urgency, day: (date: string) => string = dayWords, at = ' at '): string {
  if (q.urgency !== 'later' || !q.preferredDate) return NOW;
  return q.preferredTime ? `${day(q.preferredDate)}${at}${q.preferredTime}` : day(q.preferredDate);
}
