// Sign in / create account (docs/product.md §2 Auth page). The mode lives in the query string
// (?mode=signin|signup) so the landing page's buttons and the browser's back button agree.
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ArrowLeft, Calculator, Palette, Truck } from 'lucide-react';
import {
  forgotPasswordSchema,
  PASSWORD_HINT,
  signupSchema,
  type ForgotPasswordRequest,
  type SignInLinkRequest,
  type SignupRequest,
} from '#shared/account-schemas';
import { ApiRequestError, call, portalApi } from '#shared/api-client';
import { useMutation } from '@tanstack/react-query';
import { loginSchema, type LoginRequest } from '#shared/schemas';
import { BrandMark } from '../components/BrandMark';
import { Button, Card, CardContent, CardDescription, CardHeader, Field, FullPageSpinner, Input } from '../components/ui';
import { useAuth, type Auth } from '../lib/auth';
import { onPublicOrigin, PUBLIC_URL } from '../lib/public-origin';

/**
 * One email field that asks the server to mail the account a link (a password reset, or a
 * sign-in link that works whatever the sign-in slowing says), then shows what the server answered:
 * the same words whether or not the account exists.
 */
function EmailLinkForm({ send, submitLabel }: { send: (body: ForgotPasswordRequest) => Promise<{ message: string }>; submitLabel: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotPasswordRequest>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const request = useMutation({ mutationFn: send });
  if (request.isSuccess) {
    return (
      <p role="status" className="rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-900">
        {request.data.message}
      </p>
    );
  }
  return (
    <form noValidate onSubmit={handleSubmit((values) => request.mutate(values))} className="grid gap-4">
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...register('email')} />
      </Field>
      {request.isError && (
        <p role="alert" className="text-sm text-red-700">
          {request.error instanceof ApiRequestError ? request.error.serverMessage : request.error.message}
        </p>
      )}
      <Button type="submit" size="lg" disabled={request.isPending}>
        {request.isPending ? 'Sending...' : submitLabel}
      </Button>
    </form>
  );
}

const ForgotPasswordForm = () => <EmailLinkForm send={(body) => call(portalApi['forgot-password'].$post, { json: body })} submitLabel="Send Reset Link" />;

/** "Email me a sign-in link": signs in without the password, whatever the sign-in slowing says (the same email rule as the reset's). */
const SignInLinkForm = () => (
  <EmailLinkForm send={(body: SignInLinkRequest) => call(portalApi['sign-in-link'].$post, { json: body })} submitLabel="Email Me a Sign-in Link" />
);

function SignInForm({ login }: { login: Auth['login'] }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginRequest>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  return (
    <form noValidate onSubmit={handleSubmit((values) => login.mutate(values))} className="grid gap-4">
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...register('email')} />
      </Field>
      <Field label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...register('password')} />
      </Field>
      <div className="-mt-2 flex flex-wrap justify-between gap-2 text-sm font-medium">
        <Link to="/auth-page?mode=link" replace className="text-brand-700 underline-offset-4 hover:underline">
          Email me a sign-in link
        </Link>
        <Link to="/auth-page?mode=forgot" replace className="text-brand-700 underline-offset-4 hover:underline">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" size="lg" disabled={login.isPending}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}

function SignUpForm({ signup }: { signup: Auth['signup'] }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupRequest>({
    resolver: zodResolver(signupSchema),
    defaultValues: { name: '', companyName: '', email: '', password: '' },
  });
  return (
    <form noValidate onSubmit={handleSubmit((values) => signup.mutate(values))} className="grid gap-4">
      <Field label="Full Name" error={errors.name?.message}>
        <Input autoComplete="name" {...register('name')} />
      </Field>
      <Field label="Company Name" error={errors.companyName?.message}>
        <Input autoComplete="organization" {...register('companyName')} />
      </Field>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...register('email')} />
      </Field>
      <Field label="Password" error={errors.password?.message} hint={PASSWORD_HINT}>
        <Input type="password" autoComplete="new-password" {...register('password')} />
      </Field>
      <Button type="submit" size="lg" disabled={signup.isPending}>
        {signup.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}

const SELLING_POINTS = [
  { icon: Palette, title: 'Custom Branding', text: 'Your logo, colours and wording on a quote page customers trust.' },
  { icon: Calculator, title: 'Smart Pricing', text: 'Distance, labour, after-hours and per-vehicle charges worked out instantly.' },
];

export default function AuthPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const { user, isLoading, login, signup } = useAuth();
  const mode = searchParams.get('mode');
  const isSignUp = mode === 'signup';
  const isForgot = mode === 'forgot';
  const isLink = mode === 'link';

  // Signing in on another host than the public one would lose the session at checkout's return.
  const publicPage = onPublicOrigin(PUBLIC_URL, window.location.href);
  useEffect(() => {
    if (publicPage) window.location.replace(publicPage);
  }, [publicPage]);

  // Once a sign-in succeeds, the mutation routes by status; don't race it with this redirect.
  const settling = login.isPending || login.isSuccess || signup.isPending || signup.isSuccess;
  if (publicPage) {
    return (
      <main className="mx-auto grid max-w-md gap-3 px-4 py-16 text-center">
        <p role="status">Taking you to {new URL(publicPage).origin}, where your account lives, so you stay signed in after payment…</p>
        <a className="font-medium text-brand-700 underline" href={publicPage}>
          Continue
        </a>
      </main>
    );
  }
  if (isLoading) return <FullPageSpinner />;
  if (user && !settling) return <Navigate to="/dashboard" replace />;

  const title = isSignUp ? 'Create Account' : isForgot ? 'Reset Password' : isLink ? 'Sign In with a Link' : 'Sign In';
  return (
    <div className="grid min-h-screen lg:grid-cols-2">
      <title>{title}</title>
      <main className="flex flex-col px-4 py-6 sm:px-8">
        <div>
          {/* docs/product.md §2: a 'Back to Home' button. */}
          <Button variant="ghost" className="-ml-2" onClick={() => void navigate('/')}>
            <ArrowLeft aria-hidden="true" /> Back to Home
          </Button>
        </div>
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-8">
          <div className="mb-6 lg:hidden">
            <BrandMark />
          </div>
          <Card>
            <CardHeader>
              <h1 className="text-2xl font-semibold leading-tight">{title}</h1>
              <CardDescription>
                {isSignUp
                  ? 'Start your free trial and have your quote page live in minutes.'
                  : isForgot
                    ? 'Enter the email you signed up with and we will send you a link to choose a new password.'
                    : isLink
                      ? 'Enter the email you signed up with and we will send you a link that signs you in without your password.'
                      : 'Welcome back. Sign in to manage your quote page.'}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              {/* Keyed so switching mode starts with a clean form and no stale errors. */}
              {isSignUp ? (
                <SignUpForm key="signup" signup={signup} />
              ) : isForgot ? (
                <ForgotPasswordForm key="forgot" />
              ) : isLink ? (
                <SignInLinkForm key="link" />
              ) : (
                <SignInForm key="signin" login={login} />
              )}
              <Button
                variant="ghost"
                className="text-brand-700"
                onClick={() => setSearchParams({ mode: isSignUp || isForgot || isLink ? 'signin' : 'signup' }, { replace: true })}
              >
                {isSignUp || isForgot || isLink ? 'Already have an account? Sign in' : "Don't have an account? Sign up"}
              </Button>
            </CardContent>
          </Card>
        </div>
      </main>
      <aside className="hidden flex-col justify-center bg-gradient-to-br from-brand-800 to-brand-700 p-12 text-white lg:flex">
        <BrandMark inverted />
        <h2 className="mt-10 flex items-center gap-3 text-3xl font-bold">
          <Truck className="size-8" aria-hidden="true" /> Professional Towing Business Platform
        </h2>
        <p className="mt-4 max-w-md text-blue-100">
          Give customers an instant, accurate recovery price under your own brand, and take the job on WhatsApp or by phone.
        </p>
        <ul className="mt-10 grid gap-6">
          {SELLING_POINTS.map(({ icon: Icon, title: pointTitle, text }) => (
            <li key={pointTitle} className="flex gap-4">
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-white/15">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold">{pointTitle}</h3>
                <p className="text-sm text-blue-100">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
