// One set-up step's form: the values as typed (the unsaved draft if there is one, else what the
// server has), each change kept as the step's draft, and errors per field, from the shared schema
// before asking and from the server's one error shape after (docs/architecture.md §4).
import { useState } from 'react';
import type { z } from 'zod';
import { ApiRequestError } from '#shared/api-client';
import { useSetupProgress, type SetupStep } from '../../lib/setup-progress';

export type Values = Record<string, string>;
export type Errors = Record<string, string>;

/** The first message of each field the schema refuses, by field name. */
export function schemaErrors(schema: z.ZodType, values: unknown): Errors | null {
  const parsed = schema.safeParse(values);
  if (parsed.success) return null;
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The server's refusal as field errors: its `fields` under the fields they name, anything else
 * (a 402, a 409 with no field, a network failure) under `form`.
 */
export function serverErrors(error: unknown, fields: readonly string[]): Errors {
  if (error instanceof ApiRequestError) {
    const named = Object.fromEntries(Object.entries(error.fields ?? {}).filter(([field]) => fields.includes(field)));
    return Object.keys(named).length > 0 ? named : { form: error.serverMessage };
  }
  return { form: 'Could not save. Check your connection and try again.' };
}

/** What a step's save is told when the server answers. */
export interface SaveHandlers {
  onSuccess: () => void;
  onError: (error: Error) => void;
}

/** The errors that stop a save before it is sent, or the save to send. */
export type StepCheck = () => Errors | ((handlers: SaveHandlers) => void);

/** `fields`: the step's fields, under which the server's field errors are shown. */
export function useStepForm(userId: number, step: SetupStep, saved: Values, fields: readonly string[]) {
  const { progress, setDraft } = useSetupProgress(userId);
  const draft = progress?.drafts[step];
  const values = { ...saved, ...draft };
  const [errors, setErrors] = useState<Errors>({});
  const changed = Object.keys(values).some((field) => values[field] !== saved[field]);

  const set = (field: string, value: string) => {
    setDraft(step, { ...values, [field]: value });
    if (errors[field] || errors.form) setErrors(({ [field]: _field, form: _form, ...rest }) => rest);
  };
  /** After a save: the server's values are the form's, nothing is left unsaved. */
  const clearDraft = () => setDraft(step, undefined);

  /**
   * The step's two ways on. Save and continue: refused, the reasons under the fields; saved, the
   * draft goes and the next step opens. Skip for now: what is valid is saved, and what is not (or
   * what the server refuses) stays as the draft while the next step opens, so nothing typed is lost.
   */
  const actions = (next: () => void, check: StepCheck) => {
    const submit = (quiet: boolean) => {
      const checked = check();
      if (typeof checked !== 'function') return quiet ? next() : setErrors(checked);
      checked({
        onSuccess: () => {
          clearDraft();
          next();
        },
        onError: (error) => (quiet ? next() : setErrors(serverErrors(error, fields))),
      });
    };
    return { onSave: () => submit(false), onSkip: () => (changed ? submit(true) : next()) };
  };
  return { values, errors, set, actions };
}
