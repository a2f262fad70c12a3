// Share & Embed (docs/product.md §14), at the top of the Branding tab: the public link with Copy and Open,
// the snippet for the operator's own website, the link's QR code for a van door or a business
// card, and the setup checklist. Until a custom URL is locked there is no link: one step points
// to the custom URL card instead. Without a phone or WhatsApp number the link is not handed out
// (the server's NO_CONTACT_NUMBER): the card says why, with a link to the phone field.
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Circle, Copy, Download, ExternalLink, Link2 } from 'lucide-react';
import { call, pathOf, portalApi } from '#shared/api-client';
import { NO_CONTACT_NUMBER, NO_CUSTOM_URL } from '#shared/share';
import type { ShareKit } from '#shared/types';
import { toast } from '../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Label, Spinner, Textarea } from '../../components/ui';
import { cn } from '../../lib/cn';
import { FieldLink } from './go-to-field';
import { ApiRequestError } from '#shared/api-client';
import { bookingSettingsUpdateSchema } from '#shared/booking-schemas';
import { useBookingSettings, useSaveBookingSettings } from './jobs/api';
import { errorText } from './api';

export const CHECKLIST_KEY = [pathOf(portalApi.share.checklist)] as const;
export const SHARE_KEY = [pathOf(portalApi.share.embed)] as const;
const QR_SVG = pathOf(portalApi.share['qr.svg']);
const QR_PNG = pathOf(portalApi.share['qr.png']);
/** The custom URL card's id, for the "Choose your custom URL" step to scroll to. */
export const CUSTOM_URL_CARD_ID = 'custom-url';

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
  } catch {
    toast({ title: `Could not copy the ${what.toLowerCase()}`, description: 'Select it and copy it by hand.', variant: 'destructive' });
  }
}

function chooseCustomUrl() {
  const card = document.getElementById(CUSTOM_URL_CARD_ID);
  card?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  card?.querySelector<HTMLInputElement>('input')?.focus({ preventScroll: true });
}

/** The checklist, read again after every save in the portal and when the operator comes back to the window. */
function useChecklist() {
  const checklist = useQuery({
    queryKey: CHECKLIST_KEY,
    queryFn: () => call(portalApi.share.checklist.$get),
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') void queryClient.invalidateQueries({ queryKey: CHECKLIST_KEY });
      }),
    [queryClient],
  );
  return checklist;
}

/** The setup checklist: shown above every tab of the portal, and in the guided set-up's last step. */
export function Checklist() {
  const checklist = useChecklist();
  if (checklist.isLoading) return <Spinner label="Loading your setup checklist" />;
  if (!checklist.data) return null;
  const { items, done, total } = checklist.data;
  return (
    <section aria-labelledby="setup-checklist" className="grid gap-2">
      <h3 id="setup-checklist" className="text-sm font-semibold">
        Setup checklist{' '}
        <span className="font-normal text-slate-600">
          ({done} of {total} done)
        </span>
      </h3>
      <ul className="flex flex-wrap gap-x-5 gap-y-1.5">
        {items.map((item) => (
          <li key={item.key} className={cn('flex items-center gap-2 text-sm', item.done ? 'text-green-800' : 'text-slate-700')}>
            {item.done ? (
              <CircleCheck className="size-4 shrink-0" aria-hidden="true" />
            ) : (
              <Circle className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
            )}
            {item.label}
            <span className="sr-only">{item.done ? '(done)' : '(to do)'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ShareLinks({ kit }: { kit: ShareKit }) {
  return (
    <div className="grid gap-5">
      <div className="grid gap-1.5">
        <Label htmlFor="share-link">Your public link</Label>
        {/* The whole link shows, wrapped on a phone, with Copy beside it; Open follows. */}
        <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 sm:grid-cols-[minmax(0,1fr)_auto_auto]">
          <textarea
            id="share-link"
            readOnly
            rows={1}
            value={kit.link}
            onFocus={(e) => e.target.select()}
            className="field-sizing-content min-h-10 w-full resize-none break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm"
          />
          <Button variant="outline" onClick={() => void copy(kit.link, 'Link')}>
            <Copy aria-hidden="true" /> Copy link
          </Button>
          <Button variant="outline" className="justify-self-start" asChild>
            <a href={kit.link} target="_blank" rel="noreferrer">
              <ExternalLink aria-hidden="true" /> Open
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </Button>
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="embed-snippet">Embed on your website</Label>
        <Textarea
          id="embed-snippet"
          readOnly
          rows={2}
          value={kit.embedSnippet}
          onFocus={(e) => e.target.select()}
          className="font-mono text-xs"
          aria-describedby="embed-snippet-hint"
        />
        <p id="embed-snippet-hint" className="text-xs text-slate-600">
          Paste this into any page of your website where the quote form should appear.
        </p>
        <div>
          <Button variant="outline" onClick={() => void copy(kit.embedSnippet, 'Embed code')}>
            <Copy aria-hidden="true" /> Copy embed code
          </Button>
        </div>
      </div>
      <WebsitesField />
      <div className="flex flex-wrap items-center gap-4">
        <img src={QR_SVG} alt={`QR code for ${kit.link}`} width={128} height={128} className="rounded-md border border-slate-200 bg-white" />
        <div className="grid gap-2">
          <p className="text-sm text-slate-700">For your van, business cards and flyers: customers scan it to reach your quote page.</p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" asChild>
              <a href={QR_PNG} download>
                <Download aria-hidden="true" /> QR code (PNG)
              </a>
            </Button>
            <Button variant="outline" asChild>
              <a href={QR_SVG} download>
                <Download aria-hidden="true" /> QR code (SVG, for print)
              </a>
            </Button>
          </div>
        </div>
      </div>
    </div>
  );
}

export const WEBSITES_HINT =
  'One address per line, e.g. https://www.example.co.uk. Bookings from your form are taken only on these websites and on your RecoveryQuote page; anywhere else the motorist is sent to your page to book.';

/**
 * "Websites your form is on" (decision 033): a booking posted from a browser on any other website
 * is refused, so a copy of the form on someone else's site cannot book in the company's name.
 */
export function WebsitesField() {
  const settings = useBookingSettings();
  const save = useSaveBookingSettings();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const stored = settings.data?.bookingOrigins.join('\n') ?? '';
  const value = text ?? stored;
  function submit(event: { preventDefault(): void }) {
    event.preventDefault();
    const parsed = bookingSettingsUpdateSchema.safeParse({ bookingOrigins: value.split('\n') });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    save.mutate(
      { bookingOrigins: parsed.data.bookingOrigins },
      {
        onSuccess: (saved) => {
          setText(saved.bookingOrigins.join('\n'));
          toast({ title: 'Websites saved' });
        },
        onError: (failure) => {
          setError(failure instanceof ApiRequestError ? failure.fields?.bookingOrigins : undefined);
          toast({ title: 'Error saving websites', description: errorText(failure), variant: 'destructive' });
        },
      },
    );
  }
  if (settings.isLoading) return <Spinner label="Loading your websites" />;
  return (
    <form noValidate onSubmit={submit} className="grid gap-1.5">
      <Label htmlFor="booking-origins">Websites your form is on</Label>
      <Textarea
        id="booking-origins"
        rows={3}
        value={value}
        onChange={(e) => setText(e.target.value)}
        placeholder="https://www.example.co.uk"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'booking-origins-hint booking-origins-error' : 'booking-origins-hint'}
        className="font-mono text-xs"
      />
      <p id="booking-origins-hint" className="text-xs text-slate-600">
        {WEBSITES_HINT}
      </p>
      {error && (
        <p id="booking-origins-error" role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" variant="outline" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save websites'}
        </Button>
      </div>
    </form>
  );
}

/** `withChecklist`: off where the checklist is on screen already (the portal shows it above every tab). */
export function ShareEmbedCard({ savedSlug, hasNumber, withChecklist = true }: { savedSlug: string | null; hasNumber: boolean; withChecklist?: boolean }) {
  const kit = useQuery({
    queryKey: [...SHARE_KEY, savedSlug],
    queryFn: () => call(portalApi.share.embed.$get),
    enabled: Boolean(savedSlug) && hasNumber,
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Share &amp; Embed</CardTitle>
        <CardDescription>Your link, the code for your own website, and a QR code for your van.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {!savedSlug ? (
          <div className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
            <Link2 className="size-5 text-amber-900" aria-hidden="true" />
            <p className="flex-1 text-sm text-amber-950">Your link, embed code and QR code appear once your custom URL is locked.</p>
            <Button onClick={chooseCustomUrl}>{NO_CUSTOM_URL}</Button>
          </div>
        ) : !hasNumber ? (
          <div className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
            <Link2 className="size-5 text-amber-900" aria-hidden="true" />
            <p className="flex-1 text-sm text-amber-950">
              {NO_CONTACT_NUMBER}. <FieldLink field="phone">Add your phone number</FieldLink>
            </p>
          </div>
        ) : kit.data ? (
          <ShareLinks kit={kit.data} />
        ) : kit.isError ? (
          <p className="text-sm text-red-700">Unable to load your link. Please reload the page.</p>
        ) : (
          <Spinner label="Loading your link" />
        )}
        {withChecklist && <Checklist />}
      </CardContent>
    </Card>
  );
}
