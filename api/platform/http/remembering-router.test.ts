import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { REMEMBERED_PATH_LENGTH, REMEMBERED_PATHS, RememberingRouter } from './remembering-router';

const ROUTES: [string, string][] = [
  ['ALL', '*'],
  ['ALL', '/api/*'],
  ['GET', '/api/company/slug/:slug'],
  ['GET', '/api/company/:id/logo'],
  ['GET', '/api/company/:id'],
  ['POST', '/api/quotes/calculate'],
  ['GET', '/api/jobs/:token'],
  ['GET', '*'],
];

function routers() {
  const plain = new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] });
  const remembering = new RememberingRouter<string>();
  for (const [method, path] of ROUTES) {
    plain.add(method, path, `${method} ${path}`);
    remembering.add(method, path, `${method} ${path}`);
  }
  return { plain, remembering };
}

describe('RememberingRouter', () => {
  it('answers exactly as Hono’s own router, asked once or many times', () => {
    const { plain, remembering } = routers();
    const asks: [string, string][] = [
      ['POST', '/api/quotes/calculate'],
      ['GET', '/api/company/slug/acme'],
      ['GET', '/api/company/12/logo'],
      ['GET', '/api/company/12'],
      ['GET', '/api/jobs/abc%20def'],
      ['DELETE', '/api/nothing'],
      ['GET', '/dashboard'],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [method, path] of asks) expect(remembering.match(method, path)).toEqual(plain.match(method, path));
    }
  });

  it('gives the same match to every request for a path, and forgets all once it holds its limit', () => {
    const { remembering } = routers();
    const first = remembering.match('POST', '/api/quotes/calculate');
    expect(remembering.match('POST', '/api/quotes/calculate')).toBe(first);
    for (let i = 0; remembering.remembered < REMEMBERED_PATHS; i++) remembering.match('GET', `/api/jobs/token-${i}`);
    expect(remembering.remembered).toBe(REMEMBERED_PATHS);
    remembering.match('GET', '/api/jobs/one-more');
    expect(remembering.remembered).toBe(1);
    expect(remembering.match('POST', '/api/quotes/calculate')).not.toBe(first);
    expect(remembering.match('POST', '/api/quotes/calculate')).toEqual(first);
  });

  it('never keeps a long path', () => {
    const { remembering } = routers();
    remembering.match('GET', `/api/jobs/${'x'.repeat(REMEMBERED_PATH_LENGTH)}`);
    expect(remembering.remembered).toBe(0);
  });

  it('serves an app whose parameters differ by path: each request reads its own', async () => {
    const app = new Hono({ router: new RememberingRouter() });
    app.get('/company/slug/:slug', (c) => c.text(`slug ${c.req.param('slug')}`));
    app.get('/company/:id/logo', (c) => c.text(`logo ${c.req.param('id')}`));
    for (let round = 0; round < 2; round++) {
      expect(await (await app.request('/company/slug/a%20b')).text()).toBe('slug a b');
      expect(await (await app.request('/company/7/logo')).text()).toBe('logo 7');
      expect(await (await app.request('/company/8/logo')).text()).toBe('logo 8');
    }
  });
});
