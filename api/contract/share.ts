// Share & Embed, private to the signed-in operator: the setup checklist, the link and embed
// snippet, and the link's QR code as PNG and SVG downloads.
import { OFFICE } from '#shared/roles';
import { setupChecklistSchema, shareKitSchema } from '#shared/responses';
import { error, json, route } from './define';

const noCustomUrl = error('No custom URL is locked yet: `code` NO_CUSTOM_URL, the message says to choose one');

/** The public link's QR code as a file to download. */
function qrDownload<const Ext extends 'png' | 'svg'>(ext: Ext, mediaType: string, summary: string) {
  return route({
    method: 'get',
    path: `/api/share/qr.${ext}` as const,
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Share'],
    summary,
    responses: {
      200: { description: 'A download (Content-Disposition: attachment)', content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } },
      409: noCustomUrl,
    },
  });
}

export const share = {
  checklist: route({
    method: 'get',
    path: '/api/share/checklist',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Share'],
    summary: 'The setup checklist of the signed-in operator’s company, each item ticked from its data',
    responses: { 200: json(setupChecklistSchema, 'The checklist') },
  }),
  embed: route({
    method: 'get',
    path: '/api/share/embed',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Share'],
    summary: 'The public link and the embed snippet of the signed-in operator’s company',
    responses: { 200: json(shareKitSchema, 'The link and snippet'), 409: noCustomUrl },
  }),
  qrPng: qrDownload('png', 'image/png', 'The public link’s QR code, a 1200 px PNG'),
  qrSvg: qrDownload('svg', 'image/svg+xml', 'The public link’s QR code as SVG, for print at any size'),
};
