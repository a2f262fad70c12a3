// The driver's page's queue of photos and signatures (docs/product.md, "Proof of condition"): each
// one is kept in the phone's IndexedDB the moment it is taken, and uploaded in the background,
// one at a time, retried with a growing pause while the signal is poor and at once when the phone
// says it is back online. A page closed and opened again picks up where it left off. Nothing the
// driver does waits for it: a status change goes at once, whatever is still queued.
import { ApiRequestError, sessionHeaders } from '#shared/api-client';
import type { ProofStage } from '#shared/proof';

export interface QueuedUpload {
  uploadId: string;
  /** The page the upload belongs to (UploadTarget's `key`): the driver's token, or the signed-in driver's own job. */
  token: string;
  stage: ProofStage;
  kind: 'photo' | 'signature';
  slot?: string;
  note?: string;
  signer?: string;
  takenAt: string;
  lat?: number;
  lng?: number;
  file: Blob;
  thumbnail?: Blob;
  /** The file is up; only its thumbnail is left. */
  fileSent: boolean;
  queuedAt: number;
}

export interface QueueState {
  waiting: QueuedUpload[];
  /** Uploads the server refused for good (not an image, too large, the job full): the driver is told, and they are dropped. */
  refused: { uploadId: string; message: string }[];
}

const DB_NAME = 'recovery-quote-proof';
const STORE = 'uploads';
/**
 * Where a page's uploads go: the driver's link (its token in the path, no cookies), or the
 * signed-in driver's own job (the session). `key` names the page's queue on the phone.
 */
export interface UploadTarget {
  key: string;
  url: string;
  session: boolean;
}

/** The driver's link: its queue is kept under its token, as it always was (uploads queued before still go). */
export const driverLinkUploads = (token: string): UploadTarget => ({ key: token, url: `/api/driver/${token}/files`, session: false });

/** Pauses between tries while uploads fail: 2 s, growing to a minute. */
export const RETRY_PAUSES_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

/** 128 random bits, as the server's uploadId wants them. */
export function newUploadId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** Where queued uploads are kept: IndexedDB, or memory where the browser has none (they are then lost with the page). */
interface Shelf {
  all(token: string): Promise<QueuedUpload[]>;
  put(entry: QueuedUpload): Promise<void>;
  remove(uploadId: string): Promise<void>;
}

function memoryShelf(): Shelf {
  const entries = new Map<string, QueuedUpload>();
  return {
    all: async (token) => [...entries.values()].filter((e) => e.token === token).sort((a, b) => a.queuedAt - b.queuedAt),
    put: async (entry) => void entries.set(entry.uploadId, entry),
    remove: async (uploadId) => void entries.delete(uploadId),
  };
}

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

function indexedDbShelf(factory: IDBFactory): Shelf {
  let opened: Promise<IDBDatabase> | undefined;
  const database = () =>
    (opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: 'uploadId' });
        store.createIndex('token', 'token');
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }));
  const store = async (mode: IDBTransactionMode) => (await database()).transaction(STORE, mode).objectStore(STORE);
  return {
    async all(token) {
      const entries = (await done((await store('readonly')).index('token').getAll(token))) as QueuedUpload[];
      return entries.sort((a, b) => a.queuedAt - b.queuedAt);
    },
    async put(entry) {
      await done((await store('readwrite')).put(entry));
    },
    async remove(uploadId) {
      await done((await store('readwrite')).delete(uploadId));
    },
  };
}

const shelf: Shelf = typeof indexedDB === 'undefined' ? memoryShelf() : indexedDbShelf(indexedDB);

/** The query an upload's URL carries: what it is, when and where it was taken. */
function queryOf(entry: QueuedUpload, variant: 'full' | 'thumbnail'): string {
  const query: Record<string, string> = { uploadId: entry.uploadId, stage: entry.stage, kind: entry.kind, takenAt: entry.takenAt, variant };
  if (entry.slot) query.slot = entry.slot;
  if (entry.note) query.note = entry.note;
  if (entry.signer) query.signer = entry.signer;
  if (entry.lat !== undefined && entry.lng !== undefined) Object.assign(query, { lat: String(entry.lat), lng: String(entry.lng) });
  return new URLSearchParams(query).toString();
}

async function send(target: UploadTarget, entry: QueuedUpload, variant: 'full' | 'thumbnail', body: Blob): Promise<void> {
  const response = await fetch(`${target.url}?${queryOf(entry, variant)}`, {
    method: 'POST',
    headers: { 'Content-Type': body.type || 'image/jpeg', ...(target.session ? sessionHeaders() : {}) },
    body,
    credentials: target.session ? 'include' : 'omit',
  });
  if (!response.ok) throw new ApiRequestError(response.status, await response.text(), response.statusText);
}

/** Worth trying again: no connection, the server busy or down, or the uploads' rate limit. */
const passing = (error: unknown) => !(error instanceof ApiRequestError) || error.status >= 500 || error.status === 429 || error.status === 408;

/**
 * The queue of one driver's page: `add` keeps an upload and starts sending; `subscribe` is told
 * of every change. Made once per page (its target) and kept for the page's life.
 */
export function uploadQueue(target: UploadTarget, options: { pauses?: number[]; online?: EventTarget } = {}) {
  const token = target.key;
  const pauses = options.pauses ?? RETRY_PAUSES_MS;
  const listeners = new Set<(state: QueueState) => void>();
  let state: QueueState = { waiting: [], refused: [] };
  let running = false;
  /** Asked to send while already sending (the network came back mid-try): go round once more at once. */
  let again = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const publish = (next: Partial<QueueState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener(state);
  };
  const refresh = async () => publish({ waiting: await shelf.all(token) });

  async function drain() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    clearTimeout(timer);
    try {
      for (;;) {
        const [entry] = await shelf.all(token);
        if (!entry) break;
        try {
          if (!entry.fileSent) {
            await send(target, entry, 'full', entry.file);
            entry.fileSent = true;
            await shelf.put(entry);
          }
          if (entry.thumbnail) await send(target, entry, 'thumbnail', entry.thumbnail);
          await shelf.remove(entry.uploadId);
          failures = 0;
        } catch (error) {
          if (passing(error)) {
            // Try again later, the oldest first: nothing is lost or skipped.
            timer = setTimeout(() => void drain(), pauses[Math.min(failures, pauses.length - 1)]);
            failures += 1;
            break;
          }
          await shelf.remove(entry.uploadId);
          publish({
            refused: [...state.refused, { uploadId: entry.uploadId, message: error instanceof ApiRequestError ? error.serverMessage : String(error) }],
          });
        }
        await refresh();
      }
    } finally {
      running = false;
      await refresh();
      if (again) void drain();
    }
  }

  const online = options.online ?? (typeof window === 'undefined' ? undefined : window);
  const onOnline = () => {
    failures = 0;
    void drain();
  };
  online?.addEventListener('online', onOnline);

  return {
    async add(entry: Omit<QueuedUpload, 'token' | 'fileSent' | 'queuedAt' | 'uploadId'>) {
      await shelf.put({ ...entry, uploadId: newUploadId(), token, fileSent: false, queuedAt: Date.now() });
      await refresh();
      void drain();
    },
    /** Starts (or restarts) sending what the page left queued last time. */
    start() {
      void refresh().then(drain);
    },
    subscribe(listener: (state: QueueState) => void) {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
    stop() {
      clearTimeout(timer);
      online?.removeEventListener('online', onOnline);
    },
  };
}

export type UploadQueue = ReturnType<typeof uploadQueue>;
