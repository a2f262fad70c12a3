// The add-dialog / inline-edit / delete state each Custom Charges list shares: one draft for the
// add dialog, at most one row being edited in place, and the row awaiting a delete confirmation.
// Drafts are validated with the list's shared zod schema on submit, and every write carries the
// signed-in operator's company id.
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { useAuth } from '../../lib/auth';
import { parseWith, type FieldErrors } from '../../lib/forms';
import { useChargeList, type RowNoun } from './api';

export interface RowEdit<Draft> {
  id: number;
  draft: Draft;
  errors: FieldErrors;
}

interface RowEditorOptions<Draft, S extends z.ZodType<object>> {
  path: string;
  noun: RowNoun;
  schema: S;
  /** A new row's draft: the add dialog starts from it and returns to it when it closes. */
  emptyDraft: () => Draft;
  /** Called when the add dialog closes, to reset any add-only state the section keeps. */
  onAddClosed?: () => void;
}

export function useRowEditor<Row extends { id: number }, Draft extends object, S extends z.ZodType<object>>({
  path,
  noun,
  schema,
  emptyDraft,
  onAddClosed,
}: RowEditorOptions<Draft, S>) {
  const { user } = useAuth();
  const { list, add, update, remove } = useChargeList<Row, z.output<S> & { companyId?: number }>(path, noun);
  const [editing, setEditing] = useState<RowEdit<Draft> | null>(null);
  const [adding, setAdding] = useState(false);
  const [addDraft, setAddDraft] = useState(emptyDraft);
  const [addErrors, setAddErrors] = useState<FieldErrors>({});
  const [pendingDelete, setPendingDelete] = useState<Row | null>(null);

  const withCompany = (data: z.output<S>) => ({ ...data, companyId: user?.companyId });

  const closeAdd = (open: boolean) => {
    setAdding(open);
    if (!open) {
      setAddDraft(emptyDraft());
      onAddClosed?.();
      setAddErrors({});
    }
  };

  const submitAdd = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseWith(schema, addDraft);
    if (!parsed.ok) return setAddErrors(parsed.errors);
    add.mutate(withCompany(parsed.data), { onSuccess: () => closeAdd(false) });
  };

  const submitEdit = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const parsed = parseWith(schema, editing.draft);
    if (!parsed.ok) return setEditing({ ...editing, errors: parsed.errors });
    update.mutate({ id: editing.id, body: withCompany(parsed.data) }, { onSuccess: () => setEditing(null) });
  };

  return {
    list,
    rows: list.data ?? [],
    remove,

    adding,
    openAdd: () => setAdding(true),
    closeAdd,
    addDraft,
    setAddDraft: (patch: Partial<Draft>) => setAddDraft({ ...addDraft, ...patch }),
    addErrors,
    addPending: add.isPending,
    submitAdd,

    editing,
    startEdit: (row: Row, draft: Draft) => setEditing({ id: row.id, draft, errors: {} }),
    cancelEdit: () => setEditing(null),
    setEditDraft: (patch: Partial<Draft>) => editing && setEditing({ ...editing, draft: { ...editing.draft, ...patch } }),
    savePending: update.isPending,
    submitEdit,

    pendingDelete,
    askDelete: (row: Row) => setPendingDelete(row),
    /** Props for a ConfirmDialog asking about pendingDelete. */
    deleteDialog: {
      open: pendingDelete !== null,
      onOpenChange: (open: boolean) => !open && setPendingDelete(null),
      pending: remove.isPending,
      onConfirm: () => pendingDelete && remove.mutate(pendingDelete.id, { onSuccess: () => setPendingDelete(null) }),
    },
  };
}

export type RowEditor<Row extends { id: number }, Draft extends object> = ReturnType<typeof useRowEditor<Row, Draft, z.ZodType<object>>>;
