// Vitest's global setup: the template database the harness copies for every test app
// (api/test/harness.ts) is migrated and seeded here once for the whole run, instead of once in
// each test file's worker, and its path handed to the workers through `provide`; so is one
// argon2id hash of the operator factory's password.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { hashPassword } from '../auth/password';
import { FACTORY_PASSWORD, migratedTemplate } from './run-fixtures';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated, seeded database file every test app starts as a copy of. */
    templateDb: string;
    /**
     * dist/ when `npm test` has just built it (vitest.config.ts), for the tests that weigh the
     * build (widget/size.test.ts); empty otherwise, and they build for themselves.
     */
    freshDist: string;
    /** An argon2id hash of the harness's FACTORY_PASSWORD (api/test/run-fixtures.ts), made once for the run. */
    factoryPasswordHash: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-template-'));
  project.provide('templateDb', migratedTemplate(dir));
  project.provide('factoryPasswordHash', await hashPassword(FACTORY_PASSWORD));
  return () => rmSync(dir, { recursive: true, force: true });
}
