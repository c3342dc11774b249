/**
 * ReportCache.open keeps aside only a file that IS damaged: a file another process holds
 * locked (SQLITE_BUSY), or a path it cannot open at all, is an error for the caller, and the
 * healthy cache and its data stay where they are; a new file locked for a moment is waited for,
 * within the open's 5 s. The lock is held by a real second process.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { createLogger, memorySink } from '../../electron/core/log';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-reportcache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const asideFiles = () => readdirSync(dir).filter((name) => name.includes('.corrupt-'));

function thrownBy(run: () => unknown): Error & { code?: string } {
  try {
    run();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected ReportCache.open to fail');
}

/**
 * Starts the lock holder and resolves once it holds the write lock (BEGIN EXCLUSIVE, or
 * IMMEDIATE); it lets go on release(), or by itself after `releaseAfterMs`.
 */
async function holdWriteLock(
  file: string,
  mode: 'EXCLUSIVE' | 'IMMEDIATE' = 'EXCLUSIVE',
  releaseAfterMs?: number,
) {
  const args = [file, mode, ...(releaseAfterMs === undefined ? [] : [String(releaseAfterMs)])];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../fixtures/sqliteLockHolder.ts'), ...args],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the lock holder exited early (${code})`)));
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
  });
  return {
    release: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

describe('ReportCache.open and errors that are not damage', () => {
  it('a busy database is never moved aside: the caller gets the error, the data stays', async () => {
    const file = join(dir, 'cache.sqlite');
    const cache = ReportCache.open(file);
    cache.putReports('p', [{ id: '1', url: 'https://kept.example.org' }], new Date().toISOString());
    cache.close();

    const lock = await holdWriteLock(file);
    const sink = memorySink();
    let error: Error & { code?: string };
    try {
      // Waits out the cache's busy time-out (5 s), then gives up.
      error = thrownBy(() => ReportCache.open(file, { logger: createLogger('test', sink) }));
    } finally {
      await lock.release();
    }
    expect(error.code).toBe('SQLITE_BUSY');
    expect(asideFiles()).toEqual([]);
    expect(sink.lines.join('\n')).not.toMatch(/damaged/);

    const reopened = ReportCache.open(file);
    try {
      expect(reopened.getReport('p', '1')?.report.url).toBe('https://kept.example.org');
    } finally {
      reopened.close();
    }
  });

  // A new file is in rollback mode until it is switched to WAL. While another program holds its
  // write lock, SQLite answers the switch with SQLITE_BUSY at once, without the busy handler
  // (https://www.sqlite.org/c3ref/busy_handler.html): the open retries it instead.
  it('a new file another program is writing for a moment: open retries the switch to WAL and opens', async () => {
    const file = join(dir, 'cache.sqlite');
    const lock = await holdWriteLock(file, 'IMMEDIATE', 300);
    try {
      const cache = ReportCache.open(file);
      cache.putReports('p', [{ id: '1', url: 'https://written.example.org' }], new Date().toISOString());
      expect(cache.getReport('p', '1')?.report.url).toBe('https://written.example.org');
      cache.close();
    } finally {
      await lock.release();
    }
    const check = new Database(file, { readonly: true });
    try {
      expect(check.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      check.close();
    }
  });

  it('a new file another program keeps locked: open gives up after its 5 s and nothing is moved aside', async () => {
    const file = join(dir, 'cache.sqlite');
    const lock = await holdWriteLock(file, 'IMMEDIATE');
    const started = Date.now();
    let error: Error & { code?: string };
    try {
      error = thrownBy(() => ReportCache.open(file));
    } finally {
      await lock.release();
    }
    expect(error.code).toBe('SQLITE_BUSY');
    // Bounded both ways: it did wait (not the first SQLITE_BUSY), and it came back.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(asideFiles()).toEqual([]);
    ReportCache.open(file).close();
  });

  it('a path that cannot be opened as a file (a folder) is never moved aside', () => {
    const file = join(dir, 'cache.sqlite');
    mkdirSync(file);
    writeFileSync(join(file, 'inside.txt'), 'kept');
    const error = thrownBy(() => ReportCache.open(file));
    // EISDIR from creating the file 0600 before SQLite opens it; SQLITE_CANTOPEN from SQLite.
    expect(['EISDIR', 'SQLITE_CANTOPEN']).toContain(error.code);
    expect(asideFiles()).toEqual([]);
    expect(readdirSync(file)).toEqual(['inside.txt']);
  });
});
