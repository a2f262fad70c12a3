// The receipts' reads and writes in the portal (api/contract/documents.ts), through the typed
// client: a job's documents, the full VAT invoice on request, and the invoice details.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { DocumentSummary, InvoiceSettingsUpdate } from '#shared/documents';

const INVOICE_SETTINGS_KEY = [pathOf(portalApi['invoice-settings'])] as const;
const documentsKey = (reference: string) => [pathOf(portalApi.bookings[':reference'].documents, { param: { reference } })] as const;

/** A document's download; a delivery note, which has no number, is the job's receipt download (docs/product.md §26). */
export const documentHref = (reference: string, d: Pick<DocumentSummary, 'kind' | 'number'>) =>
  d.kind === 'delivery_note'
    ? pathOf(portalApi.bookings[':reference'].receipt, { param: { reference } })
    : pathOf(portalApi.bookings[':reference'].documents[':number'], { param: { reference, number: d.number } });

/** A completed job's documents; read again when a refund changes what was paid. */
export const useJobDocuments = (reference: string, refunded: number) =>
  useQuery({
    queryKey: [...documentsKey(reference), refunded],
    queryFn: () => call(portalApi.bookings[':reference'].documents.$get, { param: { reference } }),
    refetchInterval: (query) => (query.state.data?.length === 0 ? 5_000 : false),
  });

export function useFullInvoice(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (customerAddress: string) => call(portalApi.bookings[':reference']['full-invoice'].$post, { param: { reference }, json: { customerAddress } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: documentsKey(reference) }),
  });
}

export const useInvoiceSettings = () => useQuery({ queryKey: INVOICE_SETTINGS_KEY, queryFn: () => call(portalApi['invoice-settings'].$get) });

export function useSaveInvoiceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvoiceSettingsUpdate) => call(portalApi['invoice-settings'].$put, { json: body }),
    onSuccess: (settings) => queryClient.setQueryData(INVOICE_SETTINGS_KEY, settings),
  });
}
