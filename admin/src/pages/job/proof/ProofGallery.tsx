// The job's photos, signatures and checklists as a reader sees them (docs/product.md, "Proof of
// condition"): the motorist on the status page, the operator in the Jobs card. Thumbnails by
// stage with their times; a tap opens the photo full size. Every URL is the reader's own (the
// job's token, or the operator's session), as the server gave it.
import { clockTime } from '#shared/bookings';
import type { ProofView } from '#shared/proof';
import { PHOTO_SLOT_LABELS, PROOF_STAGE_LABELS, PROOF_STAGES, type PhotoSlot } from '#shared/proof-words';

export const REPORT_LINK = 'Download the job report (PDF)';
/** Photos the driver's phone declared queued when it moved the job on, not received yet (decision 050). */
export const awaitingWords = (slots: readonly PhotoSlot[]) =>
  `Still to upload from the driver’s phone: ${slots.map((slot) => PHOTO_SLOT_LABELS[slot]).join(', ')}`;

export function ProofGallery({ proof, headingLevel = 2 }: { proof: ProofView; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const Sub = headingLevel === 2 ? 'h3' : 'h4';
  if (proof.files.length === 0 && proof.conditions.length === 0 && proof.awaiting.length === 0 && !proof.reportUrl) return null;
  return (
    <div className="space-y-3">
      <Heading className="font-semibold">Photos and condition</Heading>
      {PROOF_STAGES.map((stage) => {
        const files = proof.files.filter((f) => f.stage === stage);
        const condition = proof.conditions.find((c) => c.stage === stage);
        const awaiting = proof.awaiting.filter((a) => a.stage === stage).map((a) => a.slot);
        if (files.length === 0 && !condition && awaiting.length === 0) return null;
        return (
          <div key={stage}>
            <Sub className="text-sm font-semibold text-slate-700">{PROOF_STAGE_LABELS[stage]}</Sub>
            {awaiting.length > 0 && <p className="text-xs text-slate-700">{awaitingWords(awaiting)}</p>}
            <ul className="mt-1 grid grid-cols-3 gap-2">
              {files.map((f) => {
                const what = f.kind === 'signature' ? `Signature of ${f.signerName ?? ''}` : PHOTO_SLOT_LABELS[(f.slot ?? 'damage') as PhotoSlot];
                return (
                  <li key={f.id} className="text-xs">
                    {f.url ? (
                      <a href={f.url} target="_blank" rel="noreferrer" className="block">
                        <img
                          src={f.thumbnailUrl ?? f.url}
                          alt={`${what}, ${clockTime(f.takenAt)}`}
                          className="aspect-[4/3] w-full rounded object-cover ring-1 ring-slate-300"
                        />
                      </a>
                    ) : (
                      <span className="block rounded bg-slate-100 p-2">{what}</span>
                    )}
                    <span className="block font-medium">{what}</span>
                    <span className="block text-slate-700">
                      {clockTime(f.takenAt)}
                      {f.note ? `: ${f.note}` : ''}
                    </span>
                  </li>
                );
              })}
            </ul>
            {condition && (
              <ul className="mt-2 text-sm">
                {condition.checklist.map((c) => (
                  <li key={c.item}>
                    {c.checked ? 'Yes' : 'No'}: {c.item}
                  </li>
                ))}
                {condition.notes && <li className="mt-1">Notes: {condition.notes}</li>}
              </ul>
            )}
          </div>
        );
      })}
      {proof.reportUrl && (
        <a
          href={proof.reportUrl}
          download
          className="flex min-h-12 items-center justify-center rounded-lg border border-slate-300 px-4 font-semibold underline"
        >
          {REPORT_LINK}
        </a>
      )}
    </div>
  );
}
