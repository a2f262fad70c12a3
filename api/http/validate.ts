// The one zValidator wrapper: zod failures become the DESIGN.md §4 error shape, with the first
// message of each field under `fields`, and the first message overall as `message`.
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { fieldMessages } from '../../shared/field-messages';
import { ValidationFailed } from '../errors';

export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const fields = fieldMessages((result.error as unknown as z.ZodError).issues);
      const first = Object.values(fields)[0] ?? 'Invalid request';
      throw new ValidationFailed(first, fields);
    }
  });

/** Route ids are positive integers; anything else is a 404 like a missing row. */
export function parseId(raw: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= 2 ** 31 ? n : undefined;
}
