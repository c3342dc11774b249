/**
 * Where a damaged file is kept (issue 30): `<file>.corrupt-<time>` beside it, the time in UTC
 * without separators, so the names sort by when. Two set aside in the same millisecond (two
 * processes, or a damaged file and its replacement at once) get `-2`, `-3`… rather than one
 * overwriting the other.
 */
import { existsSync } from 'node:fs';

export function asideName(file: string, now = new Date()): string {
  const first = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '')}`;
  let name = first;
  for (let n = 2; existsSync(name); n++) name = `${first}-${n}`;
  return name;
}
