// The signed-in operator's frame: 'Driver Portal', who is signed in, and the account menu
// (docs/product.md §2 Driver Portal).
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { DropdownMenu } from 'radix-ui';
import { CreditCard, KeyRound, LayoutGrid, LifeBuoy, ListChecks, LogOut, Menu, PhoneCall, Truck } from 'lucide-react';
import { useAuth } from '../lib/auth';
import { UnsavedChangesProvider, useConfirmLeave } from '../lib/unsaved';
import { Button } from './ui';
import { VerifyEmailBanner } from './VerifyEmailBanner';
import { PausedPageNotice } from './PausedPageNotice';
import { NewBookingBanner } from '../pages/dashboard/board/NewBookingBanner';

// Its form, the password rule and their validation library are fetched when the menu's "Change
// Password" is chosen, not with every portal page (docs/budgets.md "Dispatch").
const ChangePasswordDialog = lazy(() => import('./ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })));

const ITEM =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 [&_svg]:size-4';

export function PortalShell({ children }: { children: ReactNode }) {
  return (
    <UnsavedChangesProvider>
      <Shell>{children}</Shell>
    </UnsavedChangesProvider>
  );
}

/** Where this browser remembers that an operator has been to the portal before. */
const SEEN_KEY = (userId: number) => `portal_seen_${userId}`;

/** 'Welcome, {email}' on an operator's first visit in this browser, 'Welcome back, {email}' after. */
function Greeting({ userId, email }: { userId: number; email: string }) {
  // Read once: the first visit keeps its greeting until the operator comes back.
  const [returning] = useState(() => readSeen(userId));
  useEffect(() => {
    try {
      localStorage.setItem(SEEN_KEY(userId), '1');
    } catch {
      // Storage may be off (private mode): the greeting is all that depends on it.
    }
  }, [userId]);
  return (
    <span className="block truncate text-sm text-slate-600">
      {returning ? 'Welcome back' : 'Welcome'}, {email}
    </span>
  );
}

function readSeen(userId: number): boolean {
  try {
    return localStorage.getItem(SEEN_KEY(userId)) !== null;
  } catch {
    return true;
  }
}

function Shell({ children }: { children: ReactNode }) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  // Leaving the portal with an unsaved tab asks first (admin/src/lib/unsaved.tsx).
  const confirmLeave = useConfirmLeave();
  const leaveTo = (path: string) => confirmLeave() && void navigate(path);
  const [changingPassword, setChangingPassword] = useState(false);
  // The subscription page says it beside its Subscribe button instead.
  const onSubscription = useLocation().pathname.toLowerCase().startsWith('/subscription');
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <Link to="/dashboard" className="flex min-w-0 items-center gap-3">
            <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-brand-600 text-white">
              <Truck className="size-5" aria-hidden="true" />
            </span>
            <span className="min-w-0">
              <span className="block font-bold leading-tight">Driver Portal</span>
              {user && <Greeting userId={user.id} email={user.email} />}
            </span>
          </Link>
          <div className="flex shrink-0 items-center gap-2">
            {/* A caller on the line: New quote is one tap from every screen of the portal (docs/product.md §25). */}
            {user?.role !== 'driver' && (
              <Button asChild>
                <Link to="/dashboard/new-quote" onClick={(event) => !confirmLeave() && event.preventDefault()}>
                  <PhoneCall aria-hidden="true" /> New quote
                </Link>
              </Button>
            )}
            <DropdownMenu.Root>
              <DropdownMenu.Trigger asChild>
                <Button variant="outline" aria-label="Account menu">
                  <Menu aria-hidden="true" />
                  <span className="hidden sm:inline">Menu</span>
                </Button>
              </DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
                  {(user?.role === 'owner' || user?.role === 'dispatcher') && (
                    <DropdownMenu.Item className={ITEM} onSelect={() => leaveTo('/dashboard/board')}>
                      <LayoutGrid aria-hidden="true" /> Dispatch board
                    </DropdownMenu.Item>
                  )}
                  <DropdownMenu.Item className={ITEM} onSelect={() => leaveTo('/dashboard/my-jobs')}>
                    <ListChecks aria-hidden="true" /> My jobs
                  </DropdownMenu.Item>
                  {/* Billing is the owner's (docs/product.md, "The team"). */}
                  {user?.role === 'owner' && (
                    <DropdownMenu.Item className={ITEM} onSelect={() => leaveTo('/subscription')}>
                      <CreditCard aria-hidden="true" /> Manage Subscription
                    </DropdownMenu.Item>
                  )}
                  <DropdownMenu.Item className={ITEM} onSelect={() => leaveTo('/contact')}>
                    <LifeBuoy aria-hidden="true" /> Contact & Support
                  </DropdownMenu.Item>
                  <DropdownMenu.Item className={ITEM} onSelect={() => setChangingPassword(true)}>
                    <KeyRound aria-hidden="true" /> Change Password
                  </DropdownMenu.Item>
                  <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
                  <DropdownMenu.Item className={ITEM} disabled={logout.isPending} onSelect={() => confirmLeave() && logout.mutate()}>
                    <LogOut aria-hidden="true" /> Sign Out
                  </DropdownMenu.Item>
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </div>
        </div>
      </header>
      <NewBookingBanner />
      <VerifyEmailBanner />
      {!onSubscription && <PausedPageNotice variant="banner" />}
      {changingPassword && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open onOpenChange={setChangingPassword} />
        </Suspense>
      )}
      {children}
    </div>
  );
}
