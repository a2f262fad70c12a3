// The board's settings (docs/product.md §23): jobs for later (how many days ahead, how many jobs
// an hour; the owner changes them) and what each vehicle type needs of a truck (the office).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, call, pathOf, portalApi } from '#shared/api-client';
import type { CarriageRow, LaterSettings } from '#shared/dispatch-schemas';
import { TRUCK_KIND_WORDS, TRUCK_KINDS, type TruckKind } from '#shared/trucks';
import { toast } from '../../../components/toast';
import { Button, Card, CardContent, CardHeader, CardTitle, Checkbox, Field, Input, Label } from '../../../components/ui';
import { useAuth } from '../../../lib/auth';
import { BOARD_KEY } from './api';

const LATER_KEY = [pathOf(portalApi['later-settings'])] as const;
const CARRIAGE_KEY = [pathOf(portalApi['vehicle-type-carriage'])] as const;

const failed = (error: unknown) =>
  toast({ title: error instanceof ApiRequestError ? error.serverMessage : 'No connection. Please try again.', variant: 'destructive' });

function LaterSettingsForm({ settings, canChange }: { settings: LaterSettings; canChange: boolean }) {
  const queryClient = useQueryClient();
  const [daysAhead, setDaysAhead] = useState(String(settings.daysAhead));
  const [jobsPerHour, setJobsPerHour] = useState(String(settings.jobsPerHour));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => call(portalApi['later-settings'].$put, { json: { daysAhead: Number(daysAhead), jobsPerHour: Number(jobsPerHour) } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(LATER_KEY, saved);
      setErrors({});
      toast({ title: 'Settings saved' });
    },
    onError: (error) => (error instanceof ApiRequestError && error.fields ? setErrors(error.fields) : failed(error)),
  });
  return (
    <form
      className="grid gap-3 sm:grid-cols-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Field label="Bookings taken up to (days ahead)" error={errors.daysAhead}>
        <Input inputMode="numeric" value={daysAhead} disabled={!canChange} onChange={(e) => setDaysAhead(e.target.value)} />
      </Field>
      <Field label="Jobs per hour at most" error={errors.jobsPerHour}>
        <Input inputMode="numeric" value={jobsPerHour} disabled={!canChange} onChange={(e) => setJobsPerHour(e.target.value)} />
      </Field>
      {canChange && (
        <Button type="submit" className="self-end" disabled={save.isPending}>
          Save
        </Button>
      )}
    </form>
  );
}

function CarriageRowEditor({ row }: { row: CarriageRow }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (truckKinds: TruckKind[]) =>
      call(portalApi['vehicle-types'][':id'].carriage.$put, {
        param: { id: String(row.vehicleTypeId) },
        json: { truckKinds, weightKg: row.weightKg, electric: row.electric },
      }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: CARRIAGE_KEY }), queryClient.invalidateQueries({ queryKey: BOARD_KEY })]),
    onError: failed,
  });
  const toggle = (kind: TruckKind, on: boolean) => save.mutate(on ? [...row.truckKinds, kind] : row.truckKinds.filter((k) => k !== kind));
  return (
    <fieldset className="rounded-lg border border-slate-200 p-2">
      <legend className="px-1 font-semibold">{row.vehicleType}</legend>
      <div className="flex flex-wrap gap-4">
        {TRUCK_KINDS.map((kind) => {
          const id = `carriage-${row.vehicleTypeId}-${kind}`;
          return (
            <div key={kind} className="flex items-center gap-2 text-sm">
              <Checkbox id={id} checked={row.truckKinds.includes(kind)} disabled={save.isPending} onCheckedChange={(v) => toggle(kind, v === true)} />
              <Label htmlFor={id}>{TRUCK_KIND_WORDS[kind]}</Label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

export function DispatchSettingsCard() {
  const { user } = useAuth();
  const later = useQuery({ queryKey: LATER_KEY, queryFn: () => call(portalApi['later-settings'].$get) });
  const carriage = useQuery({ queryKey: CARRIAGE_KEY, queryFn: () => call(portalApi['vehicle-type-carriage'].$get) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Jobs for later and vehicle types</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {later.data && <LaterSettingsForm settings={later.data} canChange={user?.role === 'owner'} />}
        <p className="text-sm text-slate-700">Which trucks may carry each vehicle type (none ticked: any truck).</p>
        {carriage.data?.map((row) => (
          <CarriageRowEditor key={row.vehicleTypeId} row={row} />
        ))}
      </CardContent>
    </Card>
  );
}
