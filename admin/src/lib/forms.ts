// Forms keep what the user typed (numbers as text, so a blank stays blank) and validate with
// the shared zod schemas on submit (react-hook-form's zodResolver), so the browser shows the
// server's own messages.

/** A pounds or count value for a text input: the number as typed, or '' when absent. */
export const asInput = (value: number | null | undefined): string => (value == null ? '' : String(value));
