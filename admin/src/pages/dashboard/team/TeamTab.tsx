// The Team tab (docs/product.md, "The team"), the owner's only: the people of the company with
// their roles and last sign-in, the invitations still open, the invite form, and the dispatchers'
// refund limit. A role change or a removal asks first: it signs that person out at once.
import { useState, type FormEvent } from 'react';
import { ROLE_WORDS, ROLES, type Role } from '#shared/roles';
import type { Person } from '#shared/team';
import { formatLongDate } from '#shared/money';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, ConfirmDialog, Field, Input, Select, Spinner } from '../../../components/ui';
import { useChangeRole, useInvite, useRemovePerson, useSaveRefundLimit, useTeam, useWithdraw } from './api';

const ROLE_HINTS: Record<Role, string> = {
  owner: 'Everything, including billing, payment settings, prices and people',
  dispatcher: 'Quotes and jobs; refunds up to your limit; no settings, billing or people',
  driver: 'Only the jobs assigned to them',
};

function InviteForm() {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('dispatcher');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role }, { onSuccess: () => setEmail('') });
  };
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
      <Field label="Email address">
        <Input type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label="Role" hint={ROLE_HINTS[role]}>
        <Select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_WORDS[r]}
            </option>
          ))}
        </Select>
      </Field>
      <Button type="submit" disabled={invite.isPending} className="sm:mb-5">
        {invite.isPending ? 'Sending...' : 'Send invitation'}
      </Button>
    </form>
  );
}

function PersonRow({ person }: { person: Person }) {
  const changeRole = useChangeRole();
  const remove = useRemovePerson();
  const [pendingRole, setPendingRole] = useState<Role | null>(null);
  const [removing, setRemoving] = useState(false);
  return (
    <li className="grid gap-2 py-3 sm:grid-cols-[1fr_10rem_auto] sm:items-center">
      <div className="min-w-0">
        <p className="font-medium">
          {person.name}
          {person.you && <span className="text-slate-600"> (you)</span>}
        </p>
        <p className="truncate text-sm text-slate-600">{person.email}</p>
        <p className="text-xs text-slate-600">{person.lastSignInAt ? `Last signed in ${formatLongDate(person.lastSignInAt)}` : 'Not signed in yet'}</p>
      </div>
      <Select
        aria-label={`Role of ${person.name}`}
        value={person.role}
        onChange={(e) => setPendingRole(e.target.value as Role)}
        disabled={changeRole.isPending}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_WORDS[r]}
          </option>
        ))}
      </Select>
      <Button variant="outline" onClick={() => setRemoving(true)} aria-label={`Remove ${person.name}`}>
        Remove
      </Button>
      <ConfirmDialog
        open={pendingRole !== null}
        onOpenChange={(open) => !open && setPendingRole(null)}
        title={`Make ${person.name} ${pendingRole ? ROLE_WORDS[pendingRole] : ''}?`}
        description="They are signed out at once and sign in again with the new role."
        confirmLabel="Change role"
        pending={changeRole.isPending}
        onConfirm={() => pendingRole && changeRole.mutate({ id: person.id, role: pendingRole }, { onSettled: () => setPendingRole(null) })}
      />
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={`Remove ${person.name} from the team?`}
        description="They are signed out at once and can no longer sign in to your company."
        confirmLabel="Remove"
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate(person.id, { onSettled: () => setRemoving(false) })}
      />
    </li>
  );
}

function RefundLimit({ current }: { current: number }) {
  const save = useSaveRefundLimit();
  const [value, setValue] = useState(String(current));
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(Number(value));
      }}
    >
      <Field label="Largest refund a dispatcher may give (£)" hint="You have no limit. £0: dispatchers cannot refund.">
        <Input inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} className="w-32" />
      </Field>
      <Button type="submit" variant="outline" disabled={save.isPending} className="mb-5">
        Save limit
      </Button>
    </form>
  );
}

export default function TeamTab() {
  const team = useTeam();
  const withdraw = useWithdraw();
  if (team.isLoading) return <Spinner label="Loading your team" />;
  if (!team.data) return <p className="text-red-700">Unable to load your team. Please reload the page.</p>;
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Team</CardTitle>
          <CardDescription>Everyone who signs in to your company, each with their own password.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="divide-y divide-slate-200">
            {team.data.people.map((person) => (
              <PersonRow key={person.id} person={person} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Invite someone</CardTitle>
          <CardDescription>They get an email with a link that works once, for 7 days.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <InviteForm />
          {team.data.invitations.length > 0 && (
            <ul className="divide-y divide-slate-200" aria-label="Open invitations">
              {team.data.invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{invitation.email}</span> · {ROLE_WORDS[invitation.role]} · invited, until{' '}
                    {formatLongDate(invitation.expiresAt)}
                  </span>
                  <Button variant="ghost" size="sm" disabled={withdraw.isPending} onClick={() => withdraw.mutate(invitation.id)}>
                    Withdraw
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Refunds by dispatchers</CardTitle>
        </CardHeader>
        <CardContent>
          <RefundLimit key={team.data.dispatcherRefundLimit} current={team.data.dispatcherRefundLimit} />
        </CardContent>
      </Card>
    </div>
  );
}
