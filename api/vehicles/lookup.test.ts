import { describe, expect, it, vi } from 'vitest';
import { LookupUnavailable, type ProviderAnswer, type VehicleProvider } from './dvla';
import { createVehicleLookup, LOOKUP_CACHE_MS } from './lookup';

const FORD: ProviderAnswer = { found: true, vehicle: { make: 'FORD', colour: 'WHITE', typeApproval: 'N1' } };

function countingProvider(answer: (plate: string) => Promise<ProviderAnswer> = async () => FORD) {
  const asked: string[] = [];
  const provider: VehicleProvider = {
    lookup: (plate) => {
      asked.push(plate);
      return answer(plate);
    },
  };
  return { provider, asked };
}

describe('createVehicleLookup', () => {
  it('keeps an answer for 24 hours, then asks again', async () => {
    let now = 0;
    const { provider, asked } = countingProvider();
    const lookup = createVehicleLookup({ provider, now: () => now });
    expect(await lookup.lookup('AB12CDE')).toEqual({ status: 'found', vehicle: FORD.found && FORD.vehicle });
    now += LOOKUP_CACHE_MS - 1;
    await lookup.lookup('AB12CDE');
    expect(asked).toHaveLength(1);
    now += 1;
    await lookup.lookup('AB12CDE');
    expect(asked).toHaveLength(2);
  });

  it('is bounded: past maxEntries the least recently used plate is forgotten', async () => {
    const { provider, asked } = countingProvider();
    const lookup = createVehicleLookup({ provider, maxEntries: 2 });
    await lookup.lookup('AA11AAA');
    await lookup.lookup('BB11BBB');
    await lookup.lookup('AA11AAA'); // used again: BB11BBB is now the oldest
    await lookup.lookup('CC11CCC');
    await lookup.lookup('AA11AAA');
    expect(asked).toEqual(['AA11AAA', 'BB11BBB', 'CC11CCC']);
    await lookup.lookup('BB11BBB');
    expect(asked).toEqual(['AA11AAA', 'BB11BBB', 'CC11CCC', 'BB11BBB']);
  });

  it('shares one request between look-ups of a plate already in flight', async () => {
    let release: (answer: ProviderAnswer) => void = () => {};
    const { provider, asked } = countingProvider(() => new Promise((resolve) => (release = resolve)));
    const lookup = createVehicleLookup({ provider });
    const both = Promise.all([lookup.lookup('AB12CDE'), lookup.lookup('AB12CDE')]);
    release({ found: false });
    expect(await both).toEqual([{ status: 'not-found' }, { status: 'not-found' }]);
    expect(asked).toHaveLength(1);
  });

  it('gives up on a provider that ignores its deadline, and caches nothing', async () => {
    vi.useFakeTimers();
    try {
      const { provider, asked } = countingProvider(() => new Promise(() => {}));
      const lookup = createVehicleLookup({ provider, timeoutMs: 1500 });
      const answer = lookup.lookup('AB12CDE');
      await vi.advanceTimersByTimeAsync(1500);
      expect(await answer).toEqual({ status: 'unavailable' });
      void lookup.lookup('AB12CDE');
      expect(asked).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rests for the provider’s Retry-After after a 429', async () => {
    let now = 0;
    const { provider, asked } = countingProvider(async () => {
      throw new LookupUnavailable('rate-limited', 429, 30);
    });
    const lookup = createVehicleLookup({ provider, now: () => now });
    expect(await lookup.lookup('AB12CDE')).toEqual({ status: 'unavailable' });
    now += 29_999;
    expect(await lookup.lookup('XY12ZZZ')).toEqual({ status: 'unavailable' });
    expect(asked).toHaveLength(1);
    now += 1;
    await lookup.lookup('XY12ZZZ');
    expect(asked).toHaveLength(2);
  });

  it('without a provider is unavailable', async () => {
    const lookup = createVehicleLookup({});
    expect(lookup.available).toBe(false);
    expect(await lookup.lookup('AB12CDE')).toEqual({ status: 'unavailable' });
  });
});
