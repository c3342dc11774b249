/**
 * A small file system of its own for the disk's faults: a tmpfs of a given size (a disk that
 * fills up) that can be remounted read-only (EROFS, which root meets too). Mounting needs root
 * (or CAP_SYS_ADMIN); `tmpfsUnavailable()` says why it cannot be had here, for the skip line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/** `reportdesk-tmpfs-<pid of the test process>-<random>`: a mount whose process is gone can be told. */
const MOUNT_NAME = /\/reportdesk-tmpfs-(\d+)-[^/\s]+$/;

/**
 * Unmounts the tmpfs mounts of test processes that were killed before their `finally` ran
 * (a test runner stopped on a time-out: mutation testing does it).
 */
function sweepLeftMounts(): void {
  let mounts: string;
  try {
    mounts = readFileSync('/proc/mounts', 'utf8');
  } catch {
    return;
  }
  for (const line of mounts.split('\n')) {
    const target = line.split(' ')[1] ?? '';
    const pid = MOUNT_NAME.exec(target)?.[1];
    if (pid === undefined || processRuns(Number(pid))) continue;
    try {
      execFileSync('umount', ['-l', target], { stdio: 'pipe' });
      rmSync(target, { recursive: true, force: true });
    } catch {
      // Another process's sweep took it first.
    }
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function mountTmpfs(bytes: number): Tmpfs {
  sweepLeftMounts();
  const dir = mkdtempSync(join(tmpdir(), `reportdesk-tmpfs-${process.pid}-`));
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
