// The signed-in operator, shared by every admin screen through react-query's cache.
// docs/product.md §6/§7: a 401 on the current user's route means "no user", not an error. Login, signup and
// logout are mutations so screens can show their pending labels; their navigation and failure
// toasts (docs/product.md §4, §8) live here so every caller behaves the same.
import { type QueryClient, useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { ApiRequestError, AUTH_TOKEN_KEY, AUTH_USER_KEY, call, pathOf, portalApi } from '#shared/api-client';
import { hasDashboardAccess } from '#shared/subscription';
import type { SignupRequest } from '#shared/account-schemas';
import type { LoginRequest } from '#shared/schemas';
import type { CurrentUser, SignupResponse } from '#shared/types';
import { toast } from '../components/toast';
import { startSetup } from './setup-progress';
import { takeEarlyRead } from '../early-reads';

export const AUTH_QUERY_KEY = [pathOf(portalApi.auth.user)] as const;

/** Responses that sign someone in may carry a token for the x-auth-token header. */
export type WithToken<T> = T & { authToken?: string };

export function storeAuthSession(token: string | null | undefined, user: CurrentUser | null | undefined): void {
  try {
    if (token) localStorage.setItem(AUTH_TOKEN_KEY, token);
    if (user) localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
  } catch {
    // Storage can be disabled (private mode); the session cookie still signs the user in.
  }
}

function clearAuthSession(): void {
  try {
    localStorage.removeItem(AUTH_TOKEN_KEY);
    localStorage.removeItem(AUTH_USER_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** The user saved by the last sign-in on this browser, if any. */
export function readStoredUser(): CurrentUser | null {
  try {
    const raw = localStorage.getItem(AUTH_USER_KEY);
    return raw ? (JSON.parse(raw) as CurrentUser) : null;
  } catch {
    return null;
  }
}

export function fetchCurrentUser(): Promise<CurrentUser | null> {
  return currentUserOf(call(portalApi.auth.user.$get));
}

/** The signed-in user a read of `GET /api/auth/user` answers, or null when it is refused with 401. */
async function currentUserOf(read: Promise<CurrentUser>): Promise<CurrentUser | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) {
      // A token the server no longer accepts (logged out elsewhere, expired) is useless.
      clearAuthSession();
      return null;
    }
    throw error;
  }
}

/**
 * Starts reading the signed-in user as a protected route is matched, beside its page's chunk (and
 * the page's own first read) rather than after them; useAuth then takes this read.
 */
export function prefetchCurrentUser(queryClient: QueryClient): void {
  void queryClient.prefetchQuery({
    queryKey: AUTH_QUERY_KEY,
    queryFn: () => currentUserOf(takeEarlyRead<CurrentUser>('user') ?? call(portalApi.auth.user.$get)),
  });
}

/** Where a freshly signed-in user belongs (docs/product.md §4). */
export const homeForStatus = (status: string | null | undefined): '/dashboard' | '/subscription' =>
  hasDashboardAccess(status) ? '/dashboard' : '/subscription';

/** A driver's own screen: the jobs assigned to them (docs/product.md, "The team"). */
export const MY_JOBS_PATH = '/dashboard/my-jobs';

/** Where a person lands after signing in: a driver on their jobs, everyone else on the portal, or the subscription page when the company's has lapsed. */
export const homeFor = (user: { subscriptionStatus: string | null | undefined; role?: string }): string => {
  const home = homeForStatus(user.subscriptionStatus);
  return home === '/dashboard' && user.role === 'driver' ? MY_JOBS_PATH : home;
};

function messageOf(error: Error): string {
  return error instanceof ApiRequestError ? error.serverMessage : error.message;
}

export function withoutToken<T extends object>(response: WithToken<T>): T {
  const { authToken: _token, ...rest } = response;
  return rest as T;
}

export interface Auth {
  user: CurrentUser | null;
  isLoading: boolean;
  login: UseMutationResult<CurrentUser, Error, LoginRequest>;
  signup: UseMutationResult<SignupResponse, Error, SignupRequest>;
  logout: UseMutationResult<{ success: true }, Error, void>;
  refetch: () => Promise<unknown>;
}

export function useAuth(): Auth {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();

  const userQuery = useQuery({ queryKey: AUTH_QUERY_KEY, queryFn: fetchCurrentUser });

  const login = useMutation({
    mutationFn: (body: LoginRequest): Promise<WithToken<CurrentUser>> => call(portalApi.login.$post, { json: body }),
    onSuccess: (response) => {
      const user = withoutToken(response);
      storeAuthSession(response.authToken, user);
      queryClient.setQueryData(AUTH_QUERY_KEY, user);
      const home = homeFor(user);
      // Back to the page that sent the visitor to sign in (ProtectedRoute), when the account may use it.
      const returnTo: unknown = (location.state as { returnTo?: unknown } | null)?.returnTo;
      void navigate(home === '/dashboard' && typeof returnTo === 'string' && returnTo.startsWith('/') ? returnTo : home, { replace: true });
    },
    onError: (error) => toast({ title: 'Login failed', description: messageOf(error), variant: 'destructive' }),
  });

  const signup = useMutation({
    mutationFn: (body: SignupRequest): Promise<WithToken<SignupResponse>> => call(portalApi.signup.$post, { json: body }),
    onSuccess: (response) => {
      const { checkoutUrl, ...user } = withoutToken(response);
      storeAuthSession(response.authToken, user);
      queryClient.setQueryData(AUTH_QUERY_KEY, user);
      // The first visit to the portal opens the guided set-up (docs/product.md §14).
      startSetup(user.id);
      if (checkoutUrl) window.location.assign(checkoutUrl);
      else void navigate('/dashboard', { replace: true });
    },
    onError: (error) => toast({ title: 'Registration failed', description: messageOf(error), variant: 'destructive' }),
  });

  const logout = useMutation({
    mutationFn: () => call(portalApi.logout.$post),
    onSuccess: () => {
      clearAuthSession();
      // A full load of / rather than a client-side navigation: clearing the cached user while a
      // protected page is still mounted would let its guard redirect to /auth-page first (a race
      // seen in the journeys), and the next operator on this browser starts with nothing cached.
      window.location.replace('/');
    },
    onError: (error) => toast({ title: 'Logout failed', description: messageOf(error), variant: 'destructive' }),
  });

  return {
    user: userQuery.data ?? null,
    isLoading: userQuery.isLoading,
    login,
    signup,
    logout,
    refetch: userQuery.refetch,
  };
}
