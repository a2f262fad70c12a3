// The Payments section's reads and writes (api/contract/payments.ts), through the typed client:
// the account's state and the rule, the rule saved, and where the browser goes to connect.
// Query keys are the API paths, as in ../api.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { PaymentRuleUpdate } from '#shared/payment-schemas';

export const PAYMENTS_KEY = [pathOf(portalApi.payments)] as const;

export const usePaymentSettings = () => useQuery({ queryKey: PAYMENTS_KEY, queryFn: () => call(portalApi.payments.$get) });

export function useSavePaymentRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: PaymentRuleUpdate) => call(portalApi.payments.rule.$put, { json: rule }),
    onSuccess: (settings) => queryClient.setQueryData(PAYMENTS_KEY, settings),
  });
}

/** The account's state read from the provider now: on the return from its onboarding. */
export function useSyncPayments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(portalApi.payments.sync.$post),
    onSuccess: (settings) => queryClient.setQueryData(PAYMENTS_KEY, settings),
  });
}

/** Asks the server where to connect (Stripe's onboarding, or the local connect page) and goes there. */
export function useConnectPayments(go: (url: string) => void) {
  return useMutation({
    mutationFn: () => call(portalApi.payments.connect.$post),
    onSuccess: ({ url }) => go(url),
  });
}
