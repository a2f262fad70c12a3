// How many connections the server holds open at most: the configured cap, but never so many that
// sockets would take the file descriptors the database, its WAL, the log and Litestream need.
import { readFileSync } from 'node:fs';

/** Descriptors kept for everything that is not a client socket. */
export const RESERVED_DESCRIPTORS = 256;

/** The soft "Max open files" limit of this process (Linux), or undefined where /proc does not say. */
export function openFileLimit(limits: string | undefined = readProcLimits()): number | undefined {
  const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(limits ?? '');
  return match && match[1] !== 'unlimited' ? Number(match[1]) : undefined;
}

function readProcLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

export function connectionCap(configured: number, fileLimit: number | undefined): number {
  if (fileLimit === undefined) return configured;
  return Math.max(1, Math.min(configured, fileLimit - RESERVED_DESCRIPTORS));
}
