// Set-up step 4, go live (docs/product.md §14): the custom URL (offered from the company name), then
// the link, the QR code and the embed snippet, from the Branding tab's own cards. A company with
// no number to reach it by is told so first, with the way back to the step that adds one.
import { useEffect, useRef } from 'react';
import { TriangleAlert } from 'lucide-react';
import { SLUG_LENGTH } from '#shared/patterns';
import { hasContactNumber } from '#shared/share';
import { slugify } from '#shared/slug';
import type { Company } from '#shared/types';
import { Button, Card, CardDescription, CardHeader } from '../../components/ui';
import { CustomUrlCard } from '../dashboard/CustomUrlCard';
import { ShareEmbedCard } from '../dashboard/ShareEmbedCard';
import { STEP_TITLES } from '../../lib/setup-progress';
import type { StepProps } from './steps';

/** The company name as a custom URL to start from ("Dana's Recovery Ltd" → "dana-s-recovery-ltd"). */
export const suggestedSlug = (name: string): string => slugify(name).slice(0, SLUG_LENGTH.max).replace(/-+$/, '');

export function GoLiveStep({ company, back, finish, toContact, moved }: StepProps & { company: Company; finish: () => void; toContact: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (moved) heading.current?.focus();
  }, [moved]);
  const reachable = hasContactNumber(company);
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold leading-tight outline-none">
            {STEP_TITLES.live}
          </h2>
          <CardDescription>
            Lock your quote page&apos;s address, then share the link, print the QR code on your van, or paste the form into your own website.
          </CardDescription>
          {!reachable && (
            <div role="alert" className="mt-2 flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              <TriangleAlert className="size-5 shrink-0" aria-hidden="true" />
              <p className="flex-1">Customers who get a price need a way to reach you: add a phone or WhatsApp number before you go live.</p>
              <Button variant="outline" onClick={toContact}>
                Add a number
              </Button>
            </div>
          )}
          <div className="flex flex-wrap gap-2 pt-2">
            <Button onClick={finish}>Go to your Driver Portal</Button>
            <Button variant="ghost" onClick={back}>
              Back
            </Button>
          </div>
        </CardHeader>
      </Card>
      <CustomUrlCard savedSlug={company.customSlug} hasNumber={reachable} suggestion={suggestedSlug(company.name)} />
      <ShareEmbedCard savedSlug={company.customSlug} hasNumber={reachable} />
    </div>
  );
}
