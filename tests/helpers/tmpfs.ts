/**
 * A small file system of its own for the disk's faults: a tmpfs of a given size (a disk that
 * fills up) that can be remounted read-only (EROFS, which root meets too). Mounting needs root
 * (or CAP_SYS_ADMIN); `tmpfsUnavailable()` says why it cannot be had here, for the skip line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { skipWhen } from './skip';

export interface Tmpfs {
  dir: string;
  remount(mode: 'ro' | 'rw'): void;
  unmount(): void;
}

let unavailable: string | null | undefined;

/** Why a tmpfs cannot be mounted here, or null when it can (tried once). */
export function tmpfsUnavailable(): string | null {
  if (unavailable !== undefined) return unavailable;
  if (process.platform !== 'linux') return (unavailable = 'tmpfs mounts are Linux only');
  if (process.getuid?.() !== 0) return (unavailable = 'mounting a tmpfs needs root');
  try {
    mountTmpfs(64 * 1024).unmount();
    unavailable = null;
  } catch (error) {
    unavailable = `mount -t tmpfs is not permitted here (${String(error).split('\n')[0]})`;
  }
  return unavailable;
}

export function mountTmpfs(bytes: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'reportdesk-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  return {
    dir,
    remount: (mode) => execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' }),
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A test on a tmpfs of `bytes` of its own, unmounted after whatever happens; skipped, saying
 * why, where none can be mounted.
 */
export function onTmpfs(name: string, bytes: number, body: (disk: Tmpfs) => void | Promise<void>): void {
  const why = tmpfsUnavailable();
  it.skipIf(skipWhen(why !== null, why ?? ''))(name, async () => {
    const disk = mountTmpfs(bytes);
    try {
      await body(disk);
    } finally {
      disk.unmount();
    }
  });
}
