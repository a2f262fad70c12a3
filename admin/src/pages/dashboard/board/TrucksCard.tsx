// The company's trucks on the board (docs/product.md §23): each with its kind, the heaviest
// vehicle it carries, electric vehicles or not, and its usual driver; add one, or delete one.
import { useState, type FormEvent } from 'react';
import { ApiRequestError } from '#shared/api-client';
import type { TruckRow } from '#shared/dispatch-schemas';
import { TRUCK_KIND_WORDS, TRUCK_KINDS, type TruckKind } from '#shared/trucks';
import type { Role } from '#shared/roles';
import { toast } from '../../../components/toast';
import { Button, Card, CardContent, CardHeader, CardTitle, Checkbox, Field, Input, Label, Select } from '../../../components/ui';
import { useAddTruck, useRemoveTruck } from './api';

export function TrucksCard({ trucks, drivers }: { trucks: TruckRow[]; drivers: { id: number; name: string; role: Role }[] }) {
  const add = useAddTruck();
  const remove = useRemoveTruck();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<TruckKind>('flatbed');
  const [maxWeightKg, setMaxWeightKg] = useState('3500');
  const [evAllowed, setEvAllowed] = useState(true);
  const [defaultDriverId, setDefaultDriverId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      await add.mutateAsync({ name, kind, maxWeightKg: Number(maxWeightKg), evAllowed, defaultDriverId: defaultDriverId ? Number(defaultDriverId) : null });
      setName('');
      toast({ title: 'Truck added' });
    } catch (error) {
      if (error instanceof ApiRequestError && error.fields) setErrors(error.fields);
      else toast({ title: error instanceof ApiRequestError ? error.serverMessage : 'No connection. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Trucks</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-col gap-2">
          {trucks.map((t) => (
            <li key={t.id} className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 p-2">
              <span>
                <strong>{t.name}</strong> · {TRUCK_KIND_WORDS[t.kind]} · up to {t.maxWeightKg.toLocaleString('en-GB')} kg ·{' '}
                {t.evAllowed ? 'electric OK' : 'no electric'}
                {t.defaultDriver ? ` · ${t.defaultDriver.name}` : ''}
              </span>
              <Button variant="outline" onClick={() => remove.mutate(t.id)} aria-label={`Delete ${t.name}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
        <form onSubmit={(e) => void submit(e)} className="grid gap-3 sm:grid-cols-2">
          <Field label="Name or registration" error={errors.name}>
            <Input value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Kind" error={errors.kind}>
            <Select value={kind} onChange={(e) => setKind(e.target.value as TruckKind)}>
              {TRUCK_KINDS.map((k) => (
                <option key={k} value={k}>
                  {TRUCK_KIND_WORDS[k]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Maximum vehicle weight (kg)" error={errors.maxWeightKg}>
            <Input inputMode="numeric" value={maxWeightKg} onChange={(e) => setMaxWeightKg(e.target.value)} />
          </Field>
          <Field label="Usual driver" error={errors.defaultDriverId}>
            <Select value={defaultDriverId} onChange={(e) => setDefaultDriverId(e.target.value)}>
              <option value="">None</option>
              {drivers
                .filter((d) => d.role === 'driver')
                .map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
            </Select>
          </Field>
          <div className="flex items-center gap-2 text-sm">
            <Checkbox id="truck-ev" checked={evAllowed} onCheckedChange={(v) => setEvAllowed(v === true)} />
            <Label htmlFor="truck-ev">May carry an electric vehicle</Label>
          </div>
          <Button type="submit" disabled={add.isPending}>
            Add truck
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
