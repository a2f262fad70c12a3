// The add-dialog / inline-edit / delete state each Custom Charges list shares: one form for the
// add dialog, one for the row being edited in place (at most one), and the row awaiting a delete
// confirmation. Both forms are react-hook-form resolved by the list's shared zod schema, like
// every form in the portal, and every write carries the signed-in operator's company id.
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ApiRequestError } from '#shared/api-client';
import { useAuth } from '../../lib/auth';
import { useReportUnsaved } from '../../lib/unsaved';
import { useChargeList, type ChargeList, type RowNoun } from './api';

interface RowEditorOptions<Draft extends FieldValues, Parsed, Row> {
  list: ChargeList;
  noun: RowNoun;
  schema: z.ZodType<Parsed, Draft>;
  /** A new row's draft: the add dialog starts from it and returns to it when it closes. */
  emptyDraft: () => Draft;
  /** Called when the add dialog closes, to reset any add-only state the section keeps. */
  onAddClosed?: () => void;
  /** The draft field holding the row's name: a refused duplicate ("Car already exists") shows under it. */
  nameField?: Path<Draft>;
  /** A deleted row's draft: given, a delete's toast offers Undo, which adds the row back from it. */
  restorable?: (row: Row) => Draft;
}

/** Shows the server's reason for refusing a name (409) under the name field. */
function showNameConflict<Draft extends FieldValues, Parsed>(form: UseFormReturn<Draft, unknown, Parsed>, nameField: Path<Draft> | undefined) {
  return (error: Error) => {
    if (nameField && error instanceof ApiRequestError && error.status === 409) form.setError(nameField, { message: error.serverMessage });
  };
}

export function useRowEditor<Row extends { id: number }, Draft extends FieldValues, Parsed extends object>({
  list: listName,
  noun,
  schema,
  emptyDraft,
  onAddClosed,
  nameField,
  restorable,
}: RowEditorOptions<Draft, Parsed, Row>) {
  const { user } = useAuth();
  const withCompany = (data: Parsed) => ({ ...data, companyId: user?.companyId });
  const { list, add, update, remove } = useChargeList<Row, Parsed & { companyId?: number }>(
    listName,
    noun,
    restorable && ((row) => withCompany(schema.parse(restorable(row)))),
  );
  const addForm = useForm({ resolver: zodResolver(schema), defaultValues: emptyDraft() as DefaultValues<Draft> });
  const editForm = useForm({ resolver: zodResolver(schema) });
  const [editingId, setEditingId] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<Row | null>(null);

  // An open inline edit or add dialog is work not yet saved.
  useReportUnsaved(listName, editingId !== null || adding);

  const closeAdd = (open: boolean) => {
    setAdding(open);
    if (!open) {
      addForm.reset(emptyDraft());
      onAddClosed?.();
    }
  };

  return {
    list,
    rows: list.data ?? [],
    remove,

    adding,
    openAdd: () => setAdding(true),
    closeAdd,
    addForm,
    addPending: add.isPending,
    submitAdd: addForm.handleSubmit((data) =>
      add.mutate(withCompany(data), { onSuccess: () => closeAdd(false), onError: showNameConflict(addForm, nameField) }),
    ),

    editingId,
    editForm,
    startEdit: (row: Row, draft: Draft) => {
      editForm.reset(draft);
      setEditingId(row.id);
    },
    cancelEdit: () => setEditingId(null),
    savePending: update.isPending,
    submitEdit: editForm.handleSubmit((data) => {
      if (editingId === null) return;
      update.mutate({ id: editingId, body: withCompany(data) }, { onSuccess: () => setEditingId(null), onError: showNameConflict(editForm, nameField) });
    }),

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
