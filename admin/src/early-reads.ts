// The portal's first reads, started by the page's first script (admin/index.html loads it before
// the app's), not once React, the router and the route's chunk have loaded and run: the signed-in
// user's on every portal page, and the dispatch board's on the board (docs/budgets.md "Dispatch",
// decision 056). The routes' loaders take each read once, through the same typed client; a later
// navigation reads as before.
import { call, portalApi } from '#shared/api-client';

export type EarlyRead = 'user' | 'board';

const started = new Map<EarlyRead, Promise<unknown>>();

function start(name: EarlyRead, read: () => Promise<unknown>) {
  const promise = read();
  // Refused (not signed in, a driver on the board): whoever takes it handles that; if nobody does,
  // it is not an unhandled rejection.
  promise.catch(() => undefined);
  started.set(name, promise);
}

/** The read started at page load, once; undefined when none was (another page) or it was taken. */
export function takeEarlyRead<T>(name: EarlyRead): Promise<T> | undefined {
  const promise = started.get(name) as Promise<T> | undefined;
  started.delete(name);
  return promise;
}

/** Starts the first reads the page at `pathname` needs. */
export function startEarlyReads(pathname: string): void {
  if (!/^\/dashboard(\/|$)/.test(pathname)) return;
  start('user', () => call(portalApi.auth.user.$get));
  if (/^\/dashboard\/board\/?$/.test(pathname)) start('board', () => call(portalApi.board.$get));
}

// Not in a test's Node environment, which imports the board's modules without a page.
if (typeof window !== 'undefined') startEarlyReads(window.location.pathname);
