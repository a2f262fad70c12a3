// Forms keep what the user typed (numbers as text, so a blank stays blank) and validate with
// the shared zod schemas on submit (react-hook-form's zodResolver), so the browser shows the
// server's own messages.

/** A pounds or count value for a text input: the number as typed, or '' when absent. */
export const asInput = (value: number | null | undefined): string => (value == null ? '' : String(value));

/**
 * Options for resetting a form to what the server saved. The portal's forms keep dirty values
 * when a refreshed read arrives (`resetOptions: { keepDirtyValues: true }`), and react-hook-form
 * applies those options to every `reset()` too: a reset after a save would keep every edited
 * field marked dirty, and "You have unsaved changes" would follow a successful save. After a save
 * nothing is unsaved, so this reset keeps nothing.
 */
export const SAVED_RESET = { keepDirtyValues: false } as const;
