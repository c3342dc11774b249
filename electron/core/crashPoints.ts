/**
 * Named crash points, for the reliability tests: with `REPORT_DESK_CRASH_AT=<point>` (or
 * `<point>@<n>`, the n-th time it is reached) the process kills itself with SIGKILL right there,
 * as `kill -9` or a power cut would stop it. Nothing happens unless an entry point armed them:
 * the CLI, the browser preview and the tests do; the Electron main process only when the app
 * is not packaged (`app.isPackaged`), so an installed ReportDesk never reads the variable.
 */

/** Every place a test may stop a process, in the order the work meets them (docs/ARCHITECTURE.md). */
export const CRASH_POINTS = [
  // profiles add: the pending record written, the key not yet in the keychain
  'profiles.pending-written',
  // profiles add: the key in the keychain, the profile not yet in profiles.json
  'profiles.key-stored',
  // every profiles change: the backup holds the previous list, profiles.json not yet replaced
  'profiles.backup-written',
  // profiles remove: the profile gone from profiles.json, its key not yet from the keychain
  'profiles.profile-removed',
  // a key replaced (set key, a new address): the new key stored, profiles.json not yet told
  'keys.key-replaced',
  // an atomic write (profiles, settings, exports): half the temporary file written
  'atomic-write.half-written',
  // an atomic write: the temporary file complete and fsynced, not yet renamed over the target
  'atomic-write.before-rename',
  // full sync: a batch of pages and the progress written inside the transaction, not committed
  'sync.batch-written',
  // full sync: the batch committed, the progress not yet reported (stdout / the window)
  'sync.batch-committed',
  // full sync: the whole list read, nothing pruned yet
  'sync.before-prune',
  // quick refresh: a page committed
  'refresh.page-committed',
  // a write that found changes: the cache and its outbox committed, the change log not yet
  'changes.outbox-committed',
  // the change log committed, the cache's outbox not yet emptied
  'changes.log-committed',
  // export: the walk done, the file about to be written
  'export.before-write',
  // cache clear: the rows deleted inside the transaction, not committed
  'cache.clearing',
  // a damaged SQLite file (the cache, local.sqlite) renamed aside, the new one not yet created
  'file.set-aside',
  // an update download: the first bytes written to its temporary file
  'update.downloading',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

export const CRASH_AT_ENV = 'REPORT_DESK_CRASH_AT';

/** SIGKILL, as kill -9: no handler, no finally block, no flush — exactly what a crash leaves. */
const killThisProcess = () => process.kill(process.pid, 'SIGKILL');

let target: { point: string; remaining: number; kill: () => void } | null = null;

/**
 * Arms the crash point named in `env` (a test build's entry point calls this; the packaged app
 * never does). An empty or absent variable disarms; a name that is no crash point is refused,
 * so a typo in a test cannot pass for a crash that never came. `kill` is for this module's own
 * tests, which must outlive the point they reach.
 */
export function armCrashPoints(
  env: Readonly<Record<string, string | undefined>>,
  kill: () => void = killThisProcess,
): void {
  const raw = env[CRASH_AT_ENV];
  if (raw === undefined || raw === '') {
    target = null;
    return;
  }
  const match = /^([a-z.-]+)(?:@([1-9]\d*))?$/.exec(raw);
  if (!match || !(CRASH_POINTS as readonly string[]).includes(match[1])) {
    target = null;
    throw new Error(
      `${CRASH_AT_ENV}=${raw} names no crash point; the points are: ${CRASH_POINTS.join(', ')}.`,
    );
  }
  target = { point: match[1], remaining: Number(match[2] ?? '1'), kill };
}

/** Kills this process at once when it is the armed point's turn; otherwise does nothing. */
export function crashPoint(point: CrashPoint): void {
  if (target === null || target.point !== point) return;
  target.remaining -= 1;
  if (target.remaining === 0) target.kill();
}
