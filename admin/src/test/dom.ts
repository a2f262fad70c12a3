// jsdom lacks a few browser APIs Radix relies on; component tests import this first.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub;

// findBy… and waitFor give a screen up to 5 s (Testing Library's default is 1 s): the portal's tabs
// load lazily, and on a loaded 2-core machine a chunk can take longer than a second to arrive. A
// screen that never appears still fails; one that is slow no longer does.
configure({ asyncUtilTimeout: 5000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** A fetch stub answering JSON by "METHOD path", recording every call. */
export function fakeApi(routes: Record<string, (body: unknown) => { status?: number; json?: unknown }>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchStub = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? 'GET';
    const path = String(input);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, body });
    const route = routes[`${method} ${path}`];
    if (!route) return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
    const { status = 200, json } = route(body);
    return new Response(json === undefined ? null : JSON.stringify(json), { status });
  };
  return { calls, fetchStub };
}
