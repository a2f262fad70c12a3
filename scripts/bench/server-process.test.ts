import { describe, expect, it } from 'vitest';
import { startScriptNodeFlags } from './server-process';

describe('startScriptNodeFlags', () => {
  it('reads the node flags package.json’s start script gives the production bundle', () => {
    expect(startScriptNodeFlags()).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--max-old-space-size=1024']));
    expect(startScriptNodeFlags('npm run build && node --enable-source-maps --max-semi-space-size=8 dist/server.mjs')).toEqual([
      '--enable-source-maps',
      '--max-semi-space-size=8',
    ]);
    expect(startScriptNodeFlags('node dist/server.mjs')).toEqual([]);
  });

  it('refuses a start script that no longer runs the bundle, rather than measuring something else', () => {
    expect(() => startScriptNodeFlags('tsx api/server.ts')).toThrow(/does not run dist\/server\.mjs/);
  });
});
