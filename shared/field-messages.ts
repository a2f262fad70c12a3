// zod issues as docs/architecture.md §4's per-field messages: the first message of each field, keyed by its
// dotted path ('_' for the body as a whole). The server's error bodies and the portal's forms
// both build `fields` with this, so a message lands under the same field on either side.

export interface FieldIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export function fieldMessages(issues: readonly FieldIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
