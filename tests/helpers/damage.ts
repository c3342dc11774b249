/** Damage made to files the way disks and sync tools make it, for the tests of issue 30. */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';

/** Overwrites `bytes` in the middle of `file` with garbage (a bad sector, a sync tool's half write). */
export function overwriteMiddle(file: string, bytes = 8192): void {
  const size = statSync(file).size;
  const fd = openSync(file, 'r+');
  try {
    const garbage = Buffer.alloc(bytes, 0xa5);
    for (let i = 0; i < bytes; i += 7) garbage[i] = (i * 31) & 0xff;
    writeSync(fd, garbage, 0, bytes, Math.max(100, Math.floor(size / 2) - bytes / 2));
  } finally {
    closeSync(fd);
  }
}
