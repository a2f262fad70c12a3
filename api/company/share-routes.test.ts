import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { NO_CONTACT_NUMBER } from '#shared/share';
import { createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';

/** A 1×1 PNG, as the portal's logo upload sends it. */
const PIXEL_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Decodes a QR code PNG as a phone's camera would. */
function decodeQr(png: Buffer): { text: string | undefined; width: number } {
  const image = PNG.sync.read(png);
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  return { text: code?.data, width: image.width };
}

async function binary(t: ReturnType<typeof createTestApp>, url: string, token: string) {
  const res = await t.app.request(`${TEST_ORIGIN}${url}`, { headers: { 'x-auth-token': token } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('share & embed', () => {
  const t = createTestApp();

  it('needs a signed-in operator', async () => {
    for (const path of ['/api/share/checklist', '/api/share/embed', '/api/share/qr.png', '/api/share/qr.svg']) {
      const res = await t.raw('GET', path);
      expect(res.status, path).toBe(401);
      expect(res.json).toMatchObject({ message: 'Not signed in', requestId: expect.any(String) });
    }
  });

  it('answers 409 with the reason for the link, snippet and QR codes until a custom URL is locked', async () => {
    const op = await t.operator();
    for (const path of ['/api/share/embed', '/api/share/qr.png', '/api/share/qr.svg']) {
      const res = await t.raw('GET', path, { token: op.token });
      expect(res.status, path).toBe(409);
      expect(res.json).toMatchObject({ message: 'Choose your custom URL to get your link', code: 'NO_CUSTOM_URL', requestId: expect.any(String) });
    }
  });

  it('is documented in /api/openapi.json as operator routes', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).json as {
      paths: Record<string, { get?: { 'x-access': string; responses: Record<string, unknown> } }>;
    };
    for (const path of ['/api/share/checklist', '/api/share/embed', '/api/share/qr.png', '/api/share/qr.svg']) {
      expect(doc.paths[path]?.get?.['x-access'], path).toBe('operator');
    }
    for (const path of ['/api/share/embed', '/api/share/qr.png', '/api/share/qr.svg']) expect(Object.keys(doc.paths[path].get!.responses)).toContain('409');
  });

  it('gives the locked link, the embed snippet and a print-sized QR code that scans back to the exact link', async () => {
    const op = await t.operator();
    expect((await t.call('PUT', '/api/company', { token: op.token, body: { customSlug: 'share-kit-co' } })).status).toBe(200);
    const link = `${TEST_ORIGIN}/company/share-kit-co`;

    const kit = await t.call('GET', '/api/share/embed', { token: op.token });
    expect(kit.status).toBe(200);
    expect(kit.json).toEqual({
      link,
      embedSnippet: `<script src="${TEST_ORIGIN}/widget.js" async></script>\n<recovery-quote company="share-kit-co"></recovery-quote>`,
    });

    const png = await binary(t, '/api/share/qr.png', op.token);
    expect(png.res.status).toBe(200);
    expect(png.res.headers.get('content-type')).toBe('image/png');
    expect(png.res.headers.get('content-disposition')).toBe('attachment; filename="share-kit-co-quote-qr.png"');
    const decoded = decodeQr(png.bytes);
    expect(decoded.text).toBe(link);
    expect(decoded.width).toBeGreaterThanOrEqual(1000);

    const svg = await t.call('GET', '/api/share/qr.svg', { token: op.token });
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('content-disposition')).toBe('attachment; filename="share-kit-co-quote-qr.svg"');
    expect(svg.text).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg.text).not.toMatch(/<script/i);
  });

  it('is scoped to the signed-in operator’s company', async () => {
    const a = await t.operator();
    const b = await t.operator();
    await t.call('PUT', '/api/company', { token: a.token, body: { customSlug: 'scoped-share-a' } });
    expect((await t.call('GET', '/api/share/embed', { token: b.token })).status).toBe(409);
    const png = await binary(t, '/api/share/qr.png', b.token);
    expect(png.res.status).toBe(409);
    const checklist = await t.call('GET', '/api/share/checklist', { token: b.token });
    expect(checklist.json.items.find((i: { key: string }) => i.key === 'customUrl').done).toBe(false);
  });

  it('refuses the link, snippet and QR codes, and locking a custom URL, to a company with no phone or WhatsApp number', async () => {
    const op = await t.operator('trialing', { contact: false });
    const lock = await t.call('PUT', '/api/company', { token: op.token, body: { customSlug: 'no-number-co' } });
    expect(lock.status).toBe(409);
    expect(lock.json).toMatchObject({ message: NO_CONTACT_NUMBER, code: 'NO_CONTACT_NUMBER', requestId: expect.any(String) });
    expect((await t.call('GET', '/api/company', { token: op.token })).json.customSlug).toBeNull();
    // A number given in the same save counts.
    const withNumber = await t.call('PUT', '/api/company', { token: op.token, body: { whatsapp: '07700 900111', customSlug: 'no-number-co' } });
    expect(withNumber.status).toBe(200);
    expect((await t.call('GET', '/api/share/embed', { token: op.token })).status).toBe(200);
    // Numbers removed later: the link is not handed out.
    await t.call('PUT', '/api/company', { token: op.token, body: { whatsapp: '' } });
    for (const path of ['/api/share/embed', '/api/share/qr.png', '/api/share/qr.svg'] as const) {
      const res = await t.call('GET', path, { token: op.token });
      expect(res.status, path).toBe(409);
      expect(res.json.code, path).toBe('NO_CONTACT_NUMBER');
    }
  });

  it('ticks each checklist item from the company’s real data', async () => {
    const op = await t.operator('trialing', { contact: false });
    const ticked = async () => {
      const res = await t.call('GET', '/api/share/checklist', { token: op.token });
      expect(res.status).toBe(200);
      return res.json as { items: Array<{ key: string; label: string; done: boolean }>; done: number; total: number };
    };

    const fresh = await ticked();
    expect(fresh.items.map((i) => [i.label, i.done])).toEqual([
      ['Contact number', false],
      ['Pricing saved', false],
      ['Base postcode', false],
      ['Custom URL locked', false],
      ['At least one problem charge', false],
      ['Logo uploaded', false],
      ['First quote received', false],
    ]);
    expect([fresh.done, fresh.total]).toEqual([0, 7]);

    await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 72.5 } });
    const charges = (await t.call('GET', '/api/surcharges', { token: op.token })).json as Array<{ id: number; problemType: string }>;
    await t.call('PUT', `/api/surcharges/${charges.find((c) => c.problemType === 'Flat Tyre')!.id}`, { token: op.token, body: { amount: 20 } });
    await t.call('PUT', '/api/company', { token: op.token, body: { whatsapp: '+44 7700 900111' } });
    await t.call('PUT', '/api/company', { token: op.token, body: { customSlug: 'checklist-co', basePostcode: 'm1 1ae' } });
    await t.call('PUT', '/api/company', { token: op.token, body: { logo: PIXEL_PNG } });
    expect((await ticked()).items.map((i) => i.done)).toEqual([true, true, true, true, true, true, false]);

    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(quote.status).toBe(200);
    const all = await ticked();
    expect(all.items.every((i) => i.done)).toBe(true);
    expect(all.done).toBe(7);
  });

  it('does not count a disabled charge, or pricing put back as a new company starts', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 72.5 } });
    await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 50, afterHoursEnabled: false } });
    await t.call('POST', '/api/surcharges', { token: op.token, body: { problemType: 'Ditch', amount: 30, enabled: false } });
    const res = await t.call('GET', '/api/share/checklist', { token: op.token });
    const done = (key: string) => res.json.items.find((i: { key: string }) => i.key === key).done;
    expect([done('pricing'), done('problemCharge')]).toEqual([false, false]);
  });
});
