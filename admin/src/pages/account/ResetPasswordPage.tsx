// The page a reset link opens (/reset-password/{token}): choose a new password, which signs this
// browser in and ends every other session. The token is in the path, which the server's logs redact.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiRequestError, call, portalApi } from '#shared/api-client';
import { newPasswordField, PASSWORD_HINT } from '#shared/account-schemas';
import { errorCodeOf } from '#shared/error-codes';
import { toast } from '../../components/toast';
import { Button, Field, Input } from '../../components/ui';
import { AUTH_QUERY_KEY, homeFor, storeAuthSession, withoutToken } from '../../lib/auth';
import { errorText } from '../dashboard/api';
import { AccountCard } from './AccountCard';

const formSchema = z.object({ password: newPasswordField });
type ResetForm = z.infer<typeof formSchema>;

/** The API's codes for a link that cannot be used (unknown, expired, used). */
const LINK_CODES = new Set(['LINK_INVALID', 'LINK_EXPIRED', 'LINK_USED']);

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetForm>({ resolver: zodResolver(formSchema), defaultValues: { password: '' } });
  const reset = useMutation({
    mutationFn: (values: ResetForm) => call(portalApi['reset-password'].$post, { json: { token, ...values } }),
    onSuccess: (response) => {
      const user = withoutToken(response);
      storeAuthSession(response.authToken, user);
      queryClient.setQueryData(AUTH_QUERY_KEY, user);
      toast({ title: 'Password changed', description: 'You are signed in. Every other session has been signed out.' });
      void navigate(homeFor(user), { replace: true });
    },
    onError: (error) => {
      const field = error instanceof ApiRequestError ? error.fields?.password : undefined;
      if (field) setError('password', { message: field });
    },
  });
  const linkFailed = reset.error instanceof ApiRequestError && LINK_CODES.has(errorCodeOf(reset.error.body) ?? '');

  return (
    <AccountCard title="Choose a new password" description="Choosing a new password signs you out everywhere else.">
      {linkFailed && reset.error ? (
        <>
          <p role="alert" className="text-sm text-red-700">
            {errorText(reset.error)}
          </p>
          <Button asChild>
            <Link to="/auth-page?mode=forgot">Ask for a new link</Link>
          </Button>
        </>
      ) : (
        <form noValidate onSubmit={handleSubmit((values) => reset.mutate(values))} className="grid gap-4">
          <Field label="New password" hint={PASSWORD_HINT} error={errors.password?.message}>
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </Field>
          {reset.isError && !errors.password && (
            <p role="alert" className="text-sm text-red-700">
              {errorText(reset.error)}
            </p>
          )}
          <Button type="submit" size="lg" disabled={reset.isPending}>
            {reset.isPending ? 'Saving...' : 'Save New Password'}
          </Button>
        </form>
      )}
    </AccountCard>
  );
}
