// The custom URL (docs/product.md §4): editable until saved; saving goes through a confirmation and locks
// it for good, because customers and printed vans will carry the link. The lock button shows
// while the URL is unlocked, so an empty or unchanged value meets docs/product.md §5's "No changes" toast.
// Claiming needs a subscription (the server answers 402): the card then points to the trial. It
// needs a phone or WhatsApp number too (a page that quotes must let the motorist reach someone):
// without one the card says so before asking, with a link to the phone field.
import { useState } from 'react';
import { Link } from 'react-router';
import { CircleCheck, ExternalLink, Lock } from 'lucide-react';
import { ApiRequestError } from '#shared/api-client';
import { toast } from '../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, ConfirmDialog, Input, Label } from '../../components/ui';
import { customSlugSchema } from '#shared/schemas';
import { errorCodeOf } from '#shared/error-codes';
import { NO_CONTACT_NUMBER } from '#shared/share';
import { FieldLink } from './go-to-field';
import { useSaveCompany } from './api';
import { CUSTOM_URL_CARD_ID } from './ShareEmbedCard';
import { customUrlState, customUrlUnchanged } from './branding';

/**
 * `suggestion` fills an unlocked field to start with (the guided set-up offers the company name as
 * a URL), so the operator locks it or types their own.
 */
export function CustomUrlCard({ savedSlug, hasNumber, suggestion = '' }: { savedSlug: string | null; hasNumber: boolean; suggestion?: string }) {
  const [draft, setDraft] = useState(savedSlug ?? suggestion);
  const [confirming, setConfirming] = useState(false);
  // The reason the URL is refused: the shared schema's before asking, else the server's.
  const [serverError, setServerError] = useState<string | null>(null);
  // What the confirmation shows and what is sent: the draft as the server will store it.
  const [slug, setSlug] = useState('');
  const [needsSubscription, setNeedsSubscription] = useState(false);
  // Refused for want of a number: found before asking (`checked`), or by the server (removed in another tab).
  const [needsNumber, setNeedsNumber] = useState<'checked' | 'server' | null>(null);
  const save = useSaveCompany();
  const { locked, canLock } = customUrlState(savedSlug);
  const prefix = `${window.location.origin}/company/`;

  const startLock = () => {
    if (customUrlUnchanged(savedSlug, draft)) {
      toast({ title: 'No changes', description: "The custom URL hasn't been changed." });
      return;
    }
    setNeedsSubscription(false);
    setNeedsNumber(null);
    if (!hasNumber) {
      setServerError(NO_CONTACT_NUMBER);
      setNeedsNumber('checked');
      return;
    }
    const parsed = customSlugSchema.safeParse(draft);
    if (!parsed.success) {
      setServerError(parsed.error.issues[0].message);
      return;
    }
    setServerError(null);
    setSlug(parsed.data);
    setConfirming(true);
  };

  const confirm = () => {
    setServerError(null);
    setNeedsSubscription(false);
    save.mutate(
      { customSlug: slug },
      {
        onSuccess: () => {
          setConfirming(false);
          toast({ title: 'Custom URL saved', description: 'Your custom URL has been saved and is now locked.' });
        },
        onError: (error) => {
          setConfirming(false);
          if (error instanceof ApiRequestError) setServerError(error.fields?.customSlug ?? error.serverMessage);
          if (error instanceof ApiRequestError && error.status === 402) {
            // Trying again will not help: the reason and the way to the trial are shown instead.
            setNeedsSubscription(true);
            return;
          }
          if (error instanceof ApiRequestError && errorCodeOf(error.body) === 'NO_CONTACT_NUMBER') {
            // The number was removed in another tab: the reason and the way to the field.
            setNeedsNumber('server');
            return;
          }
          toast({ title: 'Error', description: 'Failed to save custom URL. Please try again.', variant: 'destructive' });
        },
      },
    );
  };

  const shownSlug = locked ? (savedSlug ?? '') : draft;
  // Once a number is saved (the Contact Info tab) the reason found before asking goes.
  const error = needsNumber === 'checked' && hasNumber ? null : serverError;
  return (
    <Card id={CUSTOM_URL_CARD_ID} className="scroll-mt-4">
      <CardHeader>
        <CardTitle>Custom URL</CardTitle>
        <CardDescription>The web address of your quote page. Choose carefully: once saved it is locked.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <Label htmlFor="customSlug">Custom URL (your quote page address)</Label>
        <div className="flex flex-wrap items-center gap-2">
          <div className="flex min-w-0 flex-1 items-center rounded-md border border-slate-300 bg-white focus-within:border-brand-600">
            <span className="hidden shrink-0 pl-3 text-sm text-slate-600 sm:inline" aria-hidden="true">
              {prefix}
            </span>
            <Input
              id="customSlug"
              value={shownSlug}
              readOnly={locked}
              onChange={(e) => setDraft(e.target.value)}
              placeholder="yourcompany"
              autoCapitalize="none"
              spellCheck={false}
              aria-describedby={error ? 'customSlug-hint customSlug-error' : 'customSlug-hint'}
              aria-invalid={error ? true : undefined}
              className="border-0 shadow-none"
            />
            {locked && <CircleCheck className="mr-3 size-5 shrink-0 text-green-700" aria-hidden="true" />}
          </div>
          {canLock && (
            <Button onClick={startLock} disabled={save.isPending}>
              <Lock aria-hidden="true" /> Lock Custom URL
            </Button>
          )}
        </div>
        {locked ? (
          <p id="customSlug-hint" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-green-800">
            <span>Custom URL saved and locked: it cannot be changed.</span>
            <a href={`/company/${savedSlug}`} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-medium text-brand-700 underline">
              Open page <ExternalLink className="size-3.5" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </p>
        ) : (
          <p id="customSlug-hint" className="text-xs text-slate-600">
            Lowercase letters, numbers and hyphens only, e.g. acme-recovery.
          </p>
        )}
        {error && (
          <p id="customSlug-error" role="alert" className="text-sm text-red-700">
            {error}
            {needsSubscription && (
              <>
                {' '}
                <Link to="/subscription" className="font-medium text-brand-700 underline">
                  Start your free trial
                </Link>
              </>
            )}
            {needsNumber && (
              <>
                {' '}
                <FieldLink field="phone">Add your phone number</FieldLink>
              </>
            )}
          </p>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Lock this custom URL?"
        description={
          <>
            Your quote page will be at <strong className="break-all">{prefix + slug}</strong>. Once saved, the custom URL cannot be changed.
          </>
        }
        confirmLabel="Save and Lock"
        pending={save.isPending}
        onConfirm={confirm}
      />
    </Card>
  );
}
