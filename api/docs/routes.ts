// The API reference (docs/architecture.md): the OpenAPI 3.1 document generated from the contract
// as the app registered it, with the session cookie and the token header as its security schemes
// and this server as its `servers` entry, and a readable page of the same document.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { contract } from '../contract';
import { inlineStylePageCsp } from '../platform/http/security';
import { SECURITY_SCHEMES } from '../contract/define';
import { serve, type AppParts } from '../routes';

type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

const DESCRIPTION =
  'The `Public` routes are everything a customer-facing quote page needs: company branding, the enabled charge lists and instant quote calculation. They need no authentication, and CORS is open to any origin (no credentials). ' +
  'The other routes are the Driver Portal’s: same-origin only, signed in by the session cookie or an `x-auth-token` header. Each operation’s `security` says whether it needs a session, and its `x-access` who may call it: `public`, `account` (no session needed, same-origin), `operator` (signed in) or `webhook` (the billing provider).';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#0f172a}h1{font-size:1.6rem}h2{font-size:1.05rem;margin:0}section{border:1px solid #cbd5e1;border-radius:.5rem;padding:.75rem 1rem;margin:.75rem 0}.m{display:inline-block;min-width:3.5rem;font-weight:700;color:#1e40af}.a{font-weight:400;color:#475569;font-size:.9rem}code{font-size:.95rem}';
/** The page's policy: the server's one for HTML, with this page's stylesheet by hash. */
const CSP = inlineStylePageCsp(STYLE);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function docsPage(doc: OpenApiDocument): string {
  const rows = Object.entries(doc.paths ?? {})
    .flatMap(([p, ops]) =>
      Object.entries(ops as Record<string, { summary?: string; description?: string; 'x-access'?: string }>).map(
        ([method, op]) =>
          `<section><h2><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(p)}</code> <span class="a">${escapeHtml(op['x-access'] ?? '')}</span></h2><p>${escapeHtml(op.summary ?? '')}</p>${
            op.description ? `<p>${escapeHtml(op.description)}</p>` : ''
          }</section>`,
      ),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API reference – Recovery Quote</title>
<style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(doc.info.title)}</h1><p>${escapeHtml(doc.info.description ?? '')}</p><p>Machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a>. Errors are JSON <code>{ "message", "fields"?, "requestId" }</code>.</p>
${rows}</main></body></html>`;
}

/** `parts.api` is the app every contract route is registered on; the document is built on first request. */
export function docsRoutes(parts: AppParts) {
  const { api } = parts;
  const publicUrl = parts.deps.config.publicUrl;
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) api.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
  let doc: OpenApiDocument | undefined;
  let html: string | undefined;
  const document = () =>
    (doc ??= api.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'Recovery Quote API', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: publicUrl, description: 'This server (PUBLIC_URL)' }],
    }));

  return serve(parts, contract.docs, {
    openapi: (c) => c.json(document(), 200),
    page: (c) => {
      c.header('Content-Security-Policy', CSP);
      return c.html((html ??= docsPage(document())), 200);
    },
  });
}
