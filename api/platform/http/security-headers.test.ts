// docs/product.md §18: a strict Content-Security-Policy on the admin SPA (which keeps its token in
// localStorage) and HSTS when the public origin is https. The hosted page's CSP is tested in
// api/hosted/routes.test.ts; both are checked in Chromium by e2e/csp.pw.ts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST } from '../paths';
import { createTestApp } from '../../test/harness';
import { HSTS } from './security';

const directives = (csp: string | null) =>
  new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
const nonceIn = (page: string) => page.match(/<meta name="csp-nonce" content="([^"]+)">/)?.[1];

describe('the admin SPA’s Content-Security-Policy', () => {
  const t = createTestApp();

  it('allows only our own scripts, no plugins or <base>, and no framing', async () => {
    for (const url of ['/', '/dashboard', '/no/such/page']) {
      const res = await t.raw('GET', url);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('style-src')).not.toContain("'unsafe-inline'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('gives each page a fresh nonce for injected <style> elements, in the header and the page', async () => {
    const first = await t.raw('GET', '/dashboard');
    const second = await t.raw('GET', '/dashboard');
    const nonce = nonceIn(first.text);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(directives(first.headers.get('content-security-policy')).get('style-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(nonceIn(second.text)).not.toBe(nonce);
    expect(second.headers.get('content-security-policy')).toContain(`'nonce-${nonceIn(second.text)}'`);
  });

  it('is served from a built index.html with no inline script or style attribute', () => {
    // npm test builds the SPA before Vitest runs.
    const html = readFileSync(path.join(DIST, 'admin', 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="\/assets\/[^"]+\.js"/);
      expect(body).toBe('');
    }
    expect(html).not.toMatch(/<[^>]*\sstyle=/);
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent on every response when PUBLIC_URL is https', async () => {
    const t = createTestApp({ env: { PUBLIC_URL: 'https://quotes.example' } });
    for (const url of ['/healthz', '/api/company/slug/demo', '/company/demo', '/dashboard', '/api/nothing']) {
      const res = await t.app.request(`https://quotes.example${url}`);
      expect(res.headers.get('strict-transport-security'), url).toBe(HSTS);
    }
    expect(HSTS).toBe('max-age=31536000; includeSubDomains');
  });

  it('is not sent when PUBLIC_URL is http', async () => {
    const t = createTestApp();
    for (const url of ['/healthz', '/dashboard']) {
      expect((await t.raw('GET', url)).headers.get('strict-transport-security')).toBeNull();
    }
  });
});

describe('one strict Content-Security-Policy for every HTML page the server renders', () => {
  const t = createTestApp();
  /** The inline stylesheets of a page, each allowed by its hash: nothing else inline. */
  const inlineStyles = (page: string) =>
    [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);

  it.each(['/api/docs', '/company/demo', '/company/no-such-company', '/dashboard', '/billing/checkout/cs_local_missing', '/billing/portal/expired'])(
    '%s',
    async (url) => {
      const res = await t.raw('GET', url);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(url.startsWith('/company/') ? ['*'] : ["'none'"]);
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      for (const hash of inlineStyles(res.text)) expect(csp.get('style-src')).toContain(hash);
    },
  );
});
