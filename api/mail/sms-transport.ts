// Text messages through a provider speaking Twilio's Messages API: POST
// {SMS_API_URL}/2010-04-01/Accounts/{sid}/Messages.json with the form fields To, From and Body and
// HTTP basic authentication (the account SID and auth token). A 2xx is accepted; anything else,
// or no answer within the timeout, or a redirect (never followed: it would carry the credentials
// elsewhere), is thrown for the outbox to retry (api/mail/worker.ts). The
// outbox aborts a request still going when the server stops, and hands the text back.

export interface OutgoingSms {
  to: string;
  body: string;
}

export interface SmsTransport {
  /** Resolves once the provider has accepted the text; `signal` aborts the request. */
  send(sms: OutgoingSms, signal?: AbortSignal): Promise<void>;
}

export interface SmsConfig {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
}

const TIMEOUT_MS = 15_000;

/**
 * The provider's refusal of a text. `permanent` for a 4xx other than 408 and 429 (a number it
 * cannot text, a sender it does not allow): asking again will not change it, unlike a 5xx, a
 * time-out or a rate limit, which are worth retrying.
 */
export class SmsRefused extends Error {
  readonly permanent: boolean;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SmsRefused';
    this.permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
  }
}

export function twilioTransport(config: SmsConfig): SmsTransport {
  const url = `${config.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    async send(sms, signal) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ To: sms.to, From: config.from, Body: sms.body }),
        // The credentials are for the provider alone: a redirect fails the send (retried later)
        // instead of being followed with the authorization header.
        redirect: 'error',
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await response.text();
      if (!response.ok) {
        let message = text;
        try {
          const parsed = JSON.parse(text) as { message?: unknown; code?: unknown };
          if (typeof parsed.message === 'string') message = `${parsed.code ?? response.status}: ${parsed.message}`;
        } catch {
          // Not JSON: the text as it is.
        }
        throw new SmsRefused(response.status, `SMS provider answered ${response.status}: ${message.slice(0, 300)}`);
      }
    },
  };
}
