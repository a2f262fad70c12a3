// The repository stands alone (docs/style.md #6b): what the code, tests and docs cite is in it.
// No pointer to a file outside the repository, no issue number (it means nothing to a reader of a
// clone), and every docs/ file, section and decision record that is cited exists.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../api/platform/config';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'data', 'test-results', 'playwright-report', 'screenshots']);
const TEXT = /\.(ts|tsx|js|mjs|md|html|css|json|ya?ml)$/;
const MAX_BYTES = 1_000_000;

/** Every text file of the repository, relative to its root, with its lines. */
function repositoryFiles(): { file: string; lines: string[] }[] {
  const found: { file: string; lines: string[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(relative);
      } else if (TEXT.test(entry.name) && entry.name !== 'package-lock.json' && relative !== SELF) {
        if (statSync(path.join(ROOT, relative)).size <= MAX_BYTES) {
          found.push({ file: relative, lines: readFileSync(path.join(ROOT, relative), 'utf8').split('\n') });
        }
      }
    }
  };
  walk('');
  return found;
}

const files = repositoryFiles();
const inDecisions = (file: string) => file.startsWith(`docs${path.sep}decisions${path.sep}`);

/** `file:line: text` for every line matching `pattern` in the files `where` accepts. */
function findings(pattern: RegExp, where: (file: string) => boolean = () => true): string[] {
  return files.flatMap(({ file, lines }) => (where(file) ? lines.flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])) : []));
}

// Written in pieces so that this file's own source does not spell the names it looks for.
const OUTSIDE_DOCUMENTS = new RegExp(['SPEC', 'DESIGN', 'STYLE'].map((name) => `\\b${name}(\\.md|['’]s| §| #)`).join('|'));
const ISSUE_NUMBER = new RegExp(`\\b[Ii]${'ssue'} \\d+`);

describe('the repository stands alone', () => {
  it('cites no document that lives outside the repository', () => {
    expect(findings(OUTSIDE_DOCUMENTS)).toEqual([]);
  });

  it('cites no issue numbers outside the decision records', () => {
    expect(findings(ISSUE_NUMBER, (file) => !inDecisions(file))).toEqual([]);
  });

  it('points no relative path above the repository root', () => {
    const outside = files.flatMap(({ file, lines }) =>
      lines.flatMap((line, i) =>
        [...line.matchAll(/(?:\.\.\/)+[A-Za-z][\w.-]*/g)]
          .filter((match) => !path.resolve(ROOT, path.dirname(file), match[0]).startsWith(ROOT + path.sep))
          .map((match) => `${file}:${i + 1}: ${match[0]}`),
      ),
    );
    expect(outside).toEqual([]);
  });

  it('holds every docs/ file that is cited', () => {
    const cited = new Set(files.flatMap(({ lines }) => lines.flatMap((line) => [...line.matchAll(/\bdocs\/[\w-]+\.md\b/g)].map((m) => m[0]))));
    expect([...cited].filter((doc) => !exists(doc))).toEqual([]);
  });

  it('holds every numbered section and style rule that is cited', () => {
    const sections = (doc: string, heading: RegExp) =>
      new Set(
        readFileSync(path.join(ROOT, doc), 'utf8')
          .split('\n')
          .flatMap((line) => heading.exec(line)?.[1] ?? []),
      );
    const product = sections('docs/product.md', /^## (\d+)\. /);
    const architecture = sections('docs/architecture.md', /^## (\d+)\. /);
    const style = sections('docs/style.md', /^\s*(?:- )?(\d+[a-z]?)\. /);
    const missing: string[] = [];
    for (const { file, lines } of files) {
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/docs\/(product|architecture)\.md[^§\n]{0,3}((?:§\d+(?:[–/-]§?\d+)?(?:, | and |\/)?)+)/g)) {
          const known = m[1] === 'product' ? product : architecture;
          for (const n of m[2].match(/\d+/g) ?? []) if (!known.has(n)) missing.push(`${file}:${i + 1}: ${m[1]} §${n}`);
        }
        for (const m of line.matchAll(/docs\/style\.md #(\d+[a-z]?)/g)) if (!style.has(m[1])) missing.push(`${file}:${i + 1}: style #${m[1]}`);
      });
    }
    expect(missing).toEqual([]);
  });

  it('holds every decision record that is cited, and indexes each one', () => {
    const records = readdirSync(path.join(ROOT, 'docs/decisions')).filter((name) => /^\d{3}-.*\.md$/.test(name));
    const numbers = new Set(records.map((name) => name.slice(0, 3)));
    const cited = findings(/\b[Dd]ecisions? \d{3}\b|docs\/decisions\/\d{3}/).flatMap((finding) =>
      [...finding.matchAll(/\b[Dd]ecisions? (\d{3})\b|docs\/decisions\/(\d{3})/g)].map((m) => ({ finding, n: m[1] ?? m[2] })),
    );
    expect(cited.filter(({ n }) => !numbers.has(n)).map(({ finding }) => finding)).toEqual([]);
    const index = readFileSync(path.join(ROOT, 'docs/decisions/README.md'), 'utf8');
    expect(records.filter((name) => !index.includes(`(${name})`))).toEqual([]);
  });
});

// docs/architecture.md is read to find code: every path it names must be there. Paths rooted at a
// folder of the repository are checked as written; a bare file name (`store.ts`) or a path below
// some folder (`pages/job/JobPage.tsx`) must end the path of some file. A pattern says it is one:
// `<name>` is any one name, `*` any run of characters within a name, `{a,b}` either; it must match
// at least one path. Build output and run-time data (`dist/`, `data/`) are not in the repository.
const ROOTS = ['api', 'shared', 'admin', 'widget', 'scripts', 'e2e', 'docs', 'examples', 'deploy'];
const NOT_IN_REPOSITORY = /^(dist|data|node_modules)\//;
const FILE_NAME = /^[\w.<>*{},-]+(?:\/[\w.<>*{},-]+)*\/?$/;
const FILE_EXTENSION = /\.(ts|tsx|mjs|js|md|sql|json|css|html|ya?ml|bin)$/;

/** Every file and folder of the repository (binary files too), relative to its root, with `/` separators. */
function repositoryPaths(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (['node_modules', '.git', 'dist', 'test-results', 'playwright-report'].includes(entry.name) || relative === 'data') continue;
        found.push(`${relative}/`);
        walk(relative);
      } else found.push(relative);
    }
  };
  walk('');
  return found;
}

/**
 * A cited path, its placeholders and globs included, as a regular expression over repository
 * paths: the whole path when it is rooted at a folder of the repository, else the path's end.
 */
function pathPattern(cited: string): RegExp {
  let source = '';
  for (const part of cited.replace(/\/$/, '').split(/(<[^<>/]+>|\*|\{[^{}/]*\})/)) {
    if (part.startsWith('<') && part.endsWith('>')) source += '[^/]+';
    else if (part === '*') source += '[^/]*';
    else if (part.startsWith('{') && part.endsWith('}')) source += `(?:${part.slice(1, -1).split(',').map(escapeRegExp).join('|')})`;
    else source += escapeRegExp(part);
  }
  const rooted = ROOTS.some((root) => cited.startsWith(`${root}/`));
  return new RegExp(`${rooted ? '^' : '(?:^|/)'}${source}/?$`);
}
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The paths and file names a document cites: rooted paths anywhere in its text, and file names in backticks. */
function citedPaths(text: string): string[] {
  const rooted = new RegExp(`(?<![\\w#/.<-])(?:${ROOTS.join('|')})/[\\w.<>*{},/-]*[\\w>*}/]`, 'g');
  const cited = new Set([...text.matchAll(rooted)].map((m) => m[0]));
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
    if (NOT_IN_REPOSITORY.test(span) || !FILE_NAME.test(span)) continue;
    if (span.includes('/') ? ROOTS.some((root) => span.startsWith(`${root}/`)) || FILE_EXTENSION.test(span) : FILE_EXTENSION.test(span)) cited.add(span);
  }
  return [...cited];
}

describe('docs/architecture.md', () => {
  it('cites only paths and files that exist', () => {
    const paths = repositoryPaths();
    const text = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const cited = citedPaths(text);
    // The page names well over a hundred; an extraction that finds none would pass anything.
    expect(cited.length).toBeGreaterThan(100);
    const missing = cited.filter((cite) => !paths.some((p) => pathPattern(cite).test(p)));
    expect(missing).toEqual([]);
  });

  it('reads placeholders, globs and file names as the page says', () => {
    expect(
      citedPaths('`api/<feature>/{routes,service}.ts`, see docs/style.md. `store.ts` and `dist/server.mjs`, `#shared/<module>`, `x-auth-token`.').sort(),
    ).toEqual(['api/<feature>/{routes,service}.ts', 'docs/style.md', 'store.ts'].sort());
    expect(pathPattern('api/<feature>/{routes,service}.ts').test('api/quotes/routes.ts')).toBe(true);
    expect(pathPattern('api/<feature>/{routes,service}.ts').test('api/quotes/store.ts')).toBe(false);
    expect(pathPattern('api/*.test.ts').test('api/app.test.ts')).toBe(true);
    // Rooted paths are whole paths; a bare name ends one.
    expect(pathPattern('quotes/store.ts').test('api/quotes/store.ts')).toBe(true);
    expect(pathPattern('api/store.ts').test('api/quotes/store.ts')).toBe(false);
    expect(pathPattern('api/routes/').test('api/routes.ts')).toBe(false);
  });
});

describe('the README and the configuration page', () => {
  it('keeps the README short enough for a newcomer to read through', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('documents every environment variable the server reads', () => {
    const page = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
    const variables = Object.keys(envSchema.shape);
    expect(variables.length).toBeGreaterThan(20);
    expect(variables.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });
});

function exists(relative: string): boolean {
  try {
    statSync(path.join(ROOT, relative));
    return true;
  } catch {
    return false;
  }
}
