// The page a sign-in link opens (/sign-in/{token}): it sends the token to the API once, which signs
// this browser in whatever the sign-in slowing says, and goes on to the portal. The token is in the
// path, which the server's logs redact.
import { useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { TriangleAlert } from 'lucide-react';
import { call, portalApi } from '#shared/api-client';
import { Button, Spinner } from '../../components/ui';
import { AUTH_QUERY_KEY, homeFor, storeAuthSession, withoutToken } from '../../lib/auth';
import { errorText } from '../dashboard/api';
import { AccountCard } from './AccountCard';

export default function SignInLinkPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useMutation({
    mutationFn: () => call(portalApi['sign-in-with-link'].$post, { json: { token } }),
    onSuccess: (response) => {
      const user = withoutToken(response);
      storeAuthSession(response.authToken, user);
      // Anything read before (as nobody, or as someone else) is stale now.
      void queryClient.cancelQueries().then(() => {
        queryClient.setQueryData(AUTH_QUERY_KEY, user);
        void navigate(homeFor(user), { replace: true });
      });
    },
  });
  // Once, even when React runs effects twice in development: the link works once.
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    signIn.mutate();
  }, [signIn]);

  if (signIn.isError) {
    return (
      <AccountCard title="This link did not work">
        <p className="flex items-start gap-2" role="alert">
          <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
          <span>{errorText(signIn.error)}</span>
        </p>
        <Button asChild>
          <Link to="/auth-page?mode=link">Ask for a new link</Link>
        </Button>
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Signing you in">
      <Spinner label="Signing you in" />
    </AccountCard>
  );
}
