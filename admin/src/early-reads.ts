// The portal's first reads, started by the page's first script (admin/index.html loads it before
// the app's), not once React, the router and the route's chunk have loaded and run: the signed-in
// user's on every portal page, and the dispatch board's on the board (docs/budgets.md "Dispatch",
// decision 056). The routes' loaders take each read once, through the same typed client; a later
// navigation reads as before.
import { call, portalApi } from '#shared/api-client';
import { handedOverReads } from './lib/handed-over';

export type EarlyRead = 'user' | 'board';

const reads = handedOverReads<EarlyRead, unknown>();

/** The read started at page load, once; undefined when none was (another page) or it was taken. */
export const takeEarlyRead = <T>(name: EarlyRead): Promise<T> | undefined => reads.take(name) as Promise<T> | undefined;

/** Starts the first reads the page at `pathname` needs. */
export function startEarlyReads(pathname: string): void {
  if (!/^\/dashboard(\/|$)/.test(pathname)) return;
  reads.start('user', () => call(portalApi.auth.user.$get));
  if (/^\/dashboard\/board\/?$/.test(pathname)) reads.start('board', () => call(portalApi.board.$get));
}

// Not in a test's Node environment, which imports the board's modules without a page.
if (typeof window !== 'undefined') startEarlyReads(window.location.pathname);
