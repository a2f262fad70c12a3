// The server's memory when its log reader stops reading (a stuck log shipper, a paused container
// log driver): the production bundle logging at `info` into a pipe that a `sleep` process holds
// and never reads, under quote load. Budget (docs/budgets.md): RSS growth ≤ 40 MB over 20 s.
import { spawn } from 'node:child_process';
import { runLoad, type LoadRequest, type LoadSettings } from './load';
import { spawnServer } from './server-process';

export interface StalledReaderResult {
  settings: LoadSettings;
  total: number;
  failures: number;
  /** Peak RSS during the load, less the RSS after the warm-up. */
  rssGrowthBytes: number;
}

export async function measureStalledLogReader(requests: LoadRequest[], settings: LoadSettings, warmUp: LoadSettings): Promise<StalledReaderResult> {
  const reader = spawn('sleep', ['3600'], { stdio: ['pipe', 'ignore', 'ignore'] });
  try {
    const server = await spawnServer({ script: 'dist/server.mjs', env: { LOG_LEVEL: 'info' }, stdout: reader.stdin! });
    try {
      // The warm-up also fills the pipe (64 KB) and the logger's buffer: from here on lines are dropped or queued.
      await runLoad(server, requests, warmUp);
      const before = server.rssBytes() ?? 0;
      const load = await runLoad(server, requests, settings);
      return { settings, total: load.total, failures: load.failures, rssGrowthBytes: load.peakRssBytes - before };
    } finally {
      await server.stop();
    }
  } finally {
    reader.kill();
  }
}
