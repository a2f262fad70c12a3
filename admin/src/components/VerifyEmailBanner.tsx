// Until the operator opens the link mailed at sign-up, the portal says so at the top, with
// "Resend": no quote alert or summary is sent until the address is verified.
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MailWarning } from 'lucide-react';
import { ApiRequestError, call, portalApi } from '#shared/api-client';
import { useAuth } from '../lib/auth';
import { Button } from './ui';

export function VerifyEmailBanner() {
  const { user, refetch } = useAuth();
  const resend = useMutation({ mutationFn: () => call(portalApi['email-verification'].$post) });
  const waiting = !!user && !user.emailVerified;
  // The link is often opened in another tab (from the mail): back here, the account is read again,
  // so the banner goes once the address is verified rather than at the next full load.
  useEffect(() => {
    if (!waiting) return;
    const readAgain = () => {
      if (document.visibilityState === 'visible') void refetch();
    };
    window.addEventListener('focus', readAgain);
    document.addEventListener('visibilitychange', readAgain);
    return () => {
      window.removeEventListener('focus', readAgain);
      document.removeEventListener('visibilitychange', readAgain);
    };
  }, [waiting, refetch]);
  if (!user || user.emailVerified) return null;
  return (
    <section aria-label="Verify your email address" className="border-b border-amber-200 bg-amber-50">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm text-amber-950 sm:px-6">
        <p className="flex items-start gap-2">
          <MailWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Please verify your email address, <strong className="break-all">{user.email}</strong>, with the link we sent you. Until you do, no quote alerts or
            summaries are sent.
          </span>
        </p>
        <div className="flex items-center gap-3">
          <span role="status" className="text-amber-950">
            {resend.isSuccess
              ? `A new link is on its way to ${resend.data.email}.`
              : resend.isError
                ? resend.error instanceof ApiRequestError
                  ? resend.error.serverMessage
                  : resend.error.message
                : ''}
          </span>
          <Button variant="outline" size="sm" disabled={resend.isPending} onClick={() => resend.mutate()}>
            {resend.isPending ? 'Sending...' : 'Resend'}
          </Button>
        </div>
      </div>
    </section>
  );
}
