// The browser journeys' clock control (api/platform/test-clock.ts): forward only, within a week,
// answered in the one error shape when refused, and never configurable in production.
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { createTestClock, MAX_ADVANCE_MS, TEST_CLOCK_PATH, testClockRequests } from './test-clock';

const ORIGIN = 'http://127.0.0.1:4400';
const post = (body: string) => new Request(`${ORIGIN}${TEST_CLOCK_PATH}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

function control(start = Date.parse('2026-11-28T12:00:00Z')) {
  let real = start;
  const clock = createTestClock(() => real);
  let moves = 0;
  const answer = testClockRequests(clock, async () => {
    moves += 1;
  });
  return { clock, answer, moves: () => moves, pass: (ms: number) => (real += ms) };
}

describe('the test clock', () => {
  it('runs with the real clock until moved, then ahead of it by every advance', () => {
    const { clock, pass } = control();
    expect(clock.now().toISOString()).toBe('2026-11-28T12:00:00.000Z');
    pass(1_000);
    expect(clock.now().toISOString()).toBe('2026-11-28T12:00:01.000Z');
    expect(clock.advance(120_000).toISOString()).toBe('2026-11-28T12:02:01.000Z');
    clock.advance(60_000);
    pass(1_000);
    expect(clock.now().toISOString()).toBe('2026-11-28T12:03:02.000Z');
  });

  it('moves on through POST, runs what fell due before answering, and answers the new time', async () => {
    const { answer, moves, clock } = control();
    const res = await answer(post(JSON.stringify({ advanceMs: 120_000 })))!;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ now: '2026-11-28T12:02:00.000Z' });
    expect(moves()).toBe(1);
    expect(clock.now().toISOString()).toBe('2026-11-28T12:02:00.000Z');
    const read = await answer(new Request(`${ORIGIN}${TEST_CLOCK_PATH}`))!;
    expect(await read.json()).toEqual({ now: '2026-11-28T12:02:00.000Z' });
  });

  it.each([
    ['not JSON', 'advance', 'BAD_REQUEST'],
    ['no advance', '{}', 'VALIDATION_FAILED'],
    ['backwards', JSON.stringify({ advanceMs: -60_000 }), 'VALIDATION_FAILED'],
    ['zero', JSON.stringify({ advanceMs: 0 }), 'VALIDATION_FAILED'],
    ['a fraction', JSON.stringify({ advanceMs: 1.5 }), 'VALIDATION_FAILED'],
    ['a string', JSON.stringify({ advanceMs: '60000' }), 'VALIDATION_FAILED'],
    ['beyond a week', JSON.stringify({ advanceMs: MAX_ADVANCE_MS + 1 }), 'VALIDATION_FAILED'],
  ])('refuses %s with a 400 in the one error shape, and leaves the clock', async (_what, body, code) => {
    const { answer, moves, clock } = control();
    const res = await answer(post(body))!;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.any(String), code, requestId: expect.any(String) });
    expect(moves()).toBe(0);
    expect(clock.now().toISOString()).toBe('2026-11-28T12:00:00.000Z');
  });

  it('answers other methods as the app answers a method no route serves, and leaves every other path to the app', async () => {
    const { answer } = control();
    const res = await answer(new Request(`${ORIGIN}${TEST_CLOCK_PATH}`, { method: 'DELETE' }))!;
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: 'Not found', code: 'NOT_FOUND' });
    expect(answer(new Request(`${ORIGIN}/healthz`))).toBeUndefined();
    expect(answer(new Request(`${ORIGIN}${TEST_CLOCK_PATH}/more`, { method: 'POST' }))).toBeUndefined();
  });
});

describe('TEST_CLOCK_CONTROL', () => {
  const production = { NODE_ENV: 'production', DATABASE_PATH: ':memory:', SESSION_SECRET: 'x'.repeat(32), BILLING_MODE: 'local' };

  it('is off unless set to 1', () => {
    expect(loadConfig({ DATABASE_PATH: ':memory:' }).testClockControl).toBe(false);
    expect(loadConfig({ DATABASE_PATH: ':memory:', TEST_CLOCK_CONTROL: '0' }).testClockControl).toBe(false);
    expect(loadConfig({ DATABASE_PATH: ':memory:', TEST_CLOCK_CONTROL: '1' }).testClockControl).toBe(true);
    expect(() => loadConfig({ DATABASE_PATH: ':memory:', TEST_CLOCK_CONTROL: 'yes' })).toThrow(/TEST_CLOCK_CONTROL/);
  });

  it('stops start-up when NODE_ENV=production', () => {
    expect(loadConfig(production).testClockControl).toBe(false);
    expect(() => loadConfig({ ...production, TEST_CLOCK_CONTROL: '1' })).toThrow(
      /TEST_CLOCK_CONTROL is for the browser tests only and is refused when NODE_ENV=production/,
    );
  });
});
