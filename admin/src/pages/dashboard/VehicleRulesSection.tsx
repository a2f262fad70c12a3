// Custom Charges → "Number plate look-up": which of the operator's vehicle types a vehicle found
// by its registration becomes, as an ordered list of rules (first match wins) by type approval
// category, fuel and weight. Until the operator saves their own, the rules shown are the
// defaults built from their vehicle type names (api/vehicles/rules.ts).
import { useEffect, useState } from 'react';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, call, pathOf, portalApi } from '#shared/api-client';
import { CATEGORY_LABELS, FUEL_LABELS, VEHICLE_CATEGORIES, VEHICLE_FUELS, type VehicleRule, type VehicleRulesUpdate } from '#shared/vehicle-rules';
import { Button, Card, CardContent, CardDescription, CardTitle, Field, Input, Select, Spinner } from '../../components/ui';
import { toast } from '../../components/toast';
import { errorText } from './api';

const RULES_KEY = [pathOf(portalApi['vehicle-rules'])];

/** A rule while edited: the weight stays text, blank for any weight. */
type Draft = Omit<VehicleRule, 'overKg'> & { overKg: string };

const toDraft = (rule: VehicleRule): Draft => ({ ...rule, overKg: rule.overKg === null ? '' : String(rule.overKg) });
const fromDraft = (draft: Draft): VehicleRule => ({ ...draft, overKg: draft.overKg.trim() === '' ? null : Number(draft.overKg) });

export function VehicleRulesSection() {
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: RULES_KEY, queryFn: () => call(portalApi['vehicle-rules'].$get) });
  // The same read as the Vehicle Types list above, so a row added there is offered here at once.
  const types = useQuery({ queryKey: [pathOf(portalApi['vehicle-types'])], queryFn: () => call(portalApi['vehicle-types'].$get) });
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (rules.data) setDrafts(rules.data.rules.map(toDraft));
  }, [rules.data]);

  const save = useMutation({
    mutationFn: (body: VehicleRulesUpdate) => call(portalApi['vehicle-rules'].$put, { json: body }),
    onSuccess: (saved, body) => {
      queryClient.setQueryData(RULES_KEY, saved);
      setErrors({});
      toast({ title: body.rules === null ? 'Number plate rules reset to the defaults' : 'Number plate rules saved' });
    },
    onError: (error) => {
      const fields = error instanceof ApiRequestError ? error.fields : undefined;
      if (fields) setErrors(fields);
      toast({ title: 'Error saving number plate rules', description: errorText(error), variant: 'destructive' });
    },
  });

  const change = (index: number, patch: Partial<Draft>) =>
    setDrafts((current) => (current === null ? null : current.map((d, i) => (i === index ? { ...d, ...patch } : d))));
  const move = (index: number, by: number) =>
    setDrafts((current) => {
      if (!current || index + by < 0 || index + by >= current.length) return current;
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });
  const rows = types.data ?? [];

  return (
    <Card>
      <div className="grid max-w-2xl gap-1.5 p-6 pb-4">
        <CardTitle>Number Plate Look-up</CardTitle>
        <CardDescription>
          When a customer types their registration, we look the vehicle up and choose one of your vehicle types for them: the first rule that matches wins. They
          can always change it.
        </CardDescription>
        {rules.data && !rules.data.lookupAvailable && (
          <p className="text-sm text-amber-800">Look-ups are switched off on this server, so the quote form only records the registration.</p>
        )}
        {rules.data?.defaults && <p className="text-sm text-slate-600">These are the starting rules, made from your vehicle type names.</p>}
      </div>
      <CardContent>
        {(rules.isLoading || types.isLoading || !drafts) && !rules.isError && <Spinner label="Loading" />}
        {(rules.isError || types.isError) && <p className="text-sm text-red-700">Unable to load the number plate rules. Please reload the page.</p>}
        {drafts && (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate({ rules: drafts.map(fromDraft) });
            }}
            className="grid gap-4"
          >
            {drafts.length === 0 && (
              <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
                No rules: a looked-up vehicle is left for the customer to choose.
              </p>
            )}
            <ol className="grid gap-3" aria-label="Number plate rules">
              {drafts.map((draft, i) => {
                const n = i + 1;
                const error = (field: string) => errors[`rules.${i}.${field}`];
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: every field of a row is controlled by drafts[i], so a row keyed by its place renders what is in that place
                  <li key={i} className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_9rem_8rem_1fr_auto] sm:items-end">
                    <Field label={`Rule ${n}: vehicle`} error={error('category')}>
                      <Select value={draft.category} onChange={(e) => change(i, { category: e.target.value as Draft['category'] })}>
                        {VEHICLE_CATEGORIES.map((c) => (
                          <option key={c} value={c}>
                            {CATEGORY_LABELS[c]}
                          </option>
                        ))}
                      </Select>
                    </Field>
                    <Field label={`Rule ${n}: fuel`} error={error('fuel')}>
                      <Select value={draft.fuel} onChange={(e) => change(i, { fuel: e.target.value as Draft['fuel'] })}>
                        {VEHICLE_FUELS.map((f) => (
                          <option key={f} value={f}>
                            {FUEL_LABELS[f]}
                          </option>
                        ))}
                      </Select>
                    </Field>
                    <Field label={`Rule ${n}: over (kg)`} hint="Blank: any weight" error={error('overKg')}>
                      <Input type="number" inputMode="numeric" min={0} step={1} value={draft.overKg} onChange={(e) => change(i, { overKg: e.target.value })} />
                    </Field>
                    <Field label={`Rule ${n}: is a`} error={error('vehicleTypeId')}>
                      <Select value={String(draft.vehicleTypeId)} onChange={(e) => change(i, { vehicleTypeId: Number(e.target.value) })}>
                        {!rows.some((r) => r.id === draft.vehicleTypeId) && <option value={String(draft.vehicleTypeId)}>Choose a vehicle type</option>}
                        {rows.map((r) => (
                          <option key={r.id} value={String(r.id)}>
                            {r.name}
                            {r.enabled ? '' : ' (disabled)'}
                          </option>
                        ))}
                      </Select>
                    </Field>
                    <div className="flex gap-1">
                      <Button type="button" variant="ghost" size="icon" aria-label={`Move rule ${n} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                        <ArrowUp aria-hidden="true" />
                      </Button>
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon"
                        aria-label={`Move rule ${n} down`}
                        disabled={i === drafts.length - 1}
                        onClick={() => move(i, 1)}
                      >
                        <ArrowDown aria-hidden="true" />
                      </Button>
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon"
                        aria-label={`Delete rule ${n}`}
                        className="text-red-700"
                        onClick={() => setDrafts(drafts.filter((_, j) => j !== i))}
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ol>
            <div className="flex flex-wrap gap-2">
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={rows.length === 0}
                onClick={() => setDrafts([...drafts, { category: 'any', fuel: 'any', overKg: '', vehicleTypeId: rows[0]?.id ?? 0 }])}
              >
                <Plus aria-hidden="true" /> Add Rule
              </Button>
              <Button type="submit" size="sm" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Save Rules'}
              </Button>
              {rules.data && !rules.data.defaults && (
                <Button type="button" variant="outline" size="sm" disabled={save.isPending} onClick={() => save.mutate({ rules: null })}>
                  Use Starting Rules
                </Button>
              )}
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
