import { describe, expect, it } from 'vitest';
import { dayWords, gearboxWords, moneyWords, neededWords, NOW, plainPounds, problemWords, rollingWords, vehicleWords } from './quote-words';

describe('the words of a stored quote', () => {
  it('gives a known choice its label, and the same label in sentence case for prose', () => {
    expect(rollingWords('not-rolling')).toBe('Not Rolling');
    expect(rollingWords('not-rolling', 'sentence')).toBe('Not rolling');
    expect(rollingWords('n-a')).toBe('N/A');
    expect(rollingWords('n-a', 'sentence')).toBe('N/A');
    expect(gearboxWords('automatic')).toBe('Automatic');
    expect(gearboxWords('manual', 'sentence')).toBe('Manual');
    expect(problemWords('engine-failure')).toBe('Engine Failure');
    expect(problemWords('engine-failure', 'sentence')).toBe('Engine failure');
    expect(problemWords('out-of-fuel', 'sentence')).toBe('Out of fuel');
  });

  it('words an unknown value from its own words, never re-casing what an operator typed in prose', () => {
    expect(vehicleWords('luton van')).toBe('Luton Van');
    expect(vehicleWords('luton van', 'sentence')).toBe('Luton van');
    expect(problemWords('ditch-recovery')).toBe('Ditch Recovery');
    expect(problemWords('ditch-recovery', 'sentence')).toBe('Ditch recovery');
    expect(problemWords('M25 Callout', 'sentence')).toBe('M25 Callout');
    expect(vehicleWords('car')).toBe('Car');
  });

  it('writes money with the pound sign on screen and as a plain number in a spreadsheet', () => {
    expect(moneyWords(18720)).toBe('£187.20');
    expect(moneyWords(123450)).toBe('£1,234.50');
    expect(plainPounds(18720)).toBe('187.20');
    expect(plainPounds(14375)).toBe('143.75');
  });

  it('says Now, or the scheduled UK day and time however the caller writes dates', () => {
    expect(neededWords({ urgency: 'immediate', preferredDate: null, preferredTime: null })).toBe(NOW);
    expect(neededWords({ urgency: 'immediate', preferredDate: '2026-12-05', preferredTime: '14:30' })).toBe('Now');
    expect(neededWords({ urgency: 'later', preferredDate: null, preferredTime: null })).toBe('Now');
    expect(neededWords({ urgency: 'later', preferredDate: '2026-12-05', preferredTime: '14:30' })).toBe('Sat, 5 Dec 2026 at 14:30');
    expect(neededWords({ urgency: 'later', preferredDate: '2026-12-05', preferredTime: null })).toBe('Sat, 5 Dec 2026');
    const numeric = (day: string) => day.split('-').reverse().join('/');
    expect(neededWords({ urgency: 'later', preferredDate: '2026-12-05', preferredTime: '14:30' }, numeric, ' ')).toBe('05/12/2026 14:30');
  });

  it('writes a calendar day without a zone shift, summer or winter', () => {
    expect(dayWords('2026-03-29')).toBe('Sun, 29 Mar 2026');
    expect(dayWords('2026-10-25')).toBe('Sun, 25 Oct 2026');
  });
});
