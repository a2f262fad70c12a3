// The Driver Portal's reads and writes, through the typed client. Query keys are the API paths,
// so a write can refresh exactly the read it changed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, call, pathOf, portalApi } from '#shared/api-client';
import type { CompanyUpdate, PricingUpdate } from '#shared/schemas';
import { toast } from '../../components/toast';

export const COMPANY_KEY = [pathOf(portalApi.company)] as const;
const PRICING_KEY = [pathOf(portalApi.pricing)] as const;

export function errorText(error: Error): string {
  return error instanceof ApiRequestError ? error.serverMessage : error.message;
}

export function useCompany() {
  return useQuery({ queryKey: COMPANY_KEY, queryFn: () => call(portalApi.company.$get) });
}

export function usePricing() {
  return useQuery({ queryKey: PRICING_KEY, queryFn: () => call(portalApi.pricing.$get) });
}

/** Saves the company without toasts: callers word success and failure for their own context. */
export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyUpdate) => call(portalApi.company.$put, { json: body }),
    onSuccess: (company) => queryClient.setQueryData(COMPANY_KEY, company),
  });
}

export function useSavePricing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PricingUpdate) => call(portalApi.pricing.$put, { json: body }),
    onSuccess: (pricing) => {
      queryClient.setQueryData(PRICING_KEY, pricing);
      toast({ title: 'Pricing updated successfully' });
    },
    onError: (error) => toast({ title: 'Error updating pricing', description: errorText(error), variant: 'destructive' }),
  });
}

/** How a list's toasts name its rows (docs/product.md §8), e.g. 'Vehicle type' / 'vehicle type'. */
export interface RowNoun {
  title: string;
  lower: string;
}

/** The Custom Charges lists, by their collection in the contract. */
export type ChargeList = 'vehicle-types' | 'gearbox-types' | 'rolling-status-types' | 'surcharges' | 'passenger-charges';

/**
 * GET/POST/PUT/DELETE for one of the Custom Charges lists, with docs/product.md §8's toasts. With
 * `restorable`, a delete stays immediate and its toast offers Undo, which adds the row back as it was.
 */
export function useChargeList<Row extends { id: number }, Input>(name: ChargeList, noun: RowNoun, restorable?: (row: Row) => Input) {
  const queryClient = useQueryClient();
  // The lists differ only in their rows and bodies, which the callers type; the calls are one shape.
  const collection = portalApi[name] as unknown as (typeof portalApi)['vehicle-types'];
  const key = [pathOf(collection)];
  const list = useQuery({ queryKey: key, queryFn: async () => (await call(collection.$get)) as unknown as Row[] });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const row = (id: number) => ({ param: { id: String(id) } });

  const add = useMutation({
    mutationFn: async (body: Input) => (await call(collection.$post, { json: body as never })) as unknown as Row,
    onSuccess: () => {
      toast({ title: `${noun.title} added successfully` });
      return refresh();
    },
    onError: (error) => toast({ title: `Error adding ${noun.lower}`, description: errorText(error), variant: 'destructive' }),
  });

  const update = useMutation({
    mutationFn: async ({ id, body }: { id: number; body: Input }) =>
      (await call(collection[':id'].$put, { ...row(id), json: body as never })) as unknown as Row,
    onSuccess: () => {
      toast({ title: `${noun.title} updated successfully` });
      return refresh();
    },
    onError: (error) => toast({ title: `Error updating ${noun.lower}`, description: errorText(error), variant: 'destructive' }),
  });

  const restore = useMutation({
    mutationFn: async (body: Input) => (await call(collection.$post, { json: body as never })) as unknown as Row,
    onSuccess: () => {
      toast({ title: `${noun.title} restored` });
      return refresh();
    },
    onError: (error) => toast({ title: `Error restoring ${noun.lower}`, description: errorText(error), variant: 'destructive' }),
  });

  const remove = useMutation({
    mutationFn: (id: number) => call(collection[':id'].$delete, row(id)),
    // The row as it was before the delete, for Undo.
    onMutate: (id) => ({ deleted: list.data?.find((shown) => shown.id === id) }),
    onSuccess: (_answer, _id, context) => {
      const body = context?.deleted && restorable?.(context.deleted);
      toast({ title: `${noun.title} deleted successfully`, action: body ? { label: 'Undo', onClick: () => restore.mutate(body) } : undefined });
      return refresh();
    },
    onError: (error) => toast({ title: `Error deleting ${noun.lower}`, description: errorText(error), variant: 'destructive' }),
  });

  return { list, add, update, remove };
}
