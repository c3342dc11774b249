/**
 * `cache sync|status|changes|clear`: the offline cache of this run's connection (a profile, or
 * the REPORT_DESK_API_KEY connection, whose cache is kept apart per base URL and key).
 */
import type { SyncProgress } from '../../shared/contract';
import { UsageError } from './args';
import { changesText } from './changesFormat';
import { text, type CliCommand } from './context';
import { cacheStatusText, display, syncProgressLine, syncSummaryText, toJson } from './format';
import type { ConnectionTarget } from './connection';
import { cliTimeZone, parseTimeArgument } from './timeArgument';

/** Whose offline copy a command reads, in words. */
export function whose(target: ConnectionTarget): string {
  return target.kind === 'profile'
    ? `the profile "${display(target.profile.name)}"`
    : `REPORT_DESK_API_KEY at ${display(target.baseUrl)}`;
}

export const CACHE_COMMANDS: CliCommand[] = [
  {
    words: ['cache', 'sync'],
    positionals: [],
    options: ['quick', 'profile'],
    summary:
      'Make every report available offline (progress on stderr; resumes where it stopped); --quick checks only the newest.',
    async run({ io, options, json, connect }) {
      const core = await connect();
      const unsubscribe = json
        ? undefined
        : core.events.subscribe((event, payload) => {
            if (event !== 'sync:progress') return;
            const line = syncProgressLine(payload as SyncProgress);
            if (line) io.stderr.write(line);
          });
      try {
        const summary = await core.handlers['cache:sync']({ quick: options.quick === true });
        io.stdout.write(json ? toJson(summary) : syncSummaryText(summary, whose(core.target)));
      } finally {
        unsubscribe?.();
      }
    },
  },
  {
    words: ['cache', 'status'],
    positionals: [],
    options: ['profile'],
    summary: 'Show how many reports are cached, the file size and the last full sync.',
    async run({ io, json, connect }) {
      const core = await connect();
      const status = await core.handlers['cache:status'](undefined);
      io.stdout.write(
        json ? toJson(status) : cacheStatusText(status, whose(core.target), io.now?.() ?? new Date()),
      );
    },
  },
  {
    words: ['cache', 'changes'],
    positionals: [],
    options: ['since', 'profile'],
    summary: 'List what syncs and refreshes found changed on the service, newest first (kept 30 days).',
    async run({ io, options, json, connect }) {
      const given = text(options, 'since');
      const since =
        given === undefined
          ? undefined
          : new Date(
              parseTimeArgument('since', given, io.now?.() ?? new Date(), cliTimeZone(io.env), [
                'cache',
                'changes',
              ]),
            ).toISOString();
      const core = await connect();
      const { changes } = await core.handlers['changes:list']({ since });
      io.stdout.write(json ? toJson({ changes }) : changesText(changes, whose(core.target), since));
    },
  },
  {
    words: ['cache', 'clear'],
    positionals: [],
    options: ['yes', 'profile'],
    summary: 'Delete the cached reports of the profile (confirm with --yes).',
    async run({ io, options, json, connect }) {
      if (options.yes !== true) {
        throw new UsageError(
          'Clearing the offline cache deletes every cached report of the profile (or of the REPORT_DESK_API_KEY connection); add --yes to confirm.',
          ['cache', 'clear'],
        );
      }
      const core = await connect();
      const status = await core.handlers['cache:clear'](undefined);
      io.stdout.write(json ? toJson(status) : `Cleared the offline cache of ${whose(core.target)}.\n`);
    },
  },
];
