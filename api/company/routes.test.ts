import { describe, expect, it } from 'vitest';
import { updateUser } from '../auth/store';
import { createTestApp, TEST_ORIGIN } from '../test/harness';

const PNG_1PX = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('company settings', () => {
  const t = createTestApp();

  it('reads and updates every field, money in pounds', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', {
      token: op.token,
      body: {
        name: 'Rapid Recovery',
        primaryColour: '#c62828',
        phone: '+44 7700 900456',
        whatsapp: '07700 900456',
        email: 'jobs@rapid.example',
        preferredContact: 'phone',
        companyDescription: '24/7 recovery in Greater Manchester',
        basePostcode: 'm11ae',
        serviceRadius: 30.5,
        extraRadiusFee: '17.50',
        enablePriceRounding: true,
        showPriceBreakdown: false,
        priceRoundingMultiple: 10,
        passengerLimit: 3,
        pricePerPassenger: 7.25,
        feature1Title: 'Fast',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: 'Rapid Recovery',
      primaryColour: '#C62828',
      basePostcode: 'M1 1AE',
      serviceRadius: 30.5,
      extraRadiusFee: 17.5,
      priceRoundingMultiple: 10,
      passengerLimit: 3,
      pricePerPassenger: 7.25,
      feature1Title: 'Fast',
      feature2Title: 'Transparent Pricing',
    });
    const again = await t.call('GET', '/api/company', { token: op.token });
    expect(again.json).toEqual(res.json);
  });

  it.each([
    [{ primaryColour: 'red' }, 'primaryColour'],
    [{ primaryColour: '#fff' }, 'primaryColour'],
    [{ textColour: '#000000;background:url(x)' }, 'textColour'],
    [{ passengerLimit: 11 }, 'passengerLimit'],
    [{ passengerLimit: 0 }, 'passengerLimit'],
    [{ priceRoundingMultiple: 7 }, 'priceRoundingMultiple'],
    [{ extraRadiusFee: -1 }, 'extraRadiusFee'],
    [{ extraRadiusFee: 'NaN' }, 'extraRadiusFee'],
    [{ basePostcode: 'NOT A POSTCODE' }, 'basePostcode'],
    [{ email: 'not-an-email' }, 'email'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ showPriceBreakdown: 'yes' }, 'showPriceBreakdown'],
  ])('refuses %j with a field message and changes nothing', async (body, field) => {
    const op = await t.operator();
    const before = await t.call('GET', '/api/company', { token: op.token });
    const res = await t.call('PUT', '/api/company', { token: op.token, body });
    expect(res.status).toBe(400);
    expect(res.json.fields?.[field]).toBeTruthy();
    expect((await t.call('GET', '/api/company', { token: op.token })).json).toEqual(before.json);
  });

  it.each([{ passengerLimit: '' }, { passengerLimit: null }, { serviceRadius: '', passengerLimit: '' }])(
    'treats %j, blank optional numbers alone, as no change',
    async (body) => {
      const op = await t.operator();
      const before = await t.call('GET', '/api/company', { token: op.token });
      const res = await t.call('PUT', '/api/company', { token: op.token, body });
      expect(res.status).toBe(200);
      expect(res.json).toEqual(before.json);
    },
  );

  it('locks the custom URL once set, refuses taken and reserved slugs', async () => {
    const a = await t.operator();
    const b = await t.operator();
    expect((await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: 'api' } })).status).toBe(400);
    expect((await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: 'Bad Slug' } })).status).toBe(400);
    expect((await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: 'ab' } })).status).toBe(400);
    expect((await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: '../etc' } })).status).toBe(400);
    const set = await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: 'rapid-recovery' } });
    expect(set.status).toBe(200);
    expect(set.json.customSlug).toBe('rapid-recovery');
    expect((await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: 'rapid-recovery' } })).status).toBe(200);
    const change = await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: 'other-name' } });
    expect(change.status).toBe(409);
    expect(change.json).toMatchObject({ message: 'The custom URL is locked and cannot be changed', code: 'SLUG_LOCKED' });
    const taken = await t.call('PUT', '/api/company', { token: b.token, body: { customSlug: 'rapid-recovery' } });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ message: 'That custom URL is already taken. Please choose another.', code: 'SLUG_TAKEN' });
    expect((await t.call('PUT', '/api/company', { token: b.token, body: { customSlug: 'demo' } })).status).toBe(400);

    const pub = await t.call('GET', '/api/company/slug/rapid-recovery');
    expect(pub.status).toBe(200);
    expect(pub.json.id).toBe(a.companyId);
    expect(pub.json.basePostcode).toBeUndefined();
    expect(pub.json.customDomain).toBeUndefined();
    expect(pub.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('claims a custom URL only with a subscription that grants access; other settings stay editable', async () => {
    const now = t.deps.now().getTime();
    const iso = (offsetDays: number) => new Date(now + offsetDays * 86_400_000).toISOString();
    const claim = (token: string, slug: string) => t.call('PUT', '/api/company', { token, body: { customSlug: slug } });

    const unpaid = await t.operator('inactive');
    const refused = await claim(unpaid.token, 'squatted-name');
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ message: 'Start your free trial to claim a custom URL.' });
    expect(refused.json.requestId).toBeTruthy();
    // Refused whole: a setting sent with the claim is not stored either.
    expect((await t.call('PUT', '/api/company', { token: unpaid.token, body: { customSlug: 'squatted-name', name: 'Squatter' } })).status).toBe(402);
    const after = await t.call('GET', '/api/company', { token: unpaid.token });
    expect(after.json.customSlug).toBeNull();
    expect(after.json.name).not.toBe('Squatter');
    expect((await t.call('GET', '/api/company/slug/squatted-name')).status).toBe(404);
    const edited = await t.call('PUT', '/api/company', { token: unpaid.token, body: { name: 'Before Paying Ltd', companyDescription: 'Set up first' } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ name: 'Before Paying Ltd', customSlug: null });

    // Cancelled: access until the period ends, none after it.
    const cancelledEnded = await t.operator('cancelled');
    updateUser(t.deps.db, cancelledEnded.user.id, { subscriptionStatus: 'cancelled', currentPeriodEnd: iso(-1) });
    expect((await claim(cancelledEnded.token, 'ended-name')).status).toBe(402);
    const cancelledRunning = await t.operator('cancelled');
    updateUser(t.deps.db, cancelledRunning.user.id, { subscriptionStatus: 'cancelled', currentPeriodEnd: iso(5) });
    expect((await claim(cancelledRunning.token, 'still-paid-up')).status).toBe(200);
    expect((await claim((await t.operator('active')).token, 'paying-customer')).status).toBe(200);
    expect((await claim((await t.operator('trialing')).token, 'on-trial')).status).toBe(200);
  });

  it('stores a logo as bytes and serves it back as a cacheable image URL', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { logo: PNG_1PX } });
    expect(res.status).toBe(200);
    expect(res.json.logo).toMatch(new RegExp(`^${TEST_ORIGIN}/api/company/${op.companyId}/logo\\?v=`));
    const img = await t.app.request(res.json.logo);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('cache-control')).toMatch(/immutable/);
    // Sending the URL back (an unchanged logo) keeps it; null removes it.
    expect((await t.call('PUT', '/api/company', { token: op.token, body: { logo: res.json.logo } })).json.logo).toBe(res.json.logo);
    expect((await t.call('PUT', '/api/company', { token: op.token, body: { logo: null } })).json.logo).toBeNull();
  });

  it.each([
    ['SVG', `data:image/svg+xml;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}`],
    ['HTML pretending to be PNG', `data:image/png;base64,${Buffer.from('<html><script>alert(1)</script>').toString('base64')}`],
    ['not a data URL', 'javascript:alert(1)'],
    ['too large', `data:image/png;base64,${Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2 * 1024 * 1024)]).toString('base64')}`],
  ])('refuses a %s logo', async (_what, logo) => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { logo } });
    expect([400, 413]).toContain(res.status);
    expect((await t.call('GET', '/api/company', { token: op.token })).json.logo).toBeNull();
  });

  it('serves the demo company publicly by id and slug; unknown is 404', async () => {
    expect((await t.call('GET', '/api/company/1')).json.name).toBe('Demo Recovery Co.');
    const demo = await t.call('GET', '/api/company/slug/demo');
    expect(demo.json.id).toBe(1);
    // The enabled vehicle types ride along, so the hosted page needs no fourth request.
    expect(demo.json.vehicleTypes.map((v: { name: string; basePrice: number }) => [v.name, v.basePrice])).toEqual([
      ['Car', 25],
      ['Van', 35],
      ['Motorcycle', 20],
    ]);
    // So do the custom charges: the problem types a customer chooses from.
    expect(demo.json.surcharges.map((s: { problemType: string; amount: number }) => [s.problemType, s.amount])).toEqual([
      ['Engine Failure', 45],
      ['Flat Tyre', 25],
      ['Accident Recovery', 55],
    ]);
    expect((await t.call('GET', '/api/company/999999')).status).toBe(404);
    expect((await t.call('GET', '/api/company/slug/nobody-here')).status).toBe(404);
    expect((await t.call('GET', '/api/company/abc')).status).toBe(404);
    expect((await t.call('GET', '/api/company/slug/%2e%2e%2f')).status).toBe(404);
  });

  it("the hosted page names the base postcode's district and radius, and only while the service area is shown", async () => {
    const op = await t.operator();
    const saved = await t.call('PUT', '/api/company', { token: op.token, body: { customSlug: 'area-test-co', basePostcode: 'm11ae', serviceRadius: 30 } });
    expect(saved.status).toBe(200);
    const page = await t.raw('GET', '/company/area-test-co');
    expect(page.text).toContain('Serving M1 and within 30 miles');
    expect(page.text).not.toContain('M1 1AE');
    await t.call('PUT', '/api/company', { token: op.token, body: { showServiceArea: false } });
    expect((await t.raw('GET', '/company/area-test-co')).text).not.toContain('Serving');
  });

  it('carries only enabled custom charges in the public read', async () => {
    const op = await t.operator();
    for (const [problemType, enabled] of [
      ['Ditch Recovery', true],
      ['Wrong Fuel', false],
    ] as const) {
      expect((await t.call('POST', '/api/surcharges', { token: op.token, body: { problemType, amount: 30, enabled } })).status).toBe(201);
    }
    const read = await t.call('GET', `/api/company/${op.companyId}`);
    const names = read.json.surcharges.map((s: { problemType: string }) => s.problemType);
    expect(names).toContain('Ditch Recovery');
    expect(names).not.toContain('Wrong Fuel');
  });

  it('names a company whose subscription gives no access, with its quotes paused and nothing to price from', async () => {
    const op = await t.operator('inactive');
    await t.call('PUT', '/api/company', { token: op.token, body: { name: 'Lapsed Recovery' } });
    const read = await t.call('GET', `/api/company/${op.companyId}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      name: 'Lapsed Recovery',
      onlineQuotes: 'paused',
      closedMessage: 'Online quotes from Lapsed Recovery are paused',
      vehicleTypes: [],
      surcharges: [],
    });
    // The owner is told what customers see.
    expect((await t.call('GET', '/api/company', { token: op.token })).json.onlineQuotes).toBe('paused');
    expect((await t.call('GET', `/api/vehicle-types/${op.companyId}`)).status).toBe(404);
    expect((await t.call('GET', `/api/pricing/${op.companyId}`)).status).toBe(404);
    expect((await t.call('GET', '/api/company/99999')).status).toBe(404);
  });

  it('serves no prices for a company with neither a phone nor a WhatsApp number', async () => {
    const op = await t.operator('trialing', { contact: false });
    const read = await t.call('GET', `/api/company/${op.companyId}`);
    expect(read.json).toMatchObject({ onlineQuotes: 'not-set-up', vehicleTypes: [], surcharges: [] });
    expect(read.json.closedMessage).toMatch(/^Online quotes from .+ are not set up yet$/);
    expect((await t.call('GET', '/api/company', { token: op.token })).json.onlineQuotes).toBe('not-set-up');
    expect((await t.call('GET', `/api/pricing/${op.companyId}`)).status).toBe(404);
    // The save's own answer says the page now quotes.
    const saved = await t.call('PUT', '/api/company', { token: op.token, body: { phone: '0161 496 0000' } });
    expect(saved.json.onlineQuotes).toBe('open');
    const open = await t.call('GET', `/api/company/${op.companyId}`);
    expect(open.json.onlineQuotes).toBe('open');
    expect(open.json).not.toHaveProperty('closedMessage');
    expect(open.json.vehicleTypes.length).toBeGreaterThan(0);
  });
});

describe('pricing', () => {
  const t = createTestApp();

  it('starts at the product defaults and a blank save applies them with after-hours on', async () => {
    const op = await t.operator();
    const initial = await t.call('GET', '/api/pricing', { token: op.token });
    expect(initial.json).toMatchObject({
      callOutFee: 50,
      labourRate: 45,
      mileRate: 2.5,
      labourTime: 1,
      afterHoursEnabled: false,
      afterHoursFee: 50,
      afterHoursStart: '18:00',
      afterHoursEnd: '08:00',
    });
    const changed = await t.call('PUT', '/api/pricing', {
      token: op.token,
      body: { callOutFee: 60.5, mileRate: '3.15', labourTime: 1.5, afterHoursEnabled: false },
    });
    expect(changed.json).toMatchObject({ callOutFee: 60.5, mileRate: 3.15, labourTime: 1.5, afterHoursEnabled: false });
    const blank = await t.call('PUT', '/api/pricing', {
      token: op.token,
      body: { callOutFee: '', labourRate: '', mileRate: null, labourTime: '', afterHoursFee: '', afterHoursStart: '', afterHoursEnd: '' },
    });
    expect(blank.json).toMatchObject({
      callOutFee: 50,
      labourRate: 45,
      mileRate: 2.5,
      labourTime: 1,
      afterHoursEnabled: true,
      afterHoursFee: 50,
      afterHoursStart: '18:00',
      afterHoursEnd: '08:00',
    });
  });

  it.each([
    [{ callOutFee: -5 }],
    [{ callOutFee: 'abc' }],
    [{ callOutFee: 'Infinity' }],
    [{ mileRate: 2.555 }],
    [{ labourTime: 25 }],
    [{ afterHoursStart: '25:00' }],
    [{ afterHoursEnabled: 'sometimes' }],
  ])('refuses %j', async (body) => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/pricing', { token: op.token, body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.fields)).toHaveLength(1);
  });
});

describe('charge lists', () => {
  const t = createTestApp();

  it('creates with the product defaults, updates, deletes, and serves enabled rows publicly', async () => {
    const op = await t.operator();
    const created = await t.call('POST', '/api/vehicle-types', { token: op.token, body: { name: 'Luton Van', companyId: 1 } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'Luton Van', basePrice: 50, enabled: true, companyId: op.companyId });
    const updated = await t.call('PUT', `/api/vehicle-types/${created.json.id}`, { token: op.token, body: { basePrice: 65.99, enabled: false } });
    expect(updated.json).toMatchObject({ name: 'Luton Van', basePrice: 65.99, enabled: false });
    const pub = await t.call('GET', `/api/vehicle-types/${op.companyId}`);
    expect(pub.json.map((r: { name: string }) => r.name)).not.toContain('Luton Van');
    expect((await t.call('DELETE', `/api/vehicle-types/${created.json.id}`, { token: op.token })).status).toBe(200);
    expect((await t.call('DELETE', `/api/vehicle-types/${created.json.id}`, { token: op.token })).status).toBe(404);

    const gear = await t.call('POST', '/api/gearbox-types', { token: op.token, body: { name: 'Semi-auto' } });
    expect(gear.json.basePrice).toBe(0);
    const surcharge = await t.call('POST', '/api/surcharges', {
      token: op.token,
      body: { problemType: 'Head Gasket', amount: 45, description: 'Diagnosis', enabled: true },
    });
    expect(surcharge.json).toMatchObject({ problemType: 'Head Gasket', amount: 45, description: 'Diagnosis' });
    const passengers = await t.call('POST', '/api/passenger-charges', { token: op.token, body: {} });
    expect(passengers.json).toMatchObject({ passengerCount: 1, basePrice: 5, enabled: true });
    // The problem types a customer chooses from are the custom charges (decision 009): no table of their own.
    expect((await t.raw('GET', '/api/problem-types', { token: op.token })).status).toBe(404);
  });

  it.each([
    ['/api/vehicle-types', { name: '' }, 'name'],
    ['/api/vehicle-types', { name: 'X', basePrice: -1 }, 'basePrice'],
    ['/api/gearbox-types', { name: 'X', enabled: 'yes' }, 'enabled'],
    ['/api/surcharges', { amount: 5 }, 'problemType'],
    ['/api/passenger-charges', { passengerCount: 0 }, 'passengerCount'],
    ['/api/passenger-charges', { passengerCount: 2.5 }, 'passengerCount'],
  ])('POST %s %j is a 400 naming %s', async (url, body, field) => {
    const op = await t.operator();
    const res = await t.raw('POST', url, { token: op.token, body });
    expect(res.status).toBe(400);
    expect(res.json.fields[field]).toBeTruthy();
  });
});

describe('company phone and WhatsApp numbers (E.164)', () => {
  const t = createTestApp();

  it.each(['+44 (0)7700 900456', '07700 900456', '+447700900456', '0044 7700 900456', ' 07700-900-456 '])(
    'stores %j as +447700900456 and reads it back so',
    async (typed) => {
      const op = await t.operator();
      const res = await t.call('PUT', '/api/company', { token: op.token, body: { phone: typed, whatsapp: typed } });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ phone: '+447700900456', whatsapp: '+447700900456' });
      const read = await t.call('GET', '/api/company', { token: op.token });
      expect(read.json).toMatchObject({ phone: '+447700900456', whatsapp: '+447700900456' });
      const stored = t.deps.db.$client.prepare('select phone, whatsapp from companies where id = ?').get(op.companyId);
      expect(stored).toEqual({ phone: '+447700900456', whatsapp: '+447700900456' });
    },
  );

  it('keeps landlines and numbers abroad, and clears a blank number', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { phone: '0113 496 0000', whatsapp: '+33 6 12 34 56 78' } });
    expect(res.json).toMatchObject({ phone: '+441134960000', whatsapp: '+33612345678' });
    const cleared = await t.call('PUT', '/api/company', { token: op.token, body: { whatsapp: '' } });
    expect(cleared.json).toMatchObject({ phone: '+441134960000', whatsapp: null });
  });

  it.each([
    ['phone', '12345', 'Enter a valid UK phone number, such as 07700 900123'],
    ['phone', '07700 9004567', 'Enter a valid UK phone number, such as 07700 900123'],
    ['phone', 'call the office', 'Enter a valid UK phone number, such as 07700 900123'],
    ['whatsapp', '07700 900456 ext 2', 'Enter a valid WhatsApp number, such as 07700 900123'],
    ['whatsapp', '999', 'Enter a valid WhatsApp number, such as 07700 900123'],
  ])('refuses %s %j with 400 on the field and changes nothing', async (field, typed, message) => {
    const op = await t.operator();
    await t.call('PUT', '/api/company', { token: op.token, body: { phone: '07700 900111', whatsapp: '07700 900222' } });
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { name: 'Renamed', [field]: typed } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message, code: 'VALIDATION_FAILED', fields: { [field]: message }, requestId: expect.any(String) });
    const read = await t.call('GET', '/api/company', { token: op.token });
    expect(read.json).toMatchObject({ phone: '+447700900111', whatsapp: '+447700900222' });
    expect(read.json.name).not.toBe('Renamed');
  });

  it('gives the hosted page and the public read E.164 too', async () => {
    const res = await t.call('GET', '/api/company/1');
    expect(res.json).toMatchObject({ phone: '+447700900123', whatsapp: '+447700900123' });
  });
});
