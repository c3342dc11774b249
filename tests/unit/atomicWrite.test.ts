import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../electron/core/atomicWrite';

const posix = process.platform !== 'win32';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('creates the file 0600 with the content, and leaves nothing else beside it', () => {
    const file = join(dir, 'state.json');
    writeFileAtomic(file, '{"a":"é"}');
    expect(readFileSync(file, 'utf8')).toBe('{"a":"é"}');
    if (posix) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('replaces an existing file whole and narrows a wider mode to 0600', () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old content that is longer than the new one', { mode: 0o644 });
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    if (posix) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('answers the stats of the file it published', () => {
    const file = join(dir, 'state.json');
    const stats = writeFileAtomic(file, 'x'.repeat(100));
    expect(stats.ino).toBe(statSync(file).ino);
    expect(stats.size).toBe(100);
  });

  it('throws the file system error and keeps what was there when the rename cannot happen', () => {
    // A folder where the file should go: the rename fails after the temporary file was written.
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    expect(() => writeFileAtomic(target, 'new')).toThrow(
      expect.objectContaining({ code: expect.any(String) }),
    );
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('throws ENOENT when the folder is missing (it never creates folders)', () => {
    expect(() => writeFileAtomic(join(dir, 'missing', 'state.json'), 'x')).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});
