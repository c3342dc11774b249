/**
 * How a core knows that an earlier run on its data folder did not end cleanly: every running
 * core keeps a marker file in `run/` (named after its process, ./processOwner.ts) and removes
 * it when it closes. A marker whose process is gone is a run that was killed or crashed: the
 * next core checks its SQLite files before trusting them and removes the marker. Markers of
 * processes that still run (the app beside a CLI command) are left alone.
 */
import { closeSync, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ownerIsGone, ownerToken } from './processOwner';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './privateFiles';

export const RUN_FOLDER = 'run';

export interface RunMarker {
  /** True when a marker of a process that is gone was found (and removed). */
  readonly uncleanEnd: boolean;
  /** Removes this run's marker (a clean end). */
  end(): void;
}

/** Starts this core's run in `dataDir`; never throws (a read-only folder keeps no marker). */
export function startRun(dataDir: string): RunMarker {
  const folder = join(dataDir, RUN_FOLDER);
  let uncleanEnd = false;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    // No folder yet: no run before this one kept a marker.
    // Stryker disable next-line ArrayDeclaration: [] → ["Stryker was here"] (its only direction): a name that is no owner token is never judged gone (ownerIsGone answers false), so the loop removes nothing and notices nothing.
    names = [];
  }
  for (const name of names) {
    if (!ownerIsGone(name.split('.')[0])) continue;
    uncleanEnd = true;
    try {
      rmSync(join(folder, name));
    } catch {
      // Removed by another core meanwhile, or a read-only folder (the next core that can write removes it).
    }
  }
  let marker: string | null = join(folder, `${ownerToken()}.${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    closeSync(openSync(marker, 'wx', PRIVATE_FILE_MODE));
  } catch {
    marker = null;
  }
  return {
    uncleanEnd,
    end() {
      if (marker) rmSync(marker, { force: true });
      marker = null;
    },
  };
}
