// The app's router: Hono's own (one regular expression when the paths allow it, else a trie),
// with each path's match remembered. The app serves ~300 routes and middleware entries, and a
// path such as `/api/company/slug/:slug` beside `/api/company/:id/logo` keeps Hono on its trie,
// which splits and walks every request's path afresh: a few µs of each request that the
// busiest paths (the quote route, /healthz) ask again and again with the same answer
// (docs/decisions/025-quote-path-beyond-e4789ff.md).
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths remembered at most (then all are forgotten and remembering starts again): paths carry ids and tokens. */
export const REMEMBERED_PATHS = 2_000;
/** Longer paths are matched afresh each time and never kept. */
export const REMEMBERED_PATH_LENGTH = 200;

/**
 * A router that answers a method and path it has matched before from memory. Hono reads a match
 * (handlers and parameter positions) and never changes it, as its RegExpRouter shares one match
 * among every request for a static path; so one match serves every request for the same path.
 */
export class RememberingRouter<T> implements Router<T> {
  name = 'RememberingRouter';
  readonly #router: Router<T>;
  readonly #matches = new Map<string, Map<string, Result<T>>>();
  #size = 0;

  constructor(router: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] })) {
    this.#router = router;
  }

  add(method: string, path: string, handler: T): void {
    this.#router.add(method, path, handler);
    this.#forget();
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#matches.get(method);
    if (byPath === undefined) this.#matches.set(method, (byPath = new Map()));
    let result = byPath.get(path);
    if (result !== undefined) return result;
    result = this.#router.match(method, path);
    if (path.length <= REMEMBERED_PATH_LENGTH) {
      if (this.#size >= REMEMBERED_PATHS) this.#forget();
      byPath.set(path, result);
      this.#size += 1;
    }
    return result;
  }

  /** How many matches are remembered (for tests). */
  get remembered(): number {
    return this.#size;
  }

  #forget(): void {
    for (const byPath of this.#matches.values()) byPath.clear();
    this.#size = 0;
  }
}
