import { describe, expect, it } from 'vitest';
import { fieldMessages } from './field-messages';
import { quoteRequestSchema } from './schemas';

describe('fieldMessages', () => {
  it("keeps each field's first message, keyed by its path, and '_' for the whole body", () => {
    const result = quoteRequestSchema.safeParse({ pickupPostcode: '', urgency: 'later' });
    expect(result.success).toBe(false);
    const fields = fieldMessages(result.error?.issues ?? []);
    expect(fields.pickupPostcode).toBe('Pickup postcode is required');
    expect(fields.preferredTime).toBeUndefined();
    expect(
      fieldMessages([
        { path: [], message: 'Invalid input' },
        { path: ['rows', 0, 'name'], message: 'Name is required' },
        { path: ['rows', 0, 'name'], message: 'later' },
      ]),
    ).toEqual({
      _: 'Invalid input',
      'rows.0.name': 'Name is required',
    });
  });
});
