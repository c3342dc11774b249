/**
 * Node's readdirSync answers names sorted on Linux (libuv sorts them), but nothing promises it:
 * on Windows a FAT or exFAT folder answers them in the order they were made. Here node:fs
 * answers every listing in reverse order, and the damaged copies kept beside a file
 * (sqliteFile.ts, profilesFile.ts) are still pruned and listed newest first by their names.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { damagedCopies } from '../../electron/core/profiles/profilesFile';
import { pruneSetAside } from '../../electron/core/sqliteFile';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    readdirSync: ((...args: Parameters<typeof fs.readdirSync>) =>
      (fs.readdirSync(...args) as unknown[]).reverse()) as typeof fs.readdirSync,
  };
});

const DAYS = ['2026-01-03', '2026-01-01', '2026-01-05', '2026-01-02', '2026-01-04'];
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-unsorted-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a folder that answers its names unsorted', () => {
  it('answers them in reverse here (the stand-in works)', () => {
    for (const name of ['a', 'b', 'c']) writeFileSync(join(dir, name), name);
    expect(readdirSync(dir)).toEqual(['c', 'b', 'a']);
  });

  it('a database file’s set-aside copies: the newest two are kept', () => {
    for (const day of DAYS) writeFileSync(join(dir, `data.sqlite.corrupt-${day}T000000000Z`), day);
    pruneSetAside(join(dir, 'data.sqlite'), 2);
    expect(readdirSync(dir).sort()).toEqual([
      'data.sqlite.corrupt-2026-01-04T000000000Z',
      'data.sqlite.corrupt-2026-01-05T000000000Z',
    ]);
  });

  it('the profiles file’s damaged copies are listed newest first', () => {
    const file = join(dir, 'profiles.json');
    for (const day of DAYS) writeFileSync(`${file}.corrupt-${day}T000000000Z`, day);
    expect(damagedCopies(file).map((path) => readFileSync(path, 'utf8'))).toEqual([
      '2026-01-05',
      '2026-01-04',
      '2026-01-03',
      '2026-01-02',
      '2026-01-01',
    ]);
  });
});
