// The page a verification link opens (/verify-email/{token}): it sends the token to the API once
// and says what became of it. The token is in the path, which the server's logs redact.
import { useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CheckCircle2, TriangleAlert } from 'lucide-react';
import { call, portalApi } from '#shared/api-client';
import { Button, Spinner } from '../../components/ui';
import { useAuth } from '../../lib/auth';
import { errorText } from '../dashboard/api';
import { AccountCard } from './AccountCard';

export default function VerifyEmailPage() {
  const { token = '' } = useParams();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: () => call(portalApi['verify-email'].$post, { json: { token } }),
    // The banner and the alert settings read these. A read still in flight (the signed-in user,
    // asked for as this page opened) may hold the answer from before the verification, and
    // invalidating would only wait for it: cancel it, then read everything again.
    onSuccess: () => void queryClient.cancelQueries().then(() => queryClient.invalidateQueries()),
  });
  // Once, even when React runs effects twice in development.
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    verify.mutate();
  }, [verify]);

  const next = user ? { to: '/dashboard', label: 'Go to Driver Portal' } : { to: '/auth-page?mode=signin', label: 'Sign In' };
  if (verify.isSuccess) {
    const { email, accountVerified } = verify.data;
    return (
      <AccountCard title="Email address verified">
        <p className="flex items-start gap-2" role="status">
          <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden="true" />
          <span>
            Thank you: <strong className="break-all">{email}</strong> is verified.{' '}
            {accountVerified
              ? 'Quote alerts and summaries can now be sent to your verified addresses.'
              : 'Alerts start once your account’s own address is verified too.'}
          </span>
        </p>
        <Button asChild>
          <Link to={next.to}>{next.label}</Link>
        </Button>
      </AccountCard>
    );
  }
  if (verify.isError) {
    return (
      <AccountCard title="This link did not work">
        <p className="flex items-start gap-2" role="alert">
          <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
          <span>{errorText(verify.error)}</span>
        </p>
        <p className="text-sm text-slate-700">You can ask for a new link from the banner at the top of the Driver Portal.</p>
        <Button asChild>
          <Link to={next.to}>{next.label}</Link>
        </Button>
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Verifying your email address">
      <Spinner label="Verifying your email address" />
    </AccountCard>
  );
}
