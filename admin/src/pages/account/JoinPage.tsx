// The page an invitation link opens (/join/{token}, docs/product.md, "The team"): it says which
// company and role the link is for, then the invitee chooses their name and password, which
// joins the company and signs this browser in. The token is in the path, which the server's logs redact.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { TriangleAlert } from 'lucide-react';
import { ApiRequestError, call, portalApi } from '#shared/api-client';
import { newPasswordField, PASSWORD_HINT } from '#shared/account-schemas';
import { ROLE_WORDS } from '#shared/roles';
import { nameText } from '#shared/schemas';
import { toast } from '../../components/toast';
import { Button, Field, Input, Spinner } from '../../components/ui';
import { AUTH_QUERY_KEY, homeFor, storeAuthSession, withoutToken } from '../../lib/auth';
import { errorText } from '../dashboard/api';
import { AccountCard } from './AccountCard';

const formSchema = z.object({ name: nameText('Name is required', 100), password: newPasswordField });
type JoinForm = z.infer<typeof formSchema>;

function LinkFailed({ error }: { error: Error }) {
  return (
    <AccountCard title="This invitation did not work">
      <p className="flex items-start gap-2" role="alert">
        <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
        <span>{errorText(error)}</span>
      </p>
      <Button asChild>
        <Link to="/auth-page?mode=signin">Go to sign in</Link>
      </Button>
    </AccountCard>
  );
}

export default function JoinPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => call(portalApi.invitations.lookup.$post, { json: { token } }),
    retry: false,
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<JoinForm>({ resolver: zodResolver(formSchema), defaultValues: { name: '', password: '' } });
  const join = useMutation({
    mutationFn: (values: JoinForm) => call(portalApi.invitations.accept.$post, { json: { token, ...values } }),
    onSuccess: (response) => {
      const user = withoutToken(response);
      storeAuthSession(response.authToken, user);
      void queryClient.cancelQueries().then(() => {
        queryClient.setQueryData(AUTH_QUERY_KEY, user);
        toast({ title: 'Welcome to the team', description: 'You are signed in.' });
        void navigate(homeFor(user), { replace: true });
      });
    },
    onError: (error) => {
      const fields = error instanceof ApiRequestError ? error.fields : undefined;
      if (fields?.name) setError('name', { message: fields.name });
      if (fields?.password) setError('password', { message: fields.password });
    },
  });

  if (invitation.isLoading) {
    return (
      <AccountCard title="Opening your invitation">
        <Spinner label="Opening your invitation" />
      </AccountCard>
    );
  }
  if (invitation.isError) return <LinkFailed error={invitation.error} />;
  const gone = join.error instanceof ApiRequestError && [404, 409, 410].includes(join.error.status);
  if (gone && join.error) return <LinkFailed error={join.error} />;
  const preview = invitation.data;
  return (
    <AccountCard
      title={preview ? `Join ${preview.companyName}` : 'Join the team'}
      description={preview ? `You are invited as ${ROLE_WORDS[preview.role]}, with the address ${preview.email}.` : undefined}
    >
      <form noValidate onSubmit={handleSubmit((values) => join.mutate(values))} className="grid gap-4">
        <Field label="Your name" error={errors.name?.message}>
          <Input autoComplete="name" {...register('name')} />
        </Field>
        <Field label="Choose a password" hint={PASSWORD_HINT} error={errors.password?.message}>
          <Input type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        {join.isError && !errors.password && !errors.name && (
          <p role="alert" className="text-sm text-red-700">
            {errorText(join.error)}
          </p>
        )}
        <Button type="submit" size="lg" disabled={join.isPending}>
          {join.isPending ? 'Joining...' : 'Join and sign in'}
        </Button>
      </form>
    </AccountCard>
  );
}
