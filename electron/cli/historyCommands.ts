/**
 * `cache history`, `cache timeline URL` and `cache compare` (issue 27): history from the offline
 * copy only, never the network, so they answer with the service down. Times given are read by
 * ./timeArgument (local midnight for a date, TZ's zone); times printed carry their offset.
 */
import { formatInstant, type PeriodKind } from '../../shared/calendar';
import type { HistoryUnavailable } from '../../shared/contract';
import { AppFailure, englishOnlyError } from '../../shared/errors';
import { UsageError } from './args';
import { whose } from './cacheCommands';
import { PROGRAM, text, type CliCommand, type CommandContext } from './context';
import { display } from './format';
import {
  compareJson,
  compareText,
  periodsJson,
  periodsText,
  timelineJson,
  timelineText,
} from './historyFormat';
import { cliTimeZone, parseTimeArgument } from './timeArgument';

const FILL = `fill it with "${PROGRAM} cache sync"`;

/** The sentence for a copy with nothing to make a history of. */
function emptyNote(reason: HistoryUnavailable['reason'] | 'empty', of: string): string {
  return reason === 'empty'
    ? `The offline copy of ${of} holds no reports to make a history of; ${FILL}.\n`
    : `The offline copy of ${of} was never read in full, so it has no history yet; ${FILL}.\n`;
}

/** The time options given, read in this run's zone, as ISO 8601 with its offset. */
function times(context: CommandContext, names: readonly string[], topic: readonly string[]) {
  const timeZone = cliTimeZone(context.io.env);
  const now = context.io.now?.() ?? new Date();
  const read: Record<string, number | undefined> = {};
  for (const name of names) {
    const given = text(context.options, name);
    read[name] = given === undefined ? undefined : parseTimeArgument(name, given, now, timeZone, topic);
  }
  const iso = (name: string) => (read[name] === undefined ? undefined : formatInstant(read[name], timeZone));
  return { timeZone, read, iso };
}

const HISTORY = ['cache', 'history'];
const COMPARE = ['cache', 'compare'];

export const HISTORY_COMMANDS: CliCommand[] = [
  {
    words: HISTORY,
    positionals: [],
    options: ['project', 'by', 'since', 'until', 'profile'],
    summary:
      'URLs per result at the end of each week (or day, month) and the reports generated in it, from the offline copy.',
    async run(context) {
      const { io, options, json, connect } = context;
      const { timeZone, read, iso } = times(context, ['since', 'until'], HISTORY);
      if (read.since !== undefined && read.until !== undefined && read.since >= read.until) {
        throw new UsageError('--since must be before --until.', HISTORY);
      }
      const by = (text(options, 'by') ?? 'week') as PeriodKind;
      const project = text(options, 'project') ?? null;
      const core = await connect();
      const since = iso('since');
      const until = iso('until');
      const answer = await core.handlers['history:periods']({ by, project, since, until, timeZone });
      if (!answer.available || answer.periods.length === 0) {
        const note = emptyNote(answer.available ? 'empty' : answer.reason, whose(core.target));
        if (json) io.stderr.write(note);
        io.stdout.write(json ? periodsJson(by, project, []) : note);
        return;
      }
      io.stdout.write(
        json ? periodsJson(by, project, answer.periods) : periodsText(answer, whose(core.target)),
      );
    },
  },
  {
    words: ['cache', 'timeline'],
    positionals: ['URL'],
    options: ['profile'],
    summary: 'Every report of one URL in the offline copy, oldest first, and where its result changed.',
    async run({ io, positionals, json, connect }) {
      const [url] = positionals;
      const core = await connect();
      const answer = await core.handlers['history:timeline']({ url });
      const of = whose(core.target);
      if (!answer.available) {
        throw new AppFailure(englishOnlyError('not_found', emptyNote(answer.reason, of).trimEnd()));
      }
      if (answer.reports.length === 0) {
        throw new AppFailure(
          englishOnlyError(
            'not_found',
            `The offline copy of ${of} holds no report of ${display(url)} with a readable date and result; check the URL (it must match exactly), or ${FILL}.`,
          ),
        );
      }
      io.stdout.write(json ? timelineJson(answer) : timelineText(answer, of));
    },
  },
  {
    words: COMPARE,
    positionals: [],
    options: ['from', 'to', 'project', 'profile'],
    required: ['from', 'to'],
    summary: 'The URLs whose result differs between two times, with the reports before and after.',
    async run(context) {
      const { io, options, json, connect } = context;
      const { timeZone, read, iso } = times(context, ['from', 'to'], COMPARE);
      if (read.from! > read.to!) throw new UsageError('--from must not be after --to.', COMPARE);
      const [from, to] = [iso('from')!, iso('to')!];
      const project = text(options, 'project') ?? null;
      const core = await connect();
      const answer = await core.handlers['history:compare']({ from, to, project, timeZone });
      if (!answer.available) {
        const note = emptyNote(answer.reason, whose(core.target));
        if (json) io.stderr.write(note);
        io.stdout.write(json ? compareJson(from, to, []) : note);
        return;
      }
      io.stdout.write(
        json ? compareJson(answer.from, answer.to, answer.changes) : compareText(answer, whose(core.target)),
      );
    },
  },
];
