/**
 * node:fs with its durability calls recorded (open, fsync, rename, chmod), each still done by
 * the real node:fs: what only a power cut would show (a skipped fsync, one out of order) is read
 * from the record instead. A test file mocks node:fs with it:
 *
 *   vi.mock('node:fs', async (importOriginal) =>
 *     (await import('../helpers/recordedFs')).recordedFs(await importOriginal()));
 *
 * and reads `fsCalls` ("open <path>", "fsync <path the fd was opened with>", "rename <from> <to>",
 * "chmod <path> <octal mode>"), emptying it in beforeEach.
 */
import type * as NodeFs from 'node:fs';
import { vi } from 'vitest';

export const fsCalls: string[] = [];

export function recordedFs(fs: typeof NodeFs): typeof NodeFs {
  /** What each open fd is, by the path it was opened with. */
  const opened = new Map<number, string>();
  return {
    ...fs,
    openSync: vi.fn((path: string, ...rest: [string, number?]) => {
      const fd = fs.openSync(path, ...rest);
      opened.set(fd, path);
      fsCalls.push(`open ${path}`);
      return fd;
    }),
    fsyncSync: vi.fn((fd: number) => {
      fsCalls.push(`fsync ${opened.get(fd) ?? fd}`);
      fs.fsyncSync(fd);
    }),
    renameSync: vi.fn((from: string, to: string) => {
      fsCalls.push(`rename ${from} ${to}`);
      fs.renameSync(from, to);
    }),
    chmodSync: vi.fn((path: string, mode: number) => {
      fsCalls.push(`chmod ${path} ${mode.toString(8)}`);
      fs.chmodSync(path, mode);
    }),
  } as typeof NodeFs;
}
