// Proof of condition on the driver's page (docs/product.md, "Proof of condition"): at pickup
// (arrived) and at drop-off (loaded) the guided photos, taken with the phone's camera, the
// checklist and notes, and the motorist's signature; and always, what is still waiting to upload.
// Everything taken is queued on the phone and uploaded in the background (./upload-queue.ts): the
// driver's next step never waits for it. When the operator requires the photos before Loaded or
// Completed, the page says so until the four are taken (queued counts: the signal may be poor).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiRequestError, api, call, pathOf, portalApi } from '#shared/api-client';
import type { BookingStatus } from '#shared/bookings';
import {
  PHOTO_SLOT_LABELS,
  PHOTOS_NEEDED,
  PROOF_ALL_UPLOADED,
  PROOF_STAGE_LABELS,
  PROOF_WAITING,
  REQUIRED_SLOTS,
  type PhotoSlot,
  type ConditionView,
  type ProofStage,
  type ProofView,
  type QueuedPhoto,
} from '#shared/proof';
import { currentPosition, photoForUpload } from './resize';
import { SignaturePad, type SignaturePadHandle } from './SignaturePad';
import { driverLinkUploads, type QueueState, type UploadTarget, uploadQueue } from './upload-queue';

const card = 'rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5';
const button = 'flex min-h-12 w-full items-center justify-center rounded-lg border-2 border-slate-700 px-3 text-lg font-semibold';

export const SIGNATURE_SAVED = 'Signature saved. It uploads by itself.';
export const SIGNATURE_EMPTY = 'Ask the customer to sign in the box first.';
export const SIGNER_NEEDED = 'Type the name of the person signing.';
export const CONDITION_SAVED = 'Checklist saved.';

/** A stage's checklist and notes, as the page saves them. */
export interface ConditionBody {
  stage: ProofStage;
  checklist: { item: string; checked: boolean }[];
  notes: string;
}

/**
 * Where the page reads, saves and uploads a job's proof: by the driver's link (its token), or the
 * signed-in driver's own job (the session, docs/product.md §23). `key` names its cache and queue.
 */
export interface ProofSource {
  key: string;
  read(): Promise<ProofView>;
  saveCondition(body: ConditionBody): Promise<ConditionView>;
  uploads: UploadTarget;
}

export function linkProof(token: string): ProofSource {
  const client = api().driver[':token'];
  const param = { token };
  return {
    key: token,
    read: () => call(client.proof.$get, { param }, { anonymous: true }),
    saveCondition: (json) => call(client.condition.$put, { param, json }, { anonymous: true }),
    uploads: driverLinkUploads(token),
  };
}

export function myJobProof(reference: string): ProofSource {
  const client = portalApi['my-jobs'][':reference'];
  const param = { reference };
  return {
    key: `my-jobs:${reference}`,
    read: () => call(client.proof.$get, { param }),
    saveCondition: (json) => call(client.condition.$put, { param, json }),
    uploads: { key: `my-jobs:${reference}`, url: pathOf(client.files, { param }), session: true },
  };
}

/** The stage the driver is at: pickup once arrived, drop-off once loaded. */
export const stageOf = (status: BookingStatus): ProofStage | null => (status === 'arrived' ? 'pickup' : status === 'loaded' ? 'dropoff' : null);

export function DriverProof({
  source,
  status,
  onBlock,
  onQueued,
}: {
  source: ProofSource;
  status: BookingStatus;
  onBlock: (message: string | null) => void;
  /** The photos still queued, by stage, whenever the queue changes: the step leaving a stage declares its own (decision 050). */
  onQueued?: (queued: Record<ProofStage, QueuedPhoto[]>) => void;
}) {
  const queryClient = useQueryClient();
  const { key } = source;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one queue per page, named by its key; the source object may be made again each render
  const queue = useMemo(() => uploadQueue(source.uploads), [key]);
  const [queued, setQueued] = useState<QueueState>({ waiting: [], refused: [] });
  const proof = useQuery({
    queryKey: ['driver-proof', key],
    queryFn: () => source.read(),
    retry: false,
  });
  const waiting = queued.waiting.length;

  useEffect(() => {
    const unsubscribe = queue.subscribe(setQueued);
    queue.start();
    return () => {
      unsubscribe();
      queue.stop();
    };
  }, [queue]);
  // What went up shows as uploaded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the queue getting shorter only
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['driver-proof', key] });
  }, [waiting]);

  const stage = stageOf(status);
  const taken = (s: ProofStage, slot: PhotoSlot) =>
    (proof.data?.files ?? []).some((f) => f.stage === s && f.slot === slot) || queued.waiting.some((w) => w.stage === s && w.slot === slot);
  const required = proof.data?.settings && stage && (stage === 'pickup' ? proof.data.settings.photosBeforeLoaded : proof.data.settings.photosBeforeCompleted);
  const missing = stage ? REQUIRED_SLOTS.filter((slot) => !taken(stage, slot)) : [];
  const block = required && stage && missing.length > 0 ? PHOTOS_NEEDED(stage) : null;
  useEffect(() => onBlock(block), [block, onBlock]);
  useEffect(() => {
    const of = (s: ProofStage) =>
      queued.waiting.flatMap((w) => (w.stage === s && w.kind === 'photo' && w.slot ? [{ uploadId: w.uploadId, slot: w.slot as PhotoSlot }] : []));
    onQueued?.({ pickup: of('pickup'), dropoff: of('dropoff') });
  }, [queued, onQueued]);

  return (
    <>
      {stage && proof.data && <StageProof key={stage} source={source} stage={stage} proof={proof.data} taken={taken} queue={queue} />}
      {(waiting > 0 || queued.refused.length > 0 || (proof.data?.files.length ?? 0) > 0) && (
        <section className={card} aria-label="Uploads">
          <p role="status">{waiting > 0 ? PROOF_WAITING(waiting) : PROOF_ALL_UPLOADED}</p>
          {queued.refused.map((refusal) => (
            <p key={refusal.uploadId} role="alert" className="mt-2 text-red-800">
              {refusal.message}
            </p>
          ))}
        </section>
      )}
    </>
  );
}

function StageProof({
  source,
  stage,
  proof,
  taken,
  queue,
}: {
  source: ProofSource;
  stage: ProofStage;
  proof: ProofView;
  taken: (stage: ProofStage, slot: PhotoSlot) => boolean;
  queue: ReturnType<typeof uploadQueue>;
}) {
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState('');
  const [said, setSaid] = useState('');
  const saved = proof.conditions.find((c) => c.stage === stage);
  const [checked, setChecked] = useState<Record<string, boolean>>(() => Object.fromEntries((saved?.checklist ?? []).map((c) => [c.item, c.checked])));
  const [notes, setNotes] = useState(saved?.notes ?? '');
  const [signer, setSigner] = useState('');
  const pad = useRef<SignaturePadHandle>(null);
  const label = PROOF_STAGE_LABELS[stage];

  async function take(slot: PhotoSlot, files: FileList | null, input: HTMLInputElement) {
    const picked = files?.[0];
    input.value = '';
    if (!picked) return;
    setProblem('');
    const takenAt = new Date().toISOString();
    const [photo, position] = await Promise.all([photoForUpload(picked), currentPosition()]);
    await queue.add({ stage, kind: 'photo', slot, note: slot === 'damage' ? note.trim() || undefined : undefined, takenAt, ...position, ...photo });
    if (slot === 'damage') setNote('');
  }

  async function sign() {
    setProblem('');
    setSaid('');
    if (!signer.trim()) return setProblem(SIGNER_NEEDED);
    const png = await pad.current?.png();
    if (!png) return setProblem(SIGNATURE_EMPTY);
    await queue.add({ stage, kind: 'signature', signer: signer.trim(), takenAt: new Date().toISOString(), file: png });
    pad.current?.clear();
    setSigner('');
    setSaid(SIGNATURE_SAVED);
  }

  async function saveChecklist() {
    setProblem('');
    setSaid('');
    try {
      await source.saveCondition({ stage, checklist: proof.settings.checklist.map((item) => ({ item, checked: checked[item] ?? false })), notes });
      setSaid(CONDITION_SAVED);
    } catch (error) {
      setProblem(error instanceof ApiRequestError ? error.serverMessage : 'No connection. Try again.');
    }
  }

  const photoInput = (slot: PhotoSlot, text: string) => (
    <label className={`${button} cursor-pointer ${slot !== 'damage' && taken(stage, slot) ? 'border-green-700 bg-green-50' : ''}`}>
      {text}
      <input
        type="file"
        accept="image/*"
        capture="environment"
        className="sr-only"
        data-slot={slot}
        onChange={(event) => void take(slot, event.currentTarget.files, event.currentTarget)}
      />
    </label>
  );

  return (
    <>
      <section aria-labelledby="photos-heading" className={card}>
        <h2 id="photos-heading" className="text-xl font-semibold">
          {label} photos
        </h2>
        <div className="mt-3 grid grid-cols-2 gap-2">
          {(['front', 'rear', 'left', 'right'] as const).map((slot) => (
            <div key={slot}>{photoInput(slot, `${PHOTO_SLOT_LABELS[slot]}${taken(stage, slot) ? ': taken' : ''}`)}</div>
          ))}
        </div>
        <label className="mt-4 block font-semibold" htmlFor={`damage-note-${stage}`}>
          Damage note (optional)
        </label>
        <input
          id={`damage-note-${stage}`}
          value={note}
          maxLength={200}
          onChange={(event) => setNote(event.target.value)}
          className="mt-1 min-h-12 w-full rounded-lg border border-slate-400 px-3"
        />
        <div className="mt-2">{photoInput('damage', 'Add a damage close-up')}</div>
      </section>

      <section aria-labelledby="checklist-heading" className={card}>
        <h2 id="checklist-heading" className="text-xl font-semibold">
          {label} checklist
        </h2>
        <ul className="mt-2 space-y-2">
          {proof.settings.checklist.map((item) => (
            <li key={item}>
              <label className="flex min-h-12 items-center gap-3 text-lg">
                <input
                  type="checkbox"
                  className="size-6"
                  checked={checked[item] ?? false}
                  onChange={(event) => setChecked({ ...checked, [item]: event.target.checked })}
                />
                {item}
              </label>
            </li>
          ))}
        </ul>
        <label className="mt-3 block font-semibold" htmlFor={`condition-notes-${stage}`}>
          Notes
        </label>
        <textarea
          id={`condition-notes-${stage}`}
          value={notes}
          maxLength={1000}
          onChange={(event) => setNotes(event.target.value)}
          className="mt-1 min-h-24 w-full rounded-lg border border-slate-400 p-3"
        />
        <button type="button" onClick={() => void saveChecklist()} className={`${button} mt-2`}>
          Save checklist
        </button>
      </section>

      <section aria-labelledby="signature-heading" className={card}>
        <h2 id="signature-heading" className="text-xl font-semibold">
          Customer’s signature
        </h2>
        <p className="mt-1 text-slate-700">Hand the phone to the customer to sign with a finger.</p>
        <div className="mt-2">
          <SignaturePad ref={pad} label="Signature box: sign here with a finger" />
        </div>
        <label className="mt-3 block font-semibold" htmlFor={`signer-${stage}`}>
          Name of the person signing
        </label>
        <input
          id={`signer-${stage}`}
          value={signer}
          maxLength={80}
          autoComplete="off"
          onChange={(event) => setSigner(event.target.value)}
          className="mt-1 min-h-12 w-full rounded-lg border border-slate-400 px-3"
        />
        <div className="mt-2 grid grid-cols-2 gap-2">
          <button type="button" onClick={() => pad.current?.clear()} className={button}>
            Clear
          </button>
          <button type="button" onClick={() => void sign()} className={button}>
            Save signature
          </button>
        </div>
      </section>
      {(problem || said) && (
        <p role={problem ? 'alert' : 'status'} className={problem ? 'text-red-800' : 'text-green-800'}>
          {problem || said}
        </p>
      )}
    </>
  );
}
