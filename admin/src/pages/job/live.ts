// The job pages' live copy of their job (docs/product.md §20): a Server-Sent Events stream, and
// while that is broken (or refused when too many are open), a read every 10 s, with the stream
// tried again after a minute. Same origin, no cookie sent with the reads. The motorist's status
// page and the driver's page each follow their own view of the job this way.
import { useEffect, useState } from 'react';
import { ApiRequestError, api, call, pathOf } from '#shared/api-client';
import type { DriverView, JobView } from '#shared/booking-responses';
import { isFinished } from '#shared/bookings';
import { jobPageDone } from '#shared/payments';
import { takePrefetchedJob } from './first-read';

export const POLL_MS = 10_000;
export const RETRY_STREAM_MS = 60_000;

export type Live<V> =
  | { state: 'loading' }
  | { state: 'ready'; job: V; live: boolean }
  /** 404 (no such job) or 410 (its page has closed): nothing more to ask. */
  | { state: 'gone'; status: number; message: string };
export type LiveJob = Live<JobView>;

interface LiveSource<V> {
  read: () => Promise<V>;
  /** A read already under way when the page opened (first-read.ts): shown until the stream speaks. */
  first?: () => Promise<V> | undefined;
  events: string;
  /** Nothing more will change: the page stops listening. */
  done: (view: V) => boolean;
}

function useLive<V>(token: string, source: (token: string) => LiveSource<V>, enabled = true): [Live<V>, (view: V) => void] {
  const [live, setLive] = useState<Live<V>>({ state: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `source` is a module-level function; the stream follows the token only
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let stream: EventSource | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    /** A view has been shown: the route's early read (first-read.ts), arriving later, is older. */
    let heard = false;
    const { read: get, events, done, first } = source(token);

    const close = () => {
      stopped = true;
      stream?.close();
      clearInterval(poll);
      clearTimeout(retry);
    };
    const show = (view: V, streaming: boolean) => {
      heard = true;
      setLive({ state: 'ready', job: view, live: streaming });
      if (done(view)) close();
    };
    const read = async () => {
      try {
        const view = await get();
        if (!stopped) show(view, false);
      } catch (error) {
        if (stopped || !(error instanceof ApiRequestError) || (error.status !== 404 && error.status !== 410)) return;
        setLive({ state: 'gone', status: error.status, message: error.serverMessage });
        close();
      }
    };
    const connect = () => {
      if (stopped) return;
      stream = new EventSource(events);
      stream.addEventListener('job', (event) => {
        clearInterval(poll);
        poll = undefined;
        show(JSON.parse((event as MessageEvent<string>).data) as V, true);
      });
      stream.onerror = () => {
        // EventSource would retry by itself, but a 404, 410 or 429 it would not: read instead,
        // which tells a missing job from a broken stream, and keep reading until the stream is back.
        stream?.close();
        if (stopped) return;
        setLive((current) => (current.state === 'ready' ? { ...current, live: false } : current));
        void read();
        poll ??= setInterval(() => void read(), POLL_MS);
        clearTimeout(retry);
        retry = setTimeout(connect, RETRY_STREAM_MS);
      };
    };
    connect();
    // The read started with the route, if any: its view shows at once, unless the stream came first.
    first?.()?.then(
      (view) => {
        // The stream is connecting: the page is live unless it fails (onerror says otherwise).
        if (!stopped && !heard) show(view, true);
      },
      () => undefined,
    );
    return close;
  }, [token, enabled]);
  return [live, (view) => setLive((current) => ({ state: 'ready', job: view, live: current.state === 'ready' && current.live }))];
}

const motoristSource = (token: string): LiveSource<JobView> => {
  const endpoint = api().jobs[':token'];
  return {
    read: () => call(endpoint.$get, { param: { token } }, { anonymous: true }),
    first: () => takePrefetchedJob(token),
    events: pathOf(endpoint.events, { param: { token } }),
    // Not while its money is to follow (a refund after a decline) or its balance is to be recorded.
    done: jobPageDone,
  };
};

const driverSource = (token: string): LiveSource<DriverView> => {
  const endpoint = api().driver[':token'];
  return {
    read: () => call(endpoint.$get, { param: { token } }, { anonymous: true }),
    events: pathOf(endpoint.events, { param: { token } }),
    done: (job) => isFinished(job.status),
  };
};

/** The motorist's status page's job. */
export const useLiveJob = (token: string) => useLive(token, motoristSource);
/** The driver's page's job: a cancellation shows as it happens. */
export const useLiveDriverJob = (token: string, enabled = true) => useLive(token, driverSource, enabled);
