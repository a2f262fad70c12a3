// Share & Embed (docs/product.md §14), private to the signed-in operator and scoped to their company: the
// setup checklist, the link and embed snippet, and the link's QR code as PNG and SVG downloads.
// The rules are api/company/share.ts's.
import { ContractHono } from '../platform/http/contract-hono';
import { currentUser } from '../auth/session';
import type { ShareService } from '../company/share';
import type { AppEnv } from '../platform/http/context';
import { routes } from '../routes';

const download = (fileName: string, contentType: string) => ({
  'Content-Type': contentType,
  'Content-Disposition': `attachment; filename="${fileName}"`,
  'Cache-Control': 'private, no-cache',
  'Content-Security-Policy': "default-src 'none'",
});

export function shareRoutes(share: ShareService) {
  return new ContractHono<AppEnv>()
    .openapi(routes.share.checklist, (c) => c.json(share.checklist(currentUser(c).companyId), 200))
    .openapi(routes.share.embed, (c) => c.json(share.kit(currentUser(c).companyId), 200))
    .openapi(routes.share.qrPng, async (c) => {
      const qr = await share.qrPng(currentUser(c).companyId);
      return c.body(qr.body, 200, download(qr.fileName, 'image/png'));
    })
    .openapi(routes.share.qrSvg, async (c) => {
      const qr = await share.qrSvg(currentUser(c).companyId);
      return c.body(qr.body, 200, download(qr.fileName, 'image/svg+xml'));
    });
}
