// The admin page's Content-Security-Policy (api/platform/http/security.ts) allows no eval and <style>
// elements only with this page's nonce. Two libraries need telling before they first run:
// - zod compiles object parsers with `new Function` when it can (its first parse probes for
//   eval, which CSP reports as a violation): jitless mode parses without it.
// - Radix's dialogs inject one <style> to lock page scrolling, through react-style-singleton,
//   which reads the nonce the way webpack publishes it: `__webpack_nonce__`.
import { z } from 'zod';

declare global {
  var __webpack_nonce__: string | undefined;
}

/** Hands the page's CSP nonce (`<meta name="csp-nonce">`) to libraries that inject styles, and turns off zod's eval. */
export function prepareForCsp(doc: Document = document): string | undefined {
  z.config({ jitless: true });
  const nonce = doc.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') || undefined;
  if (nonce) globalThis.__webpack_nonce__ = nonce;
  return nonce;
}
