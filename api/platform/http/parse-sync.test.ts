// Every contract validator calls safeParseAsync; parseSynchronouslyFirst has it parse synchronously
// when the schema allows, with exactly the result the asynchronous parse gives.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { quoteRequestSchema } from '#shared/schemas';
import { parseSynchronouslyFirst } from './validate';

describe('parseSynchronouslyFirst', () => {
  it('gives the asynchronous parse’s result, valid or not', async () => {
    const plain = quoteRequestSchema.clone();
    const synchronousFirst = parseSynchronouslyFirst(quoteRequestSchema.clone());
    const valid = { companyId: 1, pickupPostcode: 'M1 1AE', destinationPostcode: 'SW1A 1AA', vehicleType: 'car', gearboxType: 'manual', rollingStatus: 'rolling', problemType: 'engine-failure', urgency: 'immediate' };
    for (const body of [valid, { ...valid, pickupPostcode: '' }, { ...valid, urgency: 'later' }, { ...valid, passengerCount: 'two' }, null, 'text', { ...valid, extra: 1 }]) {
      expect(await synchronousFirst.safeParseAsync(body)).toEqual(await plain.safeParseAsync(body));
    }
  });

  it('falls back to the asynchronous parse for a schema with an asynchronous check, and keeps to it', async () => {
    let checks = 0;
    const schema = parseSynchronouslyFirst(
      z.object({ name: z.string().refine(async (name) => (checks++, name !== 'taken'), 'Name taken') }),
    );
    for (let i = 0; i < 2; i++) {
      expect(await schema.safeParseAsync({ name: 'free' })).toEqual({ success: true, data: { name: 'free' } });
      const taken = await schema.safeParseAsync({ name: 'taken' });
      expect(taken.success).toBe(false);
      expect(taken.error?.issues[0].message).toBe('Name taken');
    }
    // The first parse meets the check synchronously and runs it once more asynchronously.
    expect(checks).toBe(5);
  });

  it('changes a schema once, however often it is asked', async () => {
    const schema = z.object({ a: z.number() });
    const once = parseSynchronouslyFirst(schema).safeParseAsync;
    expect(parseSynchronouslyFirst(schema).safeParseAsync).toBe(once);
    expect(await schema.safeParseAsync({ a: 1 })).toEqual({ success: true, data: { a: 1 } });
  });
});
