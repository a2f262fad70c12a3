// Share & Embed (docs/product.md §14), private to the signed-in operator and scoped to their company: the
// setup checklist, the link and embed snippet, and the link's QR code as PNG and SVG downloads.
// The rules are api/company/share.ts's.
import { currentUser } from '../auth/session';
import { shareService } from '../company/share';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';

const download = (fileName: string, contentType: string) => ({
  'Content-Type': contentType,
  'Content-Disposition': `attachment; filename="${fileName}"`,
  'Cache-Control': 'private, no-cache',
  'Content-Security-Policy': "default-src 'none'",
});

export function shareRoutes(parts: AppParts) {
  const share = shareService(parts.deps);
  return serve(parts, contract.share, {
    checklist: (c) => c.json(share.checklist(currentUser(c).companyId), 200),
    embed: (c) => c.json(share.kit(currentUser(c).companyId), 200),
    qrPng: async (c) => {
      const qr = await share.qrPng(currentUser(c).companyId);
      return c.body(qr.body, 200, download(qr.fileName, 'image/png'));
    },
    qrSvg: async (c) => {
      const qr = await share.qrSvg(currentUser(c).companyId);
      return c.body(qr.body, 200, download(qr.fileName, 'image/svg+xml'));
    },
  });
}
