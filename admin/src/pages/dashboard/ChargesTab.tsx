// Custom Charges: the per-vehicle, gearbox, rolling-status, problem and passenger charges added
// on top of the standard rates. Each row toggles between view and inline edit; deletes confirm
// as docs/product.md §4 says (dialog for vehicle and gearbox, browser confirm for rolling status, none
// for problem charges). Passenger charges get a screen the product's first version lacked (docs/decisions/010).
import { useState, type BaseSyntheticEvent, type ReactNode } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import type { z } from 'zod';
import { DEFAULT_PROBLEM_TYPES, PASSENGER_LIMIT_RANGE } from '#shared/constants';
import { formatPounds } from '#shared/money';
import { sameSlug } from '#shared/slug';
import {
  gearboxTypeSchema,
  passengerChargeSchema,
  rollingStatusTypeSchema,
  surchargeSchema,
  vehicleTypeSchema,
  type PassengerChargeInput,
  type PricedRowInput,
  type SurchargeInput,
} from '#shared/schemas';
import type { PassengerCharge, PricedRow, Surcharge } from '#shared/types';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardTitle,
  Checkbox,
  ConfirmDialog,
  Dialog,
  Field,
  Input,
  Label,
  Select,
  Spinner,
  Textarea,
} from '../../components/ui';
import { asInput } from '../../lib/forms';
import type { ChargeList, RowNoun } from './api';
import { useRowEditor } from './useRowEditor';
import { VehicleRulesSection } from './VehicleRulesSection';

type DeleteConfirmation = 'dialog' | 'browser';

// ------------------------------------------------------------------ shared pieces

function Section({
  title,
  description,
  addLabel,
  onAdd,
  children,
}: {
  title: string;
  description: string;
  addLabel: string;
  onAdd: () => void;
  children: ReactNode;
}) {
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3 p-6 pb-4">
        <div className="grid max-w-2xl gap-1.5">
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <Button size="sm" onClick={onAdd}>
          <Plus aria-hidden="true" /> {addLabel}
        </Button>
      </div>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function ListState({ loading, failed, empty, emptyText }: { loading: boolean; failed: boolean; empty: boolean; emptyText: string }) {
  if (loading) return <Spinner label="Loading" />;
  if (failed) return <p className="text-sm text-red-700">Unable to load these charges. Please reload the page.</p>;
  if (empty) return <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">{emptyText}</p>;
  return null;
}

function ViewActions({ label, onEdit, onDelete, deleting }: { label: string; onEdit: () => void; onDelete: () => void; deleting: boolean }) {
  return (
    <div className="flex shrink-0 gap-1">
      <Button variant="ghost" size="icon" aria-label={`Edit ${label}`} onClick={onEdit}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button variant="ghost" size="icon" aria-label={`Delete ${label}`} onClick={onDelete} disabled={deleting} className="text-red-700">
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  );
}

function EditActions({ label, onCancel, saving }: { label: string; onCancel: () => void; saving: boolean }) {
  return (
    <div className="flex shrink-0 gap-2">
      <Button type="submit" size="sm" disabled={saving} aria-label={`Save ${label}`}>
        Save
      </Button>
      <Button size="sm" variant="outline" onClick={onCancel} aria-label={`Cancel editing ${label}`}>
        Cancel
      </Button>
    </div>
  );
}

function EnabledCheckbox({ id, checked, onChange }: { id: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(value) => onChange(value === true)} />
      <Label htmlFor={id}>Enabled</Label>
    </div>
  );
}

function DisabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? null : <Badge>Disabled</Badge>;
}

const ROW = 'flex flex-wrap items-center justify-between gap-3 py-3';

/** What RowList and AddDialog need of a section's row editor, whatever its form's fields. */
interface ListEditor<Row> {
  list: { isLoading: boolean; isError: boolean };
  rows: Row[];
  editingId: number | null;
  submitEdit: (event?: BaseSyntheticEvent) => Promise<void>;
}

interface AddEditor {
  adding: boolean;
  closeAdd: (open: boolean) => void;
  submitAdd: (event?: BaseSyntheticEvent) => Promise<void>;
  addPending: boolean;
}

/** The list's loading, error and empty states, then one row per item: inline edit form or view. */
function RowList<Row extends { id: number }>({
  title,
  emptyText,
  editor,
  renderEdit,
  renderView,
}: {
  title: string;
  emptyText: string;
  editor: ListEditor<Row>;
  renderEdit: (row: Row) => ReactNode;
  renderView: (row: Row) => ReactNode;
}) {
  const { list, rows, editingId } = editor;
  return (
    <>
      <ListState loading={list.isLoading} failed={list.isError} empty={rows.length === 0} emptyText={emptyText} />
      {rows.length > 0 && (
        <ul className="divide-y divide-slate-200" aria-label={title}>
          {rows.map((row) =>
            editingId === row.id ? (
              <li key={row.id}>
                <form noValidate onSubmit={editor.submitEdit} className={ROW}>
                  {renderEdit(row)}
                </form>
              </li>
            ) : (
              <li key={row.id} className={ROW}>
                {renderView(row)}
              </li>
            ),
          )}
        </ul>
      )}
    </>
  );
}

/** The add dialog: the section's fields, then Cancel and an Add button named like the dialog. */
function AddDialog({ label, editor, children }: { label: string; editor: AddEditor; children: ReactNode }) {
  return (
    <Dialog open={editor.adding} onOpenChange={editor.closeAdd} title={label}>
      <form noValidate onSubmit={editor.submitAdd} className="grid gap-4">
        {children}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => editor.closeAdd(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={editor.addPending}>
            {editor.addPending ? 'Adding...' : label}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

// ------------------------------------------------------------------ vehicle, gearbox, rolling status

/** Money stays text while typed (a blank stays blank); the schema turns it into pounds. */
const pricedDraft = (row?: PricedRow, defaultPrice = 0): PricedRowInput => ({
  name: row?.name ?? '',
  basePrice: asInput(row?.basePrice ?? defaultPrice),
  enabled: row?.enabled ?? true,
});

interface PricedRowSectionProps {
  list: ChargeList;
  noun: RowNoun;
  title: string;
  description: string;
  emptyText: string;
  schema: typeof vehicleTypeSchema;
  defaultPrice: number;
  priceLabel: string;
  deleteConfirmation: DeleteConfirmation;
}

function PricedRowSection({ list, noun, title, description, emptyText, schema, defaultPrice, priceLabel, deleteConfirmation }: PricedRowSectionProps) {
  const editor = useRowEditor<PricedRow, PricedRowInput, z.output<typeof schema>>({
    list,
    noun,
    schema,
    nameField: 'name',
    emptyDraft: () => pricedDraft(undefined, defaultPrice),
  });
  const { addForm, editForm, remove } = editor;
  const addErrors = addForm.formState.errors;
  const editErrors = editForm.formState.errors;

  const requestDelete = (row: PricedRow) => {
    if (deleteConfirmation === 'dialog') return editor.askDelete(row);
    if (deleteConfirmation === 'browser' && !window.confirm(`Delete the ${noun.lower} "${row.name}"?`)) return;
    remove.mutate(row.id);
  };

  const nameLabel = `${noun.title} name`;
  const addLabel = `Add ${noun.title}`;
  return (
    <Section title={title} description={description} addLabel={addLabel} onAdd={editor.openAdd}>
      <RowList
        title={title}
        emptyText={emptyText}
        editor={editor}
        renderEdit={(row) => (
          <>
            <div className="grid flex-1 gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
              <Field label={nameLabel} error={editErrors.name?.message}>
                <Input {...editForm.register('name')} />
              </Field>
              <Field label={priceLabel} error={editErrors.basePrice?.message}>
                <Input type="number" inputMode="decimal" min={0} step={0.01} {...editForm.register('basePrice')} />
              </Field>
              <div className="pb-2">
                <EnabledCheckbox
                  id={`${list}-${row.id}-enabled`}
                  checked={editForm.watch('enabled') === true}
                  onChange={(enabled) => editForm.setValue('enabled', enabled)}
                />
              </div>
            </div>
            <EditActions label={row.name} onCancel={editor.cancelEdit} saving={editor.savePending} />
          </>
        )}
        renderView={(row) => (
          <>
            <div className="flex min-w-0 items-center gap-2">
              <span className="truncate font-medium">{row.name}</span>
              <DisabledBadge enabled={row.enabled} />
            </div>
            <div className="flex items-center gap-3">
              <span className="tabular-nums text-slate-800">{formatPounds(row.basePrice)}</span>
              <ViewActions
                label={row.name}
                onEdit={() => editor.startEdit(row, pricedDraft(row))}
                onDelete={() => requestDelete(row)}
                deleting={remove.isPending}
              />
            </div>
          </>
        )}
      />

      <AddDialog label={addLabel} editor={editor}>
        <Field label={nameLabel} error={addErrors.name?.message}>
          <Input {...addForm.register('name')} />
        </Field>
        <Field label={priceLabel} error={addErrors.basePrice?.message}>
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...addForm.register('basePrice')} />
        </Field>
        <EnabledCheckbox id={`${list}-new-enabled`} checked={addForm.watch('enabled') === true} onChange={(enabled) => addForm.setValue('enabled', enabled)} />
      </AddDialog>

      <ConfirmDialog
        {...editor.deleteDialog}
        title={`Delete ${noun.lower}?`}
        description={`"${editor.pendingDelete?.name ?? ''}" will be removed and no longer offered on your quote page.`}
        confirmLabel="Delete"
        destructive
      />
    </Section>
  );
}

// ------------------------------------------------------------------ problem charges (surcharges)

const PRESET_PROBLEMS = DEFAULT_PROBLEM_TYPES.filter((p) => p.value !== 'other');
const CUSTOM_PROBLEM = '__custom__';
/** The add dialog's option for an existing charge: choosing it opens that row for editing. */
const EDIT_PROBLEM = 'edit:';

/** A starter problem already charged for, by its label or its form value ("Flat Tire" is "flat-tire"). */
const isCharged = (preset: (typeof PRESET_PROBLEMS)[number], rows: readonly Surcharge[]) =>
  rows.some((row) => sameSlug(row.problemType, preset.label) || sameSlug(row.problemType, preset.value));

const surchargeDraft = (row?: Surcharge): SurchargeInput => ({
  problemType: row?.problemType ?? '',
  amount: asInput(row?.amount ?? 0),
  description: row?.description ?? '',
  enabled: row?.enabled ?? true,
});

function SurchargeSection() {
  const [customProblem, setCustomProblem] = useState(false);
  const editor = useRowEditor<Surcharge, SurchargeInput, z.output<typeof surchargeSchema>>({
    list: 'surcharges',
    nameField: 'problemType',
    noun: { title: 'Custom charge', lower: 'custom charge' },
    schema: surchargeSchema,
    emptyDraft: () => surchargeDraft(),
    onAddClosed: () => setCustomProblem(false),
    // A problem charge is deleted without asking (docs/product.md §8), so its toast offers Undo.
    restorable: surchargeDraft,
  });
  const { addForm, editForm, remove } = editor;
  const addErrors = addForm.formState.errors;
  const editErrors = editForm.formState.errors;
  // A name is unique within the list: offer only the starter problems not yet added, and the
  // added ones for editing rather than for a second add refused as "already exists".
  const missingProblems = PRESET_PROBLEMS.filter((preset) => !isCharged(preset, editor.rows));
  const chooseProblem = (choice: string) => {
    const existing = choice.startsWith(EDIT_PROBLEM) && editor.rows.find((row) => `${EDIT_PROBLEM}${row.id}` === choice);
    if (existing) {
      editor.closeAdd(false);
      editor.startEdit(existing, surchargeDraft(existing));
      return;
    }
    const custom = choice === CUSTOM_PROBLEM;
    setCustomProblem(custom);
    addForm.setValue('problemType', custom ? '' : choice);
  };

  return (
    <Section
      title="Problem Charges"
      description="Extra charges for specific problems, added to the quote when a customer picks that problem."
      addLabel="Add Custom Charge"
      onAdd={editor.openAdd}
    >
      <RowList
        title="Problem Charges"
        emptyText="No custom charges configured. Add one to get started."
        editor={editor}
        renderEdit={(row) => (
          <>
            <div className="grid flex-1 gap-3 sm:grid-cols-2">
              <Field label="Problem type" error={editErrors.problemType?.message}>
                <Input {...editForm.register('problemType')} />
              </Field>
              <Field label="Amount (£)" error={editErrors.amount?.message}>
                <Input type="number" inputMode="decimal" min={0} step={0.01} {...editForm.register('amount')} />
              </Field>
              <Field label="Description" error={editErrors.description?.message} className="sm:col-span-2">
                <Input {...editForm.register('description')} />
              </Field>
              <EnabledCheckbox
                id={`surcharge-${row.id}-enabled`}
                checked={editForm.watch('enabled') === true}
                onChange={(enabled) => editForm.setValue('enabled', enabled)}
              />
            </div>
            <EditActions label={row.problemType} onCancel={editor.cancelEdit} saving={editor.savePending} />
          </>
        )}
        renderView={(row) => (
          <>
            <div className="min-w-0">
              <div className="flex items-center gap-2">
                <span className="font-medium">{row.problemType}</span>
                <DisabledBadge enabled={row.enabled} />
              </div>
              {row.description && <p className="text-sm text-slate-600">{row.description}</p>}
            </div>
            <div className="flex items-center gap-3">
              <span className="tabular-nums text-slate-800">+{formatPounds(row.amount)}</span>
              <ViewActions
                label={row.problemType}
                onEdit={() => editor.startEdit(row, surchargeDraft(row))}
                onDelete={() => remove.mutate(row.id)}
                deleting={remove.isPending}
              />
            </div>
          </>
        )}
      />

      <AddDialog label="Add Custom Charge" editor={editor}>
        <Field label="Problem type" error={customProblem ? undefined : addErrors.problemType?.message}>
          <Select value={customProblem ? CUSTOM_PROBLEM : addForm.watch('problemType')} onChange={(e) => chooseProblem(e.target.value)}>
            <option value="">Select a problem</option>
            {missingProblems.length > 0 && (
              <optgroup label="Add a problem">
                {missingProblems.map(({ label }) => (
                  <option key={label} value={label}>
                    {label}
                  </option>
                ))}
              </optgroup>
            )}
            <option value={CUSTOM_PROBLEM}>Custom problem...</option>
            {editor.rows.length > 0 && (
              <optgroup label="Already added (edit)">
                {editor.rows.map((row) => (
                  <option key={row.id} value={`${EDIT_PROBLEM}${row.id}`}>
                    {row.problemType}
                  </option>
                ))}
              </optgroup>
            )}
          </Select>
        </Field>
        {customProblem && (
          <Field label="Custom problem" hint="Shown to customers as a problem they can choose" error={addErrors.problemType?.message}>
            <Input {...addForm.register('problemType')} autoFocus />
          </Field>
        )}
        <Field label="Amount (£)" error={addErrors.amount?.message}>
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...addForm.register('amount')} />
        </Field>
        <Field label="Description" hint="Optional, for your own reference" error={addErrors.description?.message}>
          <Textarea rows={2} {...addForm.register('description')} />
        </Field>
        <EnabledCheckbox id="surcharge-new-enabled" checked={addForm.watch('enabled') === true} onChange={(enabled) => addForm.setValue('enabled', enabled)} />
      </AddDialog>
    </Section>
  );
}

// ------------------------------------------------------------------ passenger charges

/** docs/product.md §9: a new portal passenger charge starts at 1 passenger at £5.00. */
const passengerDraft = (row?: PassengerCharge): PassengerChargeInput => ({
  passengerCount: asInput(row?.passengerCount ?? 1),
  basePrice: asInput(row?.basePrice ?? 5),
  enabled: row?.enabled ?? true,
});

const passengerLabel = (count: number) => `${count} passenger${count === 1 ? '' : 's'}`;

function PassengerChargeSection() {
  const editor = useRowEditor<PassengerCharge, PassengerChargeInput, z.output<typeof passengerChargeSchema>>({
    list: 'passenger-charges',
    noun: { title: 'Passenger charge', lower: 'passenger charge' },
    schema: passengerChargeSchema,
    emptyDraft: () => passengerDraft(),
  });
  const { addForm, editForm, remove } = editor;
  const addErrors = addForm.formState.errors;
  const editErrors = editForm.formState.errors;
  const countInput = (field: ReturnType<typeof addForm.register>) => (
    <Input type="number" inputMode="numeric" min={PASSENGER_LIMIT_RANGE.min} max={PASSENGER_LIMIT_RANGE.max} step={1} {...field} />
  );
  return (
    <Section
      title="Passenger Charges"
      description="A fixed charge for an exact number of passengers. Without one, each passenger costs your price per passenger (Branding tab)."
      addLabel="Add Passenger Charge"
      onAdd={editor.openAdd}
    >
      <RowList
        title="Passenger Charges"
        emptyText="No passenger charges configured."
        editor={editor}
        renderEdit={(row) => (
          <>
            <div className="grid flex-1 gap-3 sm:grid-cols-[8rem_10rem_auto] sm:items-end">
              <Field label="Passengers" error={editErrors.passengerCount?.message}>
                {countInput(editForm.register('passengerCount'))}
              </Field>
              <Field label="Price (£)" error={editErrors.basePrice?.message}>
                <Input type="number" inputMode="decimal" min={0} step={0.01} {...editForm.register('basePrice')} />
              </Field>
              <div className="pb-2">
                <EnabledCheckbox
                  id={`passenger-${row.id}-enabled`}
                  checked={editForm.watch('enabled') === true}
                  onChange={(enabled) => editForm.setValue('enabled', enabled)}
                />
              </div>
            </div>
            <EditActions label={passengerLabel(row.passengerCount)} onCancel={editor.cancelEdit} saving={editor.savePending} />
          </>
        )}
        renderView={(row) => (
          <>
            <div className="flex items-center gap-2">
              <span className="font-medium">{passengerLabel(row.passengerCount)}</span>
              <DisabledBadge enabled={row.enabled} />
            </div>
            <div className="flex items-center gap-3">
              <span className="tabular-nums text-slate-800">{formatPounds(row.basePrice)}</span>
              <ViewActions
                label={passengerLabel(row.passengerCount)}
                onEdit={() => editor.startEdit(row, passengerDraft(row))}
                onDelete={() => editor.askDelete(row)}
                deleting={remove.isPending}
              />
            </div>
          </>
        )}
      />

      <AddDialog label="Add Passenger Charge" editor={editor}>
        <Field label="Passengers" error={addErrors.passengerCount?.message}>
          {countInput(addForm.register('passengerCount'))}
        </Field>
        <Field label="Price (£)" error={addErrors.basePrice?.message}>
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...addForm.register('basePrice')} />
        </Field>
        <EnabledCheckbox id="passenger-new-enabled" checked={addForm.watch('enabled') === true} onChange={(enabled) => addForm.setValue('enabled', enabled)} />
      </AddDialog>

      <ConfirmDialog
        {...editor.deleteDialog}
        title="Delete passenger charge?"
        description={`The charge for ${editor.pendingDelete ? passengerLabel(editor.pendingDelete.passengerCount) : ''} will be removed.`}
        confirmLabel="Delete"
        destructive
      />
    </Section>
  );
}

// ------------------------------------------------------------------ the tab

export function ChargesTab() {
  return (
    <div className="grid gap-6">
      <PricedRowSection
        list="vehicle-types"
        noun={{ title: 'Vehicle type', lower: 'vehicle type' }}
        title="Vehicle Types"
        description="The base price for each kind of vehicle you recover."
        emptyText="No vehicle types configured. Add one to get started."
        schema={vehicleTypeSchema}
        defaultPrice={50}
        priceLabel="Base price (£)"
        deleteConfirmation="dialog"
      />
      <VehicleRulesSection />
      <PricedRowSection
        list="gearbox-types"
        noun={{ title: 'Gearbox type', lower: 'gearbox type' }}
        title="Gearbox Types"
        description="An additional charge by gearbox, for example for automatics that cannot be towed on two wheels."
        emptyText="No gearbox types configured. Add one to get started."
        schema={gearboxTypeSchema}
        defaultPrice={0}
        priceLabel="Additional charge (£)"
        deleteConfirmation="dialog"
      />
      <PricedRowSection
        list="rolling-status-types"
        noun={{ title: 'Rolling status type', lower: 'rolling status type' }}
        title="Rolling Status Types"
        description="An additional charge when the vehicle cannot roll and needs winching or skates."
        emptyText="No rolling status types configured"
        schema={rollingStatusTypeSchema}
        defaultPrice={0}
        priceLabel="Additional charge (£)"
        deleteConfirmation="browser"
      />
      <SurchargeSection />
      <PassengerChargeSection />
    </div>
  );
}
