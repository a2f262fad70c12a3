// The status page's live copy of its job (docs/product.md §20): a Server-Sent Events stream,
// and while that is broken (or refused when too many are open), a read every 10 s, with the stream
// tried again after a minute. Same origin, no cookie sent with the reads.
import { useEffect, useState } from 'react';
import { ApiRequestError, api, call, pathOf } from '#shared/api-client';
import type { JobView } from '#shared/booking-responses';
import { isFinished } from '#shared/bookings';
import { moneyToFollow } from '#shared/payments';

export const POLL_MS = 10_000;
export const RETRY_STREAM_MS = 60_000;

export type LiveJob =
  | { state: 'loading' }
  | { state: 'ready'; job: JobView; live: boolean }
  /** 404 (no such job) or 410 (its page has closed): nothing more to ask. */
  | { state: 'gone'; status: number; message: string };

export function useLiveJob(token: string): [LiveJob, (job: JobView) => void] {
  const [live, setLive] = useState<LiveJob>({ state: 'loading' });
  useEffect(() => {
    let stopped = false;
    let source: EventSource | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const endpoint = api().jobs[':token'];
    const param = { token };

    const close = () => {
      stopped = true;
      source?.close();
      clearInterval(poll);
      clearTimeout(retry);
    };
    const show = (job: JobView, streaming: boolean) => {
      setLive({ state: 'ready', job, live: streaming });
      // A finished job changes no more once its money has followed (a refund after a decline): nothing to listen for.
      if (isFinished(job.status) && !moneyToFollow(job.status, job.payment)) close();
    };
    const read = async () => {
      try {
        const job = await call(endpoint.$get, { param }, { anonymous: true });
        if (!stopped) show(job, false);
      } catch (error) {
        if (stopped || !(error instanceof ApiRequestError) || (error.status !== 404 && error.status !== 410)) return;
        setLive({ state: 'gone', status: error.status, message: error.serverMessage });
        close();
      }
    };
    const connect = () => {
      if (stopped) return;
      source = new EventSource(pathOf(endpoint.events, { param }));
      source.addEventListener('job', (event) => {
        clearInterval(poll);
        poll = undefined;
        show(JSON.parse((event as MessageEvent<string>).data) as JobView, true);
      });
      source.onerror = () => {
        // EventSource would retry by itself, but a 404, 410 or 429 it would not: read instead,
        // which tells a missing job from a broken stream, and keep reading until the stream is back.
        source?.close();
        if (stopped) return;
        setLive((current) => (current.state === 'ready' ? { ...current, live: false } : current));
        void read();
        poll ??= setInterval(() => void read(), POLL_MS);
        clearTimeout(retry);
        retry = setTimeout(connect, RETRY_STREAM_MS);
      };
    };
    connect();
    return close;
  }, [token]);
  return [live, (job) => setLive((current) => ({ state: 'ready', job, live: current.state === 'ready' && current.live }))];
}
