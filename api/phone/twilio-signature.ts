// Twilio's request signature (X-Twilio-Signature): base64 of HMAC-SHA1, keyed by the account's
// auth token, over the full URL Twilio requested followed by every POST parameter's name and
// value, sorted by name. Compared in constant time, so a forger learns nothing from how long a
// wrong guess takes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function twilioSignatureValid(authToken: string, url: string, params: Record<string, string>, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
