// docs/benchmarks.md is written in sections, each by the run that measures it: a run of some
// sections rewrites only those and keeps the rest of the file as it was.

/** `doc` with `section` (a `## ` heading and its text) in place of the section of that heading, or added at the end. */
export function withSection(doc: string, section: string): string {
  const heading = section.slice(0, section.indexOf('\n'));
  const start = doc.indexOf(`\n${heading}\n`);
  if (start === -1) return `${doc.trimEnd()}\n\n${section}`;
  const next = doc.indexOf('\n## ', start + 1);
  return `${doc.slice(0, start + 1)}${section}${next === -1 ? '' : `\n${doc.slice(next + 1)}`}`;
}

/** `doc` with its opening part (the header, Machine and Results: what the main section writes) replaced by `main`; every other section kept. */
export function withMainSection(doc: string, main: string): string {
  const rest = /\n## (?!Machine\n|Results\n)/.exec(doc);
  return rest ? `${main.trimEnd()}\n\n${doc.slice(rest.index + 1)}` : main;
}
