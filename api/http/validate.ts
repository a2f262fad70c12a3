// The one validation refusal: the route table's zod failures (OpenAPIHono's defaultHook) become
// the DESIGN.md §4 error shape, with the first message of each field under `fields`, and the
// first message overall as `message`.
import type { z } from 'zod';
import { ValidationFailed } from '../errors';

export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** OpenAPIHono's defaultHook: called with every validation result of every table route. */
export function validationHook(result: { success: true } | { success: false; error: unknown }): void {
  if (!result.success) {
    const fields = fieldMessages(result.error as z.ZodError);
    throw new ValidationFailed(Object.values(fields)[0] ?? 'Invalid request', fields);
  }
}

/** Route ids are positive integers; anything else is a 404 like a missing row. */
export function parseId(raw: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= 2 ** 31 ? n : undefined;
}
