// The Team and Audit log tabs' reads and writes (docs/product.md, "The team"), through the typed client.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { Role } from '#shared/roles';
import type { AuditKind } from '#shared/team';
import { toast } from '../../../components/toast';
import { errorText } from '../api';

const TEAM_KEY = [pathOf(portalApi.team)] as const;

export function useTeam() {
  return useQuery({ queryKey: TEAM_KEY, queryFn: () => call(portalApi.team.$get) });
}

/** A team write: the list read again after it, its own toast either way. */
function useTeamWrite<Args>(run: (args: Args) => Promise<unknown>, done: string, failed: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: TEAM_KEY });
      toast({ title: done });
    },
    onError: (error) => toast({ title: failed, description: errorText(error), variant: 'destructive' }),
  });
}

export const useInvite = () =>
  useTeamWrite(
    (body: { email: string; role: Role }) => call(portalApi.team.invitations.$post, { json: body }),
    'Invitation sent',
    'Could not send the invitation',
  );

export const useWithdraw = () =>
  useTeamWrite(
    (id: number) => call(portalApi.team.invitations[':id'].$delete, { param: { id: String(id) } }),
    'Invitation withdrawn',
    'Could not withdraw the invitation',
  );

export const useChangeRole = () =>
  useTeamWrite(
    ({ id, role }: { id: number; role: Role }) => call(portalApi.team.people[':personId'].$put, { param: { personId: String(id) }, json: { role } }),
    'Role changed',
    'Could not change the role',
  );

export const useRemovePerson = () =>
  useTeamWrite(
    (id: number) => call(portalApi.team.people[':personId'].$delete, { param: { personId: String(id) } }),
    'Removed from the team',
    'Could not remove this person',
  );

export const useSaveRefundLimit = () =>
  useTeamWrite(
    (pounds: number) => call(portalApi.team['refund-limit'].$put, { json: { dispatcherRefundLimit: pounds } }),
    'Refund limit saved',
    'Could not save the refund limit',
  );

export interface AuditFilters {
  person?: number;
  kind?: AuditKind;
}

const auditQuery = (filters: AuditFilters, before?: number): Record<string, string> => ({
  ...(filters.person ? { person: String(filters.person) } : {}),
  ...(filters.kind ? { kind: filters.kind } : {}),
  ...(before ? { before: String(before) } : {}),
});

export function useAudit(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: [pathOf(portalApi.audit), filters],
    queryFn: ({ pageParam }) => call(portalApi.audit.$get, { query: auditQuery(filters, pageParam) }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export const auditCsvHref = (filters: AuditFilters): string => pathOf(portalApi.audit['export.csv'], { query: auditQuery(filters) });
