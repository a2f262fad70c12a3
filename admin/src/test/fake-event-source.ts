// EventSource as the job pages use it (admin/src/pages/job/live.ts): one `job` listener, onerror,
// close. Tests push each view through it as the server's stream would.
import { act } from '@testing-library/react';

export class FakeEventSource {
  static opened: FakeEventSource[] = [];
  listeners: ((event: MessageEvent<string>) => void)[] = [];
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(_type: 'job', listener: (event: MessageEvent<string>) => void) {
    this.listeners.push(listener);
  }
  close() {
    this.closed = true;
  }
  send(view: unknown) {
    act(() => {
      for (const l of this.listeners) l(new MessageEvent('job', { data: JSON.stringify(view) }));
    });
  }
  fail() {
    act(() => this.onerror?.());
  }
}

export const latestEventSource = () => FakeEventSource.opened.at(-1)!;
