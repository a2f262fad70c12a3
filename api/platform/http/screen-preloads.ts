// The chunks of a screen, preloaded by the page the server sends for its path (docs/budgets.md
// "Dispatch", decision 056): the browser fetches and compiles them beside the app's own script
// instead of after it has run and the router has matched the path. From the admin build's Vite
// manifest (dist/admin/.vite/manifest.json, not served): the screen's chunk and its static
// imports, less those index.html already loads.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The screens whose page preloads their chunks: a path of the SPA and the screen's module in the build. */
export const PRELOADED_SCREENS: Readonly<Record<string, string>> = {
  '/dashboard/board': 'src/pages/dashboard/board/BoardPage.tsx',
};

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** For each path of `screens`, the `<link rel="modulepreload">` tags its page adds to `indexHtml`'s head; none without a manifest. */
export function screenPreloads(adminDir: string, indexHtml: string, screens: Readonly<Record<string, string>> = PRELOADED_SCREENS): Map<string, string> {
  const file = path.join(adminDir, '.vite', 'manifest.json');
  const tags = new Map<string, string>();
  if (!existsSync(file)) return tags;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  for (const [pagePath, screen] of Object.entries(screens)) {
    if (!manifest[screen]) continue;
    const files: string[] = [];
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      if (!chunk) return;
      if (!indexHtml.includes(`/${chunk.file}"`)) files.push(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(screen);
    tags.set(pagePath, files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join(''));
  }
  return tags;
}
