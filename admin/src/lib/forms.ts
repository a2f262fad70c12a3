// Forms keep what the user typed (numbers as text, so a blank stays blank) and validate with
// the shared zod schemas on submit, so the browser shows the server's own messages.
import type { z } from 'zod';
import { fieldMessages } from '../../../shared/field-messages';

export type FieldErrors = Record<string, string>;

export type Parsed<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

export function parseWith<S extends z.ZodType>(schema: S, values: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(values);
  return result.success ? { ok: true, data: result.data } : { ok: false, errors: fieldMessages(result.error.issues) };
}

/** A pounds or count value for a text input: the number as typed, or '' when absent. */
export const asInput = (value: number | null | undefined): string => (value == null ? '' : String(value));
