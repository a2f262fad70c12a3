import { describe, expect, it } from 'vitest';
import { LEAD_NOTE_MAX } from '#shared/leads';
import { insertQuote, type NewQuote } from '../quotes/store';
import { createTestApp, quoteBody, storedQuote } from '../test/harness';

// 12:00 UTC, 13:00 in London (summer time).
const NOW = new Date('2026-06-10T12:00:00Z');

function setup(env: Record<string, string> = {}) {
  const t = createTestApp({ now: () => NOW, env });
  const store = (companyId: number, overrides: Partial<NewQuote> = {}) =>
    insertQuote(t.deps.db, storedQuote(companyId, { createdAt: NOW.toISOString(), ...overrides }));
  /** Every column of every quote and lead event: what "nothing changed" compares. */
  const snapshot = () => ({
    quotes: t.deps.db.$client.prepare('select * from quotes order by id').all(),
    events: t.deps.db.$client.prepare('select * from lead_events order by id').all(),
  });
  return { t, store, snapshot };
}

const hoursBefore = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

describe('GET /api/quotes', () => {
  const { t, store } = setup();

  it('lists the company’s quotes newest first, a page at a time, by cursor', async () => {
    const op = await t.operator();
    const other = await t.operator();
    await store(other.companyId);
    const references: string[] = [];
    // Two share an instant: the id breaks the tie, and no page repeats or skips one.
    for (const hours of [50, 40, 30, 30, 20, 10, 1]) references.push(await store(op.companyId, { createdAt: hoursBefore(hours) }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const res = await t.raw('GET', `/api/quotes${query}`, { token: op.token });
      expect(res.status).toBe(200);
      expect(res.json.quotes.length).toBeLessThanOrEqual(2);
      seen.push(...res.json.quotes.map((q: { reference: string }) => q.reference));
      cursor = res.json.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    // Newest first; of the two at one instant, the later id first.
    expect(seen).toEqual([...references].reverse());
  });

  it('answers each quote as a Lead', async () => {
    const op = await t.operator();
    const reference = await store(op.companyId, { urgency: 'later', preferredDate: '2026-06-12', preferredTime: '09:30' });
    const res = await t.call('GET', '/api/quotes', { token: op.token });
    expect(res.json).toEqual({
      quotes: [
        {
          reference,
          createdAt: NOW.toISOString(),
          pickupPostcode: 'M1 1AE',
          destinationPostcode: 'LS1 4AP',
          distance: 43.2,
          vehicleType: 'Car',
          gearboxType: 'Manual',
          rollingStatus: 'Rolling',
          passengerCount: 0,
          problemType: 'Engine Failure',
          urgency: 'later',
          preferredDate: '2026-06-12',
          preferredTime: '09:30',
          totalPrice: 298,
          status: 'new',
          statusChangedAt: null,
          customerContact: null,
          customerContacts: [],
          takenBy: null,
        },
      ],
      nextCursor: null,
    });
  });

  it('filters by UK calendar days (inclusive), status and urgency', async () => {
    const op = await t.operator();
    // 23:30 UTC on 8 June is 00:30 on 9 June in London.
    const ninth = await store(op.companyId, { createdAt: '2026-06-08T23:30:00.000Z' });
    const eighth = await store(op.companyId, { createdAt: '2026-06-08T22:30:00.000Z' });
    const later = await store(op.companyId, { createdAt: '2026-06-10T08:00:00.000Z', urgency: 'later', preferredDate: '2026-06-11' });
    const refs = async (query: string) =>
      (await t.call('GET', `/api/quotes?${query}`, { token: op.token })).json.quotes.map((q: { reference: string }) => q.reference);
    expect(await refs('from=2026-06-09&to=2026-06-09')).toEqual([ninth]);
    expect(await refs('to=2026-06-08')).toEqual([eighth]);
    expect(await refs('from=2026-06-09')).toEqual([later, ninth]);
    expect(await refs('urgency=later')).toEqual([later]);
    expect(await refs('urgency=immediate')).toEqual([ninth, eighth]);
    await t.call('PUT', `/api/quotes/${eighth}/status`, { token: op.token, body: { status: 'won' } });
    expect(await refs('status=won')).toEqual([eighth]);
    expect(await refs('status=new&urgency=immediate')).toEqual([ninth]);
  });

  it.each([
    ['from=2026-13-01', 'from', 'From must be a real date'],
    ['from=yesterday', 'from', 'From must be YYYY-MM-DD'],
    ['from=2026-6-1', 'from', 'From must be YYYY-MM-DD'],
    ['from=2026-02-30', 'from', 'From must be a real date'],
    ['to=2026-04-31', 'to', 'To must be a real date'],
    ['from=2026-06-10&to=2026-06-09', 'to', 'To must not be before From'],
    ['from=1999-12-31', 'from', 'From must be between 2000-01-01 and 2099-12-31'],
    ['to=2100-01-01', 'to', 'To must be between 2000-01-01 and 2099-12-31'],
    ['status=archived', 'status', 'Status must be one of new, contacted, won, lost'],
    ['urgency=soon', 'urgency', 'Urgency must be immediate or later'],
    ['limit=0', 'limit', 'Limit must be between 1 and 100'],
    ['limit=101', 'limit', 'Limit must be between 1 and 100'],
    ['limit=ten', 'limit', 'Limit must be a whole number'],
    ['limit=-1', 'limit', 'Limit must be a whole number'],
    ['cursor=not%20a%20cursor', 'cursor', 'Cursor is not valid'],
    [`cursor=${Buffer.from('2026-06-10T12:00:00.000Z|0').toString('base64url')}`, 'cursor', 'Cursor is not valid'],
    [`cursor=${Buffer.from('yesterday|5').toString('base64url')}`, 'cursor', 'Cursor is not valid'],
    [`cursor=${'A'.repeat(101)}`, 'cursor', 'Cursor is not valid'],
  ])('refuses %s with a 400 naming %s', async (query, field, message) => {
    const op = await t.operator();
    for (const path of ['/api/quotes', '/api/quotes/export.csv']) {
      if (path.endsWith('.csv') && (field === 'cursor' || field === 'limit')) continue;
      const res = await t.raw('GET', `${path}?${query}`, { token: op.token });
      expect(res.status, path).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      expect(res.json.fields[field]).toBe(message);
    }
  });

  it('does not disturb the quote calculation beside it', async () => {
    const op = await t.operator();
    const res = await t.call('POST', '/api/quotes/calculate', { token: op.token, body: { ...quoteBody, companyId: op.companyId } });
    expect(res.status).toBe(200);
    const list = await t.call('GET', '/api/quotes', { token: op.token });
    expect(list.json.quotes.map((q: { reference: string }) => q.reference)).toEqual([res.json.quoteId]);
  });
});

describe('GET /api/quotes/{reference}', () => {
  const { t, store } = setup();

  it('finds a quote however the reference is typed, with its lines, VAT, validity and history', async () => {
    const op = await t.operator();
    const reference = await store(op.companyId, { vatPence: 4967, vatRatePercent: 20, validUntil: '2026-06-11T12:00:00.000Z' });
    for (const typed of [reference, `TQ-${reference}`, `tq-${reference.toLowerCase()}`, ` TQ ${reference.slice(0, 4)} ${reference.slice(4)} `]) {
      const res = await t.call('GET', `/api/quotes/${encodeURIComponent(typed)}`, { token: op.token });
      expect(res.status, typed).toBe(200);
      expect(res.json.reference).toBe(reference);
    }
    const res = await t.call('GET', `/api/quotes/TQ-${reference}`, { token: op.token });
    expect(res.json.lines).toEqual([
      { label: 'Vehicle Base Price', amount: 50 },
      { label: 'Call-out Fee', amount: 50 },
      { label: 'Distance (43.2 miles)', amount: 108 },
      { label: 'Labour Fee', amount: 45 },
      { label: 'Engine Failure surcharge', amount: 45 },
    ]);
    expect(res.json.vat).toEqual({ rate: 20, amount: 49.67 });
    expect(res.json.validUntil).toBe('2026-06-11T12:00:00.000Z');
    expect(res.json.history).toEqual([]);
  });

  it('rebuilds the lines of a quote stored without them, adding up to its total', async () => {
    const op = await t.operator();
    const reference = await store(op.companyId, { lines: null, totalPricePence: 31250 });
    const res = await t.call('GET', `/api/quotes/${reference}`, { token: op.token });
    expect(res.json.lines).toEqual([
      { label: 'Vehicle and options', amount: 64.5 },
      { label: 'Call-out Fee', amount: 50 },
      { label: 'Distance (43.2 miles)', amount: 108 },
      { label: 'Labour Fee', amount: 45 },
      { label: 'Extras', amount: 45 },
    ]);
    const sum = res.json.lines.reduce((total: number, line: { amount: number }) => total + Math.round(line.amount * 100), 0);
    expect(sum).toBe(31250);
    expect(res.json.vat).toBeNull();
  });

  it('finds an 8-character reference from before decision 011 within the company only', async () => {
    const op = await t.operator();
    const other = await t.operator();
    await store(op.companyId);
    t.deps.db.$client.prepare("update quotes set public_id = 'ABCD2345' where id = (select max(id) from quotes)").run();
    expect((await t.call('GET', '/api/quotes/tq-abcd2345', { token: op.token })).json.reference).toBe('ABCD2345');
    expect((await t.call('GET', '/api/quotes/ABCD2345', { token: other.token })).status).toBe(404);
  });

  it('answers a malformed, unknown or other company’s reference with the same 404', async () => {
    const owner = await t.operator();
    const intruder = await t.operator();
    const reference = await store(owner.companyId);
    // Well formed, of each length a reference has had, and held by no quote.
    const unknowns = ['ZZZZZZZZZ', 'ZZZZZZZZZZ', 'ZZZZ2222'];
    const bodies = [];
    for (const typed of [
      reference,
      ...unknowns,
      'TQ-123',
      'TQ-!!!!!!!!!',
      'O0O0O0O0O',
      'O0O0O0O0O0',
      'TQTQ23456789',
      'x'.repeat(300),
      `TQ-${reference}X`,
      '%',
    ]) {
      const res = await t.call('GET', `/api/quotes/${encodeURIComponent(typed)}`, { token: intruder.token });
      expect(res.status, typed).toBe(404);
      const { requestId, ...rest } = res.json;
      expect(requestId).toBeTruthy();
      bodies.push(rest);
    }
    expect(bodies.every((b) => JSON.stringify(b) === JSON.stringify({ message: 'Quote not found', code: 'NOT_FOUND' }))).toBe(true);
    // Only the stored reference finds a quote: once it is changed, the old one finds nothing.
    t.deps.db.$client.prepare('update quotes set public_id = ? where public_id = ?').run('ABCDEFGHJK', reference);
    expect((await t.call('GET', `/api/quotes/${reference}`, { token: owner.token })).status).toBe(404);
  });
});

describe('PUT /api/quotes/{reference}/status', () => {
  const { t, store, snapshot } = setup();

  it('sets the status and keeps each change with its note, oldest first', async () => {
    const op = await t.operator();
    const reference = await store(op.companyId);
    const first = await t.call('PUT', `/api/quotes/${reference}/status`, { token: op.token, body: { status: 'contacted', note: '  Rang back, no answer  ' } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ reference, status: 'contacted', statusChangedAt: NOW.toISOString() });
    expect(first.json.history).toEqual([{ status: 'contacted', note: 'Rang back, no answer', at: NOW.toISOString() }]);
    const second = await t.call('PUT', `/api/quotes/tq-${reference.toLowerCase()}/status`, { token: op.token, body: { status: 'won', note: '' } });
    expect(second.json.status).toBe('won');
    expect(second.json.history).toEqual([
      { status: 'contacted', note: 'Rang back, no answer', at: NOW.toISOString() },
      { status: 'won', note: null, at: NOW.toISOString() },
    ]);
    expect((await t.call('GET', `/api/quotes/${reference}`, { token: op.token })).json).toEqual(second.json);
  });

  it.each([
    [{ status: 'archived' }, 'status', 'Status must be one of new, contacted, won, lost'],
    [{}, 'status', 'Status must be one of new, contacted, won, lost'],
    [{ status: 'won', note: 'x'.repeat(LEAD_NOTE_MAX + 1) }, 'note', `Must be at most ${LEAD_NOTE_MAX} characters`],
    [{ status: 'won', note: 42 }, 'note', 'Must be text'],
  ])('refuses %j with a 400, changing nothing', async (body, field, message) => {
    const op = await t.operator();
    const reference = await store(op.companyId);
    const before = snapshot();
    const res = await t.call('PUT', `/api/quotes/${reference}/status`, { token: op.token, body });
    expect(res.status).toBe(400);
    expect(res.json.fields[field]).toBe(message);
    expect(snapshot()).toEqual(before);
  });

  it('takes a note of exactly 500 characters', async () => {
    const op = await t.operator();
    const reference = await store(op.companyId);
    const res = await t.call('PUT', `/api/quotes/${reference}/status`, { token: op.token, body: { status: 'lost', note: 'n'.repeat(LEAD_NOTE_MAX) } });
    expect(res.status).toBe(200);
    expect(res.json.history[0].note).toHaveLength(LEAD_NOTE_MAX);
  });

  it('answers an unknown or other company’s reference with 404, changing nothing', async () => {
    const owner = await t.operator();
    const intruder = await t.operator();
    const reference = await store(owner.companyId);
    const before = snapshot();
    for (const typed of [reference, 'ZZZZZZZZZ', 'nonsense']) {
      const res = await t.call('PUT', `/api/quotes/${typed}/status`, { token: intruder.token, body: { status: 'won', note: 'mine now' } });
      expect(res.status).toBe(404);
      expect(res.json.message).toBe('Quote not found');
    }
    expect(snapshot()).toEqual(before);
  });
});

describe('POST /api/quotes/{reference}/contact', () => {
  const { t, store, snapshot } = setup({ CONTACT_RATE_LIMIT: '3' });

  it('records the tap from any site, and nothing else', async () => {
    const op = await t.operator();
    const reference = await store(op.companyId);
    const before = snapshot();
    const res = await t.call('POST', `/api/quotes/TQ-${reference}/contact`, {
      body: { channel: 'whatsapp' },
      origin: 'https://garage.example',
      headers: { 'x-forwarded-for': '1' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const after = snapshot();
    expect(after.events).toEqual(before.events);
    const changed = after.quotes.filter((row, i) => JSON.stringify(row) !== JSON.stringify(before.quotes[i]));
    expect(changed).toEqual([
      {
        ...(before.quotes.find((q) => (q as { public_id: string }).public_id === reference) as object),
        contact_channel: 'whatsapp',
        contacted_at: NOW.toISOString(),
        whatsapp_tapped_at: NOW.toISOString(),
      },
    ]);
    const lead = await t.call('GET', `/api/quotes/${reference}`, { token: op.token });
    expect(lead.json.customerContact).toEqual({ channel: 'whatsapp', at: NOW.toISOString() });
    expect(lead.json.status).toBe('new');
  });

  it('keeps the first tap of each button: a later tap of the same one changes nothing, the other one adds', async () => {
    let clock = new Date('2026-06-10T12:00:00Z');
    const app = createTestApp({ now: () => clock, env: { CONTACT_RATE_LIMIT: '0' } });
    const op = await app.operator();
    const reference = await insertQuote(app.deps.db, storedQuote(op.companyId, { createdAt: clock.toISOString() }));
    const tap = async (channel: 'whatsapp' | 'phone', at: string) => {
      clock = new Date(at);
      const res = await app.call('POST', `/api/quotes/${reference}/contact`, { body: { channel } });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    };
    await tap('whatsapp', '2026-06-10T12:01:00Z');
    await tap('whatsapp', '2026-06-10T12:05:00Z');
    await tap('phone', '2026-06-10T12:07:00Z');
    await tap('phone', '2026-06-10T12:09:00Z');
    await tap('whatsapp', '2026-06-10T12:11:00Z');
    const lead = (await app.call('GET', `/api/quotes/${reference}`, { token: op.token })).json;
    expect(lead.customerContact).toEqual({ channel: 'whatsapp', at: '2026-06-10T12:01:00.000Z' });
    expect(lead.customerContacts).toEqual([
      { channel: 'whatsapp', at: '2026-06-10T12:01:00.000Z' },
      { channel: 'phone', at: '2026-06-10T12:07:00.000Z' },
    ]);
  });

  it('answers an unknown or malformed reference with 404 and a bad channel with 400, changing nothing', async () => {
    const t2 = setup({ CONTACT_RATE_LIMIT: '0' });
    const op = await t2.t.operator();
    const reference = await t2.store(op.companyId);
    const before = t2.snapshot();
    for (const typed of ['ZZZZZZZZZ', 'TQ-1', 'ABCD2345']) {
      const res = await t2.t.call('POST', `/api/quotes/${typed}/contact`, { body: { channel: 'phone' } });
      expect(res.status, typed).toBe(404);
    }
    const bad = await t2.t.call('POST', `/api/quotes/${reference}/contact`, { body: { channel: 'sms' } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields.channel).toBe('Channel must be whatsapp or phone');
    expect(t2.snapshot()).toEqual(before);
  });

  it('has its own rate limit per client (CONTACT_RATE_LIMIT a minute)', async () => {
    const limited = setup({ CONTACT_RATE_LIMIT: '3', QUOTE_RATE_LIMIT: '5' });
    const op = await limited.t.operator();
    const reference = await limited.store(op.companyId);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.t.call('POST', `/api/quotes/${reference}/contact`, { body: { channel: 'phone' } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The quote calculation's budget is its own.
    expect((await limited.t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } })).status).toBe(200);
  });
});

describe('GET /api/quotes/numbers', () => {
  const { t, store } = setup();

  it('counts today, 7 and 30 UK days, the shares, the median, per day and the top districts', async () => {
    const op = await t.operator();
    const other = await t.operator();
    await store(other.companyId);
    // Today in London began at 23:00 UTC on 9 June.
    const today = [await store(op.companyId, { createdAt: '2026-06-09T23:10:00.000Z', totalPricePence: 10000, pickupPostcode: 'LS1 4AP' })];
    today.push(await store(op.companyId, { createdAt: hoursBefore(1), totalPricePence: 20000, pickupPostcode: 'LS2 7EW' }));
    const yesterday = await store(op.companyId, { createdAt: '2026-06-09T22:50:00.000Z', totalPricePence: 30000, pickupPostcode: 'LS1 5AA' });
    const sixDaysAgo = await store(op.companyId, { createdAt: '2026-06-04T09:00:00.000Z', totalPricePence: 40000 });
    const twentyNineDaysAgo = await store(op.companyId, { createdAt: '2026-05-12T09:00:00.000Z', totalPricePence: 50000 });
    // Before the 30 days (11 May) and before the numbers' first day: not counted.
    await store(op.companyId, { createdAt: '2026-05-11T22:59:00.000Z', totalPricePence: 99999 });
    await t.call('PUT', `/api/quotes/${yesterday}/status`, { token: op.token, body: { status: 'won' } });
    await t.call('PUT', `/api/quotes/${sixDaysAgo}/status`, { token: op.token, body: { status: 'contacted' } });
    await t.call('PUT', `/api/quotes/${twentyNineDaysAgo}/status`, { token: op.token, body: { status: 'lost' } });
    const res = await t.call('GET', '/api/quotes/numbers', { token: op.token });
    expect(res.status).toBe(200);
    const n = res.json;
    expect(n).toMatchObject({ today: 2, last7Days: 4, last30Days: 5, contactedShare: 3 / 5, wonShare: 1 / 5, medianTotal: 300 });
    expect(n.perDay).toHaveLength(30);
    expect(n.perDay[0]).toEqual({ date: '2026-05-12', count: 1 });
    expect(n.perDay[29]).toEqual({ date: '2026-06-10', count: 2 });
    expect(n.perDay[28]).toEqual({ date: '2026-06-09', count: 1 });
    expect(n.perDay[23]).toEqual({ date: '2026-06-04', count: 1 });
    expect(n.perDay.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(5);
    expect(n.topDistricts).toEqual([
      { district: 'LS1', count: 2 },
      { district: 'M1', count: 2 },
      { district: 'LS2', count: 1 },
    ]);
  });

  it('is all zeros without quotes, with no median', async () => {
    const op = await t.operator();
    const res = await t.call('GET', '/api/quotes/numbers', { token: op.token });
    expect(res.json).toMatchObject({ today: 0, last7Days: 0, last30Days: 0, contactedShare: 0, wonShare: 0, medianTotal: null, topDistricts: [] });
    expect(res.json.perDay.every((d: { count: number }) => d.count === 0)).toBe(true);
  });
});

describe('GET /api/quotes/export.csv', () => {
  const { t, store } = setup();

  it('streams the filtered list as Excel-ready CSV: BOM, header, pounds, en-GB UK times, quoting, no formulas', async () => {
    const op = await t.operator();
    const other = await t.operator();
    await store(other.companyId, { problemType: 'Not mine' });
    const plain = await store(op.companyId, { createdAt: '2026-06-09T23:30:00.000Z', totalPricePence: 14375 });
    const tricky = await store(op.companyId, {
      createdAt: '2026-06-10T08:02:00.000Z',
      problemType: '=HYPERLINK("http://evil.example","Click")',
      vehicleType: 'Van, "long", wheelbase',
      gearboxType: '+1',
      rollingStatus: '@SUM(A1)',
      urgency: 'later',
      preferredDate: '2026-06-12',
      preferredTime: '07:15',
    });
    await t.call('PUT', `/api/quotes/${tricky}/status`, { token: op.token, body: { status: 'contacted', note: 'Rang back, =booked' } });
    await t.call('POST', `/api/quotes/${tricky}/contact`, { body: { channel: 'whatsapp' } });
    const res = await t.app.request('http://localhost:3999/api/quotes/export.csv', { headers: { 'x-auth-token': op.token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="quotes-2026-06-10.csv"');
    expect(res.body).toBeInstanceOf(ReadableStream);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe(
      'Reference,Date,Time,Pickup,Destination,Miles,Vehicle,Gearbox,Rolling status,Passengers,Problem,When,Total (£),Status,Status changed,Customer contact,Last change,Note,' +
        'Booking,Booked,Customer name,Customer mobile,Registration,Booking note,Accepted,ETA (minutes),Driver,Decline reason,Payment status,Amount paid (£),Amount refunded (£),Source,Taken by',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      `TQ-${tricky},10/06/2026,09:02,M1 1AE,LS1 4AP,43.2,"Van, ""long"", Wheelbase",'+1,'@SUM(A1),0,"'=HYPERLINK(""http://evil.example"",""Click"")",12/06/2026 07:15,298.00,Contacted,10/06/2026 13:00,WhatsApp 10/06/2026 13:00,Contacted 10/06/2026 13:00,"Rang back, =booked",,,,,,,,,,,,,,web,`,
    );
    expect(lines[2]).toBe(`TQ-${plain},10/06/2026,00:30,M1 1AE,LS1 4AP,43.2,Car,Manual,Rolling,0,Engine Failure,Now,143.75,New,,,,,,,,,,,,,,,,,,web,`);
    const filtered = await t.call('GET', '/api/quotes/export.csv?status=new&from=2026-06-10&to=2026-06-10', { token: op.token });
    expect(filtered.headers.get('content-disposition')).toBe('attachment; filename="quotes-2026-06-10-to-2026-06-10.csv"');
    expect(filtered.text.split('\r\n').slice(1, -1)).toEqual([lines[2]]);
  });

  it('writes the labels the portal shows, the latest note, and net, VAT and gross for a VAT-registered operator', async () => {
    const op = await t.operator();
    const reference = await store(op.companyId, {
      gearboxType: 'automatic',
      rollingStatus: 'not-rolling',
      problemType: 'flat-battery',
      vehicleType: 'luton van',
      vatPence: 4967,
    });
    await t.call('PUT', `/api/quotes/${reference}/status`, { token: op.token, body: { status: 'contacted', note: 'Left a voicemail' } });
    await t.call('PUT', `/api/quotes/${reference}/status`, { token: op.token, body: { status: 'won' } });
    const plainCsv = await t.call('GET', '/api/quotes/export.csv', { token: op.token });
    expect(plainCsv.text.split('\r\n')[1]).toBe(
      `TQ-${reference},10/06/2026,13:00,M1 1AE,LS1 4AP,43.2,Luton Van,Automatic,Not Rolling,0,Flat Battery,Now,298.00,Won,10/06/2026 13:00,,Won 10/06/2026 13:00,Left a voicemail,,,,,,,,,,,,,,web,`,
    );

    await t.call('PUT', '/api/pricing', { token: op.token, body: { vatRegistered: true, pricesIncludeVat: true } });
    const [header, row] = (await t.call('GET', '/api/quotes/export.csv', { token: op.token })).text.slice(1).split('\r\n');
    expect(header).toContain(',When,Net (£),VAT (£),Gross (£),Status,');
    expect(row).toContain(',Flat Battery,Now,248.33,49.67,298.00,Won,');
  });

  it('reads more than one chunk, in order, none twice', async () => {
    const op = await t.operator();
    const references = [];
    for (let i = 0; i < 1203; i++) references.push(await store(op.companyId, { createdAt: new Date(NOW.getTime() - (i % 600) * 60_000).toISOString() }));
    const res = await t.call('GET', '/api/quotes/export.csv', { token: op.token });
    const exported = res.text
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',')[0].slice('TQ-'.length));
    expect(exported).toHaveLength(1203);
    expect(new Set(exported)).toEqual(new Set(references));

    // Streamed: the header first, then one chunk of rows per read, never the whole list at once.
    const stream = await t.app.request('http://localhost:3999/api/quotes/export.csv', { headers: { 'x-auth-token': op.token } });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const lines = async () => new TextDecoder().decode((await reader.read()).value).split('\r\n').length - 1;
    expect(await lines()).toBe(1);
    expect(await lines()).toBe(500);
    expect(await lines()).toBe(500);
    await reader.cancel();
  });
});
