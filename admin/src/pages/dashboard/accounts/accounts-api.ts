// Trade accounts' reads and writes in the portal (api/contract/accounts.ts), through the typed
// client: the accounts, the month's invoices, a payment, the statement and the Xero sync.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountCreate } from '#shared/accounts';
import { call, pathOf, portalApi } from '#shared/api-client';

const ACCOUNTS_KEY = [pathOf(portalApi.accounts)] as const;
const INVOICES_KEY = [pathOf(portalApi['account-invoices'])] as const;

export const useAccounts = () => useQuery({ queryKey: ACCOUNTS_KEY, queryFn: () => call(portalApi.accounts.$get) });
export const useAccountInvoices = () => useQuery({ queryKey: INVOICES_KEY, queryFn: () => call(portalApi['account-invoices'].$get) });

export const statementPdfHref = (id: number) => pathOf(portalApi.accounts[':id'].statement.pdf, { param: { id: String(id) } });
export const invoicePdfHref = (id: number, number: string) => pathOf(portalApi.accounts[':id'].invoices[':number'].pdf, { param: { id: String(id), number } });
export const exportHref = (format: 'xero' | 'quickbooks', kind: 'invoices' | 'payments') => `${pathOf(portalApi.books.export)}?format=${format}&kind=${kind}`;

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    void queryClient.invalidateQueries({ queryKey: INVOICES_KEY });
  };
}

export function useCreateAccount() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: AccountCreate) => call(portalApi.accounts.$post, { json: body }), onSuccess: refresh });
}

export function useRunInvoices() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (month: string) => call(portalApi['account-invoices'].run.$post, { json: { month } }), onSuccess: refresh });
}

export function useMarkPaid() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, number, amount }: { id: number; number: string; amount: number }) =>
      call(portalApi.accounts[':id'].invoices[':number'].payments.$post, { param: { id: String(id), number }, json: { amount } }),
    onSuccess: refresh,
  });
}

export const useXeroSync = () => useMutation({ mutationFn: () => call(portalApi.books['xero-sync'].$post) });

const XERO_KEY = [pathOf(portalApi.books.xero)] as const;

/** The company's Xero connection: set up on the server, connected, and the last sync's failure. */
export const useXeroStatus = () => useQuery({ queryKey: XERO_KEY, queryFn: () => call(portalApi.books.xero.$get) });

/** Starts connecting: the browser goes to Xero's consent page, which sends it back to the callback. */
export const useXeroConnect = () =>
  useMutation({
    mutationFn: () => call(portalApi.books.xero.connect.$post, { json: {} }),
    onSuccess: ({ url }) => window.location.assign(url),
  });

export function useXeroDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(portalApi.books.xero.$delete),
    onSuccess: (status) => queryClient.setQueryData(XERO_KEY, status),
  });
}

/** A sync changes the last sync's time and failure: read them again either way. */
export function useXeroSyncAndStatus() {
  const queryClient = useQueryClient();
  const sync = useXeroSync();
  return {
    ...sync,
    mutate: (...args: Parameters<typeof sync.mutate>) =>
      sync.mutate(args[0], {
        ...args[1],
        onSettled: (...settled) => {
          void queryClient.invalidateQueries({ queryKey: XERO_KEY });
          args[1]?.onSettled?.(...settled);
        },
      }),
  };
}
