import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { PublicCompany } from '#shared/types';
import type { HostedCompany } from '../company/view';
import type { OnlineQuotes } from '#shared/share';
import { createHostedRoutes } from './routes';

const company: PublicCompany & { onlineQuotes: OnlineQuotes } = {
  onlineQuotes: 'open',
  id: 9,
  name: 'Bob’s <Tow> & "Recovery"',
  logo: 'https://quotes.example/api/company/9/logo?v=abc',
  primaryColour: '#1976D2',
  secondaryColour: 'red;}</style><script>alert(1)</script>',
  accentColour: '#FF5722',
  backgroundColour: '#FAFAFA',
  textColour: '#0F172A',
  phone: '0161 496 0000',
  whatsapp: '+44 7700 900456',
  email: 'jobs@bob.example',
  preferredContact: 'whatsapp',
  customSlug: 'bobs-tow',
  showPriceBreakdown: true,
  companyDescription: '<img src=x onerror=alert(1)> Fast, fair & friendly',
  serviceRadius: 25,
  extraRadiusFee: 15,
  showServiceArea: true,
  showFeatures: true,
  enablePriceRounding: false,
  priceRoundingMultiple: 5,
  showPriceDisclaimer: true,
  passengerLimit: 5,
  pricePerPassenger: 5,
  feature1Title: '',
  feature1Description: '',
  feature1Icon: 'Clock',
  feature2Title: '',
  feature2Description: '',
  feature2Icon: 'Calculator',
  feature3Title: '',
  feature3Description: '',
  feature3Icon: 'CheckCircle',
};

const dir = mkdtempSync(path.join(tmpdir(), 'hosted-test-'));
const widgetFile = path.join(dir, 'widget.js');
writeFileSync(widgetFile, 'customElements.define("recovery-quote", class extends HTMLElement {});\n'.repeat(50));
writeFileSync(path.join(dir, 'widget-vehicle.js'), 'export function suggestVehicle() {}\n');
writeFileSync(path.join(dir, 'widget-booking.js'), 'export function bookingForm() {}\n');

const app = createHostedRoutes({
  lookupBySlug: (slug) => (slug === 'bobs-tow' ? company : undefined),
  widgetFile,
  publicUrl: 'https://quotes.example/',
});

describe("the portal's promises on the company page", () => {
  const promising = { ...company, name: 'Bob Recovery', companyDescription: null, secondaryColour: '#FFA726' };
  const pageFor = async (overrides: Partial<HostedCompany>) => {
    const routes = createHostedRoutes({ lookupBySlug: () => ({ ...promising, ...overrides }), widgetFile, publicUrl: 'https://quotes.example' });
    const res = await routes.request('/company/bobs-tow');
    const page = await res.text();
    expectStrictCsp(res.headers.get('content-security-policy'), page);
    return page;
  };
  const features = {
    feature1Title: '24/7 <Availability>',
    feature1Description: 'Round the clock & on time',
    feature1Icon: 'Clock',
    feature2Title: 'Fair prices',
    feature2Description: 'No surprises',
    feature2Icon: 'Calculator',
    feature3Title: 'Insured',
    feature3Description: 'Fully covered',
    feature3Icon: 'toString',
  };

  it('shows the three feature blocks (title, description, icon) when showFeatures is on, escaped', async () => {
    const page = await pageFor({ ...features, showFeatures: true });
    const blocks = [...page.matchAll(/<div class="feat"><svg[^>]*data-icon="(\w+)"[^>]*>.*?<\/svg><h2>(.*?)<\/h2><p>(.*?)<\/p><\/div>/g)].map((m) =>
      m.slice(1),
    );
    expect(blocks).toEqual([
      ['Clock', '24/7 &lt;Availability&gt;', 'Round the clock &amp; on time'],
      ['Calculator', 'Fair prices', 'No surprises'],
      // A name the portal never offers falls back to the first icon, never to the prototype.
      ['Clock', 'Insured', 'Fully covered'],
    ]);
  });

  it('hides the feature blocks when showFeatures is off', async () => {
    const page = await pageFor({ ...features, showFeatures: false });
    expect(page).not.toContain('class="feat"');
    expect(page).not.toContain('Fair prices');
  });

  it('shows "Serving {district} and within {radius} miles" when showServiceArea is on and a base postcode is set', async () => {
    expect(await pageFor({ showServiceArea: true, baseDistrict: 'M1', serviceRadius: 30.5 })).toContain('<p class="area">Serving M1 and within 30.5 miles</p>');
    expect(await pageFor({ showServiceArea: true, baseDistrict: 'SW1A', serviceRadius: 25 })).toContain('Serving SW1A and within 25 miles');
  });

  it('hides the service area when it is off or there is no base postcode', async () => {
    expect(await pageFor({ showServiceArea: false, baseDistrict: 'M1' })).not.toContain('Serving');
    expect(await pageFor({ showServiceArea: true, baseDistrict: null })).not.toContain('Serving');
  });
});

describe('GET /company/:slug', () => {
  it('escapes every company value', async () => {
    const res = await app.request('/company/bobs-tow');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).not.toContain('<Tow>');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('<title>Bob’s &lt;Tow&gt; &amp; &quot;Recovery&quot; – Instant Recovery Quote</title>');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; Fast, fair &amp; friendly');
    // An invalid colour is replaced, never copied into CSS.
    expect(page).toContain('<meta name="theme-color" content="#FFA726">');
  });

  it('has the title, description and Open Graph tags for link previews', async () => {
    const page = await (await app.request('/company/bobs-tow')).text();
    const meta = (attr: string, name: string) => page.match(new RegExp(`<meta ${attr}="${name}" content="([^"]*)">`))?.[1];
    expect(meta('property', 'og:title')).toBe('Bob’s &lt;Tow&gt; &amp; &quot;Recovery&quot; – Instant Recovery Quote');
    expect(meta('property', 'og:type')).toBe('website');
    expect(meta('property', 'og:url')).toBe('https://quotes.example/company/bobs-tow');
    expect(meta('property', 'og:image')).toBe('https://quotes.example/api/company/9/logo?v=abc');
    expect(meta('property', 'og:description')).toBe(meta('name', 'description'));
    expect(page).toContain('<recovery-quote company="bobs-tow">');
    expect(page).toContain('<script src="/widget.js" defer></script>');
  });

  it('has the wrapper footer: contact details, copyright and legal text', async () => {
    const page = await (await app.request('/company/bobs-tow')).text();
    expect(page).toContain('href="tel:01614960000"');
    expect(page).toContain('href="https://wa.me/+447700900456"');
    const national = createHostedRoutes({ lookupBySlug: () => ({ ...company, whatsapp: '07700 900456' }), widgetFile, publicUrl: 'https://quotes.example' });
    expect(await (await national.request('/company/bobs-tow')).text()).toContain('href="https://wa.me/+447700900456"');
    expect(page).toContain('href="mailto:jobs@bob.example"');
    expect(page).toContain(`© ${new Date().getFullYear()} Bob’s &lt;Tow&gt;`);
    expect(page).toContain('<a href="/privacy/bobs-tow">Privacy Policy</a>');
    expect(page).toContain('Terms of Service');
  });

  it('leaves out og:image and contact lines the company lacks', async () => {
    const bare = createHostedRoutes({
      lookupBySlug: () => ({ ...company, logo: null, phone: null, whatsapp: null, email: null, companyDescription: null }),
      widgetFile,
      publicUrl: 'https://quotes.example',
    });
    const page = await (await bare.request('/company/bobs-tow')).text();
    expect(page).not.toContain('og:image');
    expect(page).not.toContain('tel:');
    expect(page).not.toContain('wa.me');
    expect(page).toContain('Get an instant vehicle recovery quote from');
  });

  it('is revalidated on every visit, answering 304 while the page is unchanged', async () => {
    const first = await app.request('/company/bobs-tow');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.request('/company/bobs-tow', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    let name = 'Before Recovery';
    const changing = createHostedRoutes({ lookupBySlug: () => ({ ...company, name }), widgetFile, publicUrl: 'https://quotes.example' });
    const before = (await changing.request('/company/bobs-tow')).headers.get('etag') ?? '';
    name = 'After Recovery';
    const after = await changing.request('/company/bobs-tow', { headers: { 'If-None-Match': before } });
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('After Recovery');
  });

  it('answers an unknown slug with a 404 page', async () => {
    const res = await app.request('/company/nobody');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const page = await res.text();
    expect(page).toContain('<title>404 Page Not Found</title>');
    expect(page).toContain('<h1>404 Page Not Found</h1>');
    expectStrictCsp(res.headers.get('content-security-policy'), page);
  });

  it('sends a strict CSP that allows exactly its own stylesheet and no inline script', async () => {
    const res = await app.request('/company/bobs-tow');
    const page = await res.text();
    const csp = res.headers.get('content-security-policy');
    expectStrictCsp(csp, page);
    // Operators may frame their page on their own sites, as before.
    expect(csp).toContain('frame-ancestors *');
    // The company's (checked) background is in the hashed stylesheet, not a style attribute.
    const dark = createHostedRoutes({ lookupBySlug: () => ({ ...company, backgroundColour: '#101010' }), widgetFile, publicUrl: 'https://quotes.example' });
    const darkRes = await dark.request('/company/bobs-tow');
    const darkPage = await darkRes.text();
    expect(darkPage).toContain('body{--bg:#101010}');
    expectStrictCsp(darkRes.headers.get('content-security-policy'), darkPage);
    expect(darkRes.headers.get('content-security-policy')).not.toBe(csp);
  });
});

/** script-src 'self' with no inline <script>, no plugins, no <base>, and each inline <style> allowed by its hash. */
function expectStrictCsp(csp: string | null, page: string) {
  const directives = new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('script-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('base-uri')).toEqual(["'none'"]);
  const styleSrc = directives.get('style-src') ?? [];
  expect(styleSrc).not.toContain("'unsafe-inline'");
  for (const [, attributes, body] of page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    expect(attributes).toMatch(/\ssrc="\/[^"]+"/);
    expect(body).toBe('');
  }
  // No style or event-handler attributes in any tag (attribute values, escaped, set aside).
  for (const [tag] of page.matchAll(/<[a-z][^>]*>/gi)) {
    const names = tag.replace(/"[^"]*"/g, '""');
    expect(names).not.toMatch(/\sstyle=/);
    expect(names).not.toMatch(/\son[a-z]+=/i);
  }
  const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  expect(styles.length).toBeGreaterThan(0);
  for (const css of styles) {
    const hash = `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
    expect(styleSrc).toContain(hash);
  }
}

describe('GET /widget.js', () => {
  it('is JavaScript any origin may load, cached for 5 minutes with a strong ETag', async () => {
    const res = await app.request('/widget.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(await res.text()).toContain('recovery-quote');
  });

  it('is gzipped for clients that accept it', async () => {
    const res = await app.request('/widget.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const body = Buffer.from(await res.arrayBuffer());
    expect(gunzipSync(body).toString()).toContain('recovery-quote');
    const identity = await app.request('/widget.js', { headers: { 'Accept-Encoding': 'gzip;q=0' } });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.headers.get('etag')).not.toBe(res.headers.get('etag'));
  });

  it('answers 304 when the ETag matches', async () => {
    const first = await app.request('/widget.js');
    const etag = first.headers.get('etag') ?? '';
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await app.request('/widget.js', { headers: { 'If-None-Match': ifNoneMatch } });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
    }
    const changed = await app.request('/widget.js', { headers: { 'If-None-Match': '"stale"' } });
    expect(changed.status).toBe(200);
  });

  it('is a 503 with a JSON message when the widget is not built', async () => {
    const unbuilt = createHostedRoutes({ lookupBySlug: () => undefined, widgetFile: path.join(dir, 'missing.js'), publicUrl: 'https://quotes.example' });
    const res = await unbuilt.request('/widget.js');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: 'The widget is not built. Run "npm run build".' });
  });
});

describe('the widget’s lazily loaded files', () => {
  it.each([
    ['widget-vehicle.js', 'the number plate look-up', 'suggestVehicle'],
    ['widget-booking.js', 'the booking form', 'bookingForm'],
  ])('%s is %s beside widget.js, a module any origin may import (CORS), cached like it', async (file, _what, content) => {
    const res = await app.request(`/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await res.text()).toContain(content);
    const unbuilt = createHostedRoutes({
      lookupBySlug: () => undefined,
      widgetFile: path.join(dir, 'elsewhere', 'widget.js'),
      publicUrl: 'https://quotes.example',
    });
    expect((await unbuilt.request(`/${file}`)).status).toBe(503);
  });
});

describe('hosted page phone numbers', () => {
  it('shows numbers stored in E.164 as people write them, and links them in E.164', async () => {
    const routes = createHostedRoutes({
      lookupBySlug: () => ({ ...company, phone: '+441614960000', whatsapp: '+447700900456' }),
      widgetFile: path.join(mkdtempSync(path.join(tmpdir(), 'widget-')), 'widget.js'),
      publicUrl: 'https://quotes.example',
    });
    const page = await (await routes.request('/company/bobs-tow')).text();
    expect(page).toContain('<a href="tel:+441614960000">0161 496 0000</a>');
    expect(page).toContain('Call<span class="num">&nbsp;0161 496 0000</span>');
    expect(page).toContain('<a href="https://wa.me/+447700900456" rel="noopener">07700 900456</a>');
    expect(page).not.toContain('>+44');
  });
});

describe('a company page that does not quote', () => {
  const pageOf = async (overrides: Partial<typeof company>) => {
    const routes = createHostedRoutes({
      lookupBySlug: () => ({ ...company, name: 'Pennine Recovery', ...overrides }),
      widgetFile,
      publicUrl: 'https://quotes.example',
    });
    const res = await routes.request('/company/bobs-tow');
    return { res, page: await res.text() };
  };

  it('names a lapsed company, says its quotes are paused, and offers its numbers instead of the form (not a 404)', async () => {
    const { res, page } = await pageOf({ onlineQuotes: 'paused', phone: '+441614960000' });
    expect(res.status).toBe(200);
    expectStrictCsp(res.headers.get('content-security-policy'), page);
    expect(page).toContain('<h1>Pennine Recovery</h1>');
    expect(page).toContain('Online quotes from Pennine Recovery are paused');
    expect(page).toContain('href="tel:+441614960000">Call 0161 496 0000</a>');
    expect(page).not.toContain('<recovery-quote');
    expect(page).not.toContain('widget.js');
    expect(page).not.toContain('404');
    // No promise it cannot keep: no instant price in its title, its description or its previews.
    expect(page).toContain('<title>Pennine Recovery – Vehicle recovery</title>');
    expect(page).not.toMatch(/instant|in seconds/i);
    // The operator's colours stay.
    expect(page).toContain(company.primaryColour);
  });

  it('says a company with no number has not set up online quotes yet, with no form', async () => {
    const { res, page } = await pageOf({ onlineQuotes: 'not-set-up', phone: null, whatsapp: null });
    expect(res.status).toBe(200);
    expect(page).toContain('Online quotes from Pennine Recovery are not set up yet');
    expect(page).not.toContain('<recovery-quote');
    // No "try again later": nothing says it will.
    expect(page).not.toContain('try again later');
  });
});
