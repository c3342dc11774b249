/** The command table and the help text around it (`report-desk help [TOPIC]`). */
import type { Grammar } from './args';
import { CACHE_COMMANDS } from './cacheCommands';
import { PROGRAM, type CliCommand } from './context';
import { DATA_DIR_ENV } from './dataDir';
import { HISTORY_COMMANDS } from './historyCommands';
import { GLOBAL_OPTIONS, OPTIONS } from './options';
import { PROFILE_COMMANDS } from './profileCommands';
import { REPORT_COMMANDS } from './reportCommands';
import { KEYCHAIN_SERVICE_ENV, RETRY_BASE_ENV, SYNC_LEASE_ENV } from './session';

const EPILOGUE = `Connection:
  With REPORT_DESK_API_KEY set (and no --profile), requests use that key and --base-url or
  REPORT_DESK_BASE_URL; their offline cache is kept apart per base URL and key (the key itself
  is never stored). Otherwise the profile named by --profile, else the active profile, is
  used with its key from the system keychain. An explicit --profile wins: the environment's
  key is then ignored.

Profiles:
  Shared with the desktop app (same data folder, same keychain entries). profiles add reads
  the key from stdin, one line: printf %s "$KEY" | ${PROGRAM} profiles add NAME --base-url URL.
  The key is checked with the service first: rejected, it is exit 3 and nothing is saved.
  When the system keychain cannot be used (locked, or no Secret Service), exit 8.

Offline:
  When the service cannot be reached, account, reports list and reports get answer from the
  offline cache: exit 0, a note with the cache's age on stderr, and in JSON "source": "cache"
  with "cached_at". reports list --json keeps its shape ({data, page, per_page, total, source,
  cached_at}); account and reports get --json print {"data": RECORD, "source": "cache",
  "cached_at": TIME} instead of the bare record. --no-cache turns this off (exit 6). Changes
  are never queued: while the service cannot be reached they fail with exit 6.

Keeping the copy current:
  cache sync reads every report; a list that changes while it is read is read again (three
  reads at most), and the copy is called complete ("complete": true) only after one steady
  read; otherwise it says the copy may be incomplete and removes nothing. cache sync --quick
  reads only the newest reports, down to what the copy already has (one request when nothing
  is new; "complete": false). --json adds "added", "changed", "removed", "complete", "passes"
  and "requests" to the summary. Both share one lease per profile with the desktop app: while
  one runs, another is exit 9. cache changes lists what they found (new reports; result,
  privacy, URL, project or date changes; reports gone), newest first, kept 30 days and 10,000
  per profile; --json prints {"changes": [{"id", "kind", "at", "fields": {FIELD: {"before",
  "after"}}}]}.

When the computer fails:
  A damaged offline copy is set aside and started afresh (the next sync refills it); the
  change log, seen marks, profiles and settings live apart from it and are kept. A damaged
  profiles file is restored from profiles.json.backup; without one, every command says so
  until profiles reset --yes starts a new list. profiles orphans lists keys in the keychain
  that no profile names (--restore brings their profiles back, --remove --yes deletes them).
  A command killed part way leaves nothing that holds the next one back.

History (from the offline copy only, so it works with the service down):
  A URL's result at a time is the result of its newest report generated at or before it (the
  larger id wins a tie); with --project, a URL is the project's while that report is. Periods
  are calendar days, ISO weeks (Monday first) or months in the local time zone (TZ where
  set), start inclusive, end exclusive. TIME is a date (its local midnight), a date and time
  (local, or with an offset) or an age (30m, 12h, 7d); cache changes --since reads it the same
  way. Reports without a readable generated_at or with another result are not counted.
  cache history --json prints {"by", "project", "periods": [{"start", "end", "urls": {"good",
  "decent", "bad"}, "generated": {...}}]} (urls by their result at the period's end, generated
  within it); cache timeline URL --json prints {"url", "reports": [{"id", "generated_at",
  "result", "privacy"}], "transitions": [{"id", "generated_at", "from", "to"}]} (a URL with no
  report in the copy is exit 4); cache compare --from TIME --to TIME --json prints {"from",
  "to", "changes": [{"url", "before", "after", "beforeId", "afterId"}]} ("before" null: no
  report yet). History needs one full cache sync first.

Environment:
  REPORT_DESK_API_KEY        the API key (never given as an argument); see Connection
  REPORT_DESK_BASE_URL       the base URL when --base-url is not given
  ${DATA_DIR_ENV}       the data folder when --data-dir is not given (default: the
                             desktop app's folder, e.g. ~/.config/ReportDesk on Linux)
  ${RETRY_BASE_ENV}  first retry delay in milliseconds (default 300; tests set it low)
  ${SYNC_LEASE_ENV}  how long a cache sync's claim outlives a killed process, in
                             milliseconds (default 20000; tests set it low)
  TZ                         the local time zone for history and --since (default: the
                             system's)
  ${KEYCHAIN_SERVICE_ENV}
                             the keychain service of the API keys (default ReportDesk,
                             the desktop app's; tests give each run its own)

Exit codes:
  0 success   2 invalid usage or input   3 key rejected or missing   4 not found
  5 input rejected by the service   6 network error, time-out, or offline
  7 still rate-limited after retries
  8 other service error or bad response, the system keychain could not be used, the disk
    is full, the data folder cannot be written to, or the profiles file is damaged
  9 a cache sync of the same profile is already running in another window or command,
    or another one kept the profiles locked for over 10 seconds`;

export const GRAMMAR: Grammar<CliCommand> = {
  program: PROGRAM,
  options: OPTIONS,
  globalOptions: GLOBAL_OPTIONS,
  commands: [...REPORT_COMMANDS, ...PROFILE_COMMANDS, ...CACHE_COMMANDS, ...HISTORY_COMMANDS],
  epilogue: EPILOGUE,
};

export function usageHint(topic: readonly string[]): string {
  return `Run "${[PROGRAM, 'help', ...topic].join(' ')}" for usage.`;
}
