// The Driver Portal's reads and writes. Query keys are the API paths, so a write can refresh
// exactly the read it changed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../../../shared/api-client';
import type { CompanyUpdate, PricingUpdate } from '../../../../shared/schemas';
import type { Company, PricingRates } from '../../../../shared/types';
import { toast } from '../../components/toast';

export const COMPANY_KEY = ['/api/company'] as const;
const PRICING_KEY = ['/api/pricing'] as const;

export function errorText(error: Error): string {
  return error instanceof ApiRequestError ? error.serverMessage : error.message;
}

export function useCompany() {
  return useQuery({ queryKey: COMPANY_KEY, queryFn: () => apiRequest<Company>('/api/company') });
}

export function usePricing() {
  return useQuery({ queryKey: PRICING_KEY, queryFn: () => apiRequest<PricingRates>('/api/pricing') });
}

/** PUT /api/company without toasts: callers word success and failure for their own context. */
export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyUpdate) => apiRequest<Company>('/api/company', { method: 'PUT', body }),
    onSuccess: (company) => queryClient.setQueryData(COMPANY_KEY, company),
  });
}

export function useSavePricing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PricingUpdate) => apiRequest<PricingRates>('/api/pricing', { method: 'PUT', body }),
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

/** GET/POST/PUT/DELETE for one of the Custom Charges lists, with docs/product.md §8's toasts. */
export function useChargeList<Row extends { id: number }, Input>(path: string, noun: RowNoun) {
  const queryClient = useQueryClient();
  const key = [path];
  const list = useQuery({ queryKey: key, queryFn: () => apiRequest<Row[]>(path) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const add = useMutation({
    mutationFn: (body: Input) => apiRequest<Row>(path, { method: 'POST', body }),
    onSuccess: () => {
      toast({ title: `${noun.title} added successfully` });
      return refresh();
    },
    onError: (error) => toast({ title: `Error adding ${noun.lower}`, description: errorText(error), variant: 'destructive' }),
  });

  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: Input }) => apiRequest<Row>(`${path}/${id}`, { method: 'PUT', body }),
    onSuccess: () => {
      toast({ title: `${noun.title} updated successfully` });
      return refresh();
    },
    onError: (error) => toast({ title: `Error updating ${noun.lower}`, description: errorText(error), variant: 'destructive' }),
  });

  const remove = useMutation({
    mutationFn: (id: number) => apiRequest<void>(`${path}/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast({ title: `${noun.title} deleted successfully` });
      return refresh();
    },
    onError: (error) => toast({ title: `Error deleting ${noun.lower}`, description: errorText(error), variant: 'destructive' }),
  });

  return { list, add, update, remove };
}
