// The Driver Portal's settings: four tabs (docs/product.md §2), default Pricing, plus the preview button;
// then the Quotes tab (decision 016), opened by `?tab=quotes` or a `quote` link too, and by the
// return from connecting a payment account (`?payments=…`: its Payments section is there).
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Building2, Calculator, Eye, Inbox, Palette, Phone, Receipt, ScrollText, TriangleAlert, Users } from 'lucide-react';
import type { Role } from '#shared/roles';
import { toast } from '../../components/toast';
import { Button, Spinner, Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui';
import { useCompany } from './api';
import { BrandingTab } from './BrandingTab';
import { ChargesTab } from './ChargesTab';
import { ContactTab } from './ContactTab';
import { PricingTab } from './PricingTab';
import { useBrandingEditor, type BrandingEditor } from './useBrandingEditor';
import { SetupBar } from '../setup/SetupBar';
import { OpenTabProvider } from './go-to-field';

// Its own chunk, with recharts: loaded when the tab first opens, not with the portal.
const QuotesTab = lazy(() => import('./quotes/QuotesTab'));
// The owner's team and audit log (docs/product.md, "The team"): chunks of their own, loaded when opened.
const TeamTab = lazy(() => import('./team/TeamTab'));
const AuditTab = lazy(() => import('./team/AuditTab'));
// Trade accounts (docs/product.md §26): its own chunk, loaded when the tab first opens.
const AccountsTab = lazy(() => import('./accounts/AccountsTab'));

export const previewPath = (customSlug: string | null | undefined): string => (customSlug ? `/company/${encodeURIComponent(customSlug)}` : '/preview');

/**
 * Saves the Branding form, then shows the customer page in a new tab. The tab is opened before
 * the save because browsers only allow pop-ups during the click itself, not after an await.
 */
export async function openPreview(editor: Pick<BrandingEditor, 'save'>, customSlug: string | null | undefined): Promise<'opened' | 'blocked'> {
  const tab = window.open('', '_blank');
  if (tab) tab.opener = null;
  const saved = await editor.save({ quiet: true });
  if (!tab) {
    toast({ title: 'Pop-up blocked', description: 'Please allow pop-ups for this site and try again', variant: 'destructive' });
    return 'blocked';
  }
  tab.location.href = previewPath(customSlug);
  if (!saved) {
    toast({ title: 'Changes not saved', description: 'Preview opened, but recent changes may not be visible', variant: 'destructive' });
  }
  return 'opened';
}

function CompanyTab({ loading, failed, children }: { loading: boolean; failed: boolean; children: () => ReactNode }) {
  if (loading) return <Spinner label="Loading your settings" />;
  if (failed) return <p className="text-red-700">Unable to load your company settings. Please reload the page.</p>;
  return <>{children()}</>;
}

const TAB_CONTENT = 'data-[state=inactive]:hidden';

/**
 * `userId`: the signed-in operator, whose set-up progress the checklist bar above the tabs resumes.
 * `role`: what they may do (docs/product.md, "The team"): the company's settings, its team and
 * its audit log are the owner's; a dispatcher sees the Quotes tab (with the jobs) only.
 */
/** The owner's tabs, as `?tab=` names them. */
const OWNER_TABS = ['pricing', 'charges', 'branding', 'contact', 'quotes', 'accounts', 'team', 'audit'] as const;

export function DriverPortal({ userId, role = 'owner' }: { userId?: number; role?: Role }) {
  const owner = role === 'owner';
  const company = useCompany();
  const editor = useBrandingEditor(company.data);
  const [popupBlocked, setPopupBlocked] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const firstTab: string = !owner
    ? 'quotes'
    : asked !== null && (OWNER_TABS as readonly string[]).includes(asked)
      ? asked
      : params.has('quote') || params.has('payments')
        ? 'quotes'
        : 'pricing';
  const [tab, setTab] = useState<string>(firstTab);
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set([firstTab]));
  const quotesOpened = opened.has('quotes');
  // The open tab is in the address (?tab=…), so a reload or a shared link opens the same one.
  const openTab = (next: string) => {
    setTab(next);
    setOpened((before) => new Set(before).add(next));
    setParams(
      (before) => {
        const after = new URLSearchParams(before);
        after.set('tab', next);
        return after;
      },
      { replace: true },
    );
  };

  const preview = async () => {
    setPreviewing(true);
    const result = await openPreview(editor, company.data?.customSlug);
    setPopupBlocked(result === 'blocked');
    setPreviewing(false);
  };

  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <title>Driver Portal</title>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight">
          Driver Portal<span className="sr-only"> - </span>
          <span className="mt-1 block text-base font-normal text-slate-600">Manage your towing service settings and rates</span>
        </h1>
        <div className={owner ? 'grid justify-items-end gap-2' : 'hidden'}>
          <Button onClick={() => void preview()} disabled={previewing || company.isLoading}>
            <Eye aria-hidden="true" /> Preview Quote Screen
          </Button>
          {popupBlocked && (
            <p role="alert" className="flex items-center gap-1.5 text-sm text-amber-900">
              <TriangleAlert className="size-4" aria-hidden="true" /> Allow pop-ups to view preview
            </p>
          )}
        </div>
      </div>

      {/* The setup checklist and the way back into the guided set-up, whichever tab is open. */}
      {owner && userId !== undefined && <SetupBar userId={userId} />}

      {/* Every tab stays mounted so unsaved edits survive switching tabs. */}
      {/* A reason on one tab can link to the field on another that fixes it (go-to-field.tsx). */}
      <OpenTabProvider value={openTab}>
        <Tabs value={tab} onValueChange={openTab} className="mt-8">
          <TabsList aria-label="Settings">
            {owner && (
              <>
                <TabsTrigger value="pricing">
                  <Calculator aria-hidden="true" /> Pricing & Rates
                </TabsTrigger>
                <TabsTrigger value="charges">
                  <Receipt aria-hidden="true" /> Custom Charges
                </TabsTrigger>
                <TabsTrigger value="branding">
                  <Palette aria-hidden="true" /> Branding
                </TabsTrigger>
                <TabsTrigger value="contact">
                  <Phone aria-hidden="true" /> Contact Info
                </TabsTrigger>
              </>
            )}
            <TabsTrigger value="quotes">
              <Inbox aria-hidden="true" /> Quotes
            </TabsTrigger>
            {owner && (
              <>
                <TabsTrigger value="accounts">
                  <Building2 aria-hidden="true" /> Accounts
                </TabsTrigger>
                <TabsTrigger value="team">
                  <Users aria-hidden="true" /> Team
                </TabsTrigger>
                <TabsTrigger value="audit">
                  <ScrollText aria-hidden="true" /> Audit log
                </TabsTrigger>
              </>
            )}
          </TabsList>
          {owner && (
            <>
              <TabsContent value="pricing" forceMount className={TAB_CONTENT}>
                <PricingTab />
              </TabsContent>
              <TabsContent value="charges" forceMount className={TAB_CONTENT}>
                <ChargesTab />
              </TabsContent>
              <TabsContent value="branding" forceMount className={TAB_CONTENT}>
                <CompanyTab loading={company.isLoading} failed={company.isError}>
                  {() => company.data && <BrandingTab editor={editor} company={company.data} />}
                </CompanyTab>
              </TabsContent>
              <TabsContent value="contact" forceMount className={TAB_CONTENT}>
                <CompanyTab loading={company.isLoading} failed={company.isError}>
                  {() => company.data && <ContactTab company={company.data} />}
                </CompanyTab>
              </TabsContent>
            </>
          )}
          {/* Rendered from its first opening (which loads it), then kept like the others. */}
          <TabsContent value="quotes" forceMount className={TAB_CONTENT}>
            {quotesOpened && (
              <Suspense fallback={<Spinner label="Loading your quotes" />}>
                <QuotesTab />
              </Suspense>
            )}
          </TabsContent>
          {owner && (
            <>
              <TabsContent value="accounts" forceMount className={TAB_CONTENT}>
                {opened.has('accounts') && (
                  <Suspense fallback={<Spinner label="Loading your accounts" />}>
                    <AccountsTab />
                  </Suspense>
                )}
              </TabsContent>
              <TabsContent value="team" forceMount className={TAB_CONTENT}>
                {opened.has('team') && (
                  <Suspense fallback={<Spinner label="Loading your team" />}>
                    <TeamTab />
                  </Suspense>
                )}
              </TabsContent>
              <TabsContent value="audit" forceMount className={TAB_CONTENT}>
                {opened.has('audit') && (
                  <Suspense fallback={<Spinner label="Loading the audit log" />}>
                    <AuditTab />
                  </Suspense>
                )}
              </TabsContent>
            </>
          )}
        </Tabs>
      </OpenTabProvider>
    </main>
  );
}
