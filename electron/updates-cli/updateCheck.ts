/**
 * `npm run update-check -- --feed URL --current VERSION [--channel NAME] [--public-key FILE]
 * [--download DIR] [--json]`: the app's updater code without Electron (electron/core/updates/
 * updateCheck.ts), for releases and support. Exit 0 when the check worked (whether or not
 * there is an update), 2 for bad usage or a feed that is neither https nor this computer
 * (refused before any request), 6 when the feed cannot be read, 8 when a signature or checksum
 * is refused (nothing is then left in DIR).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { armCrashPoints } from '../core/crashPoints';
import { EntryUsageError, parseEntryArgs } from '../core/entryArgs';
import { createLogger } from '../core/log';
import { RELEASE_PUBLIC_KEYS } from '../core/updates/releaseKeys';
import { publicKeyFromPem, ReleaseKeyError } from '../core/updates/signatures';
import { runUpdateCheck, type UpdateCheckReport } from '../core/updates/updateCheck';
import { checkReasonSentence, keyProblemSentence } from './words';

const USAGE =
  'Usage: npm run update-check -- --feed URL --current VERSION [--channel NAME] [--public-key FILE] [--download DIR] [--json] [--verbose]';
const EXIT = { checked: 0, usage: 2, feed: 6, refused: 8 } as const;
const CHANNEL = /^[a-z0-9][a-z0-9-]{0,31}$/i;

function options(argv: string[]) {
  const values = parseEntryArgs(argv, {
    feed: { type: 'string' },
    current: { type: 'string' },
    channel: { type: 'string' },
    'public-key': { type: 'string' },
    download: { type: 'string' },
    json: { type: 'boolean' },
    verbose: { type: 'boolean' },
  });
  if (!values.feed) throw new EntryUsageError('--feed is required: the address of the update feed.');
  if (!values.current)
    throw new EntryUsageError('--current is required: the version to check from, such as 1.4.2.');
  const channel = values.channel ?? 'latest';
  if (!CHANNEL.test(channel))
    throw new EntryUsageError(`--channel must be a channel name such as latest or beta, not "${channel}".`);
  let downloadDir: string | null = null;
  if (values.download !== undefined) {
    downloadDir = resolve(values.download);
    let isDir = false;
    try {
      isDir = statSync(downloadDir).isDirectory();
    } catch {
      // Reported below.
    }
    if (!isDir) throw new EntryUsageError(`--download ${values.download} is not an existing folder.`);
  }
  return {
    ...values,
    feed: values.feed,
    current: values.current,
    channel,
    downloadDir,
    keys: keysFrom(values['public-key']),
  };
}

/** The app's embedded keys, or the one in --public-key (a feed signed with a staging key). */
function keysFrom(file: string | undefined): KeyObject[] {
  if (file === undefined) return RELEASE_PUBLIC_KEYS.map(publicKeyFromPem);
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch {
    throw new EntryUsageError(`--public-key ${file} cannot be read.`);
  }
  try {
    return [publicKeyFromPem(pem)];
  } catch (thrown) {
    if (thrown instanceof ReleaseKeyError)
      throw new EntryUsageError(keyProblemSentence('--public-key', file, thrown.problem));
    throw thrown;
  }
}

function sentence(report: UpdateCheckReport, feed: string, current: string): string {
  if (report.reason !== null) return checkReasonSentence(report.reason, feed);
  const found = `ReportDesk ${report.version} is available (this is ${current}); its manifest is signed by a trusted release key.`;
  return report.downloaded ? `${found} Downloaded and checked against its sha512: ${report.file}` : found;
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof options>;
  try {
    parsed = options(argv);
  } catch (thrown) {
    if (!(thrown instanceof EntryUsageError)) throw thrown;
    console.error(thrown.message);
    console.error(USAGE);
    return EXIT.usage;
  }
  // Never packaged: the reliability tests may stop a download (REPORT_DESK_CRASH_AT).
  armCrashPoints(process.env);
  const report = await runUpdateCheck({
    feed: parsed.feed,
    currentVersion: parsed.current,
    channel: parsed.channel,
    publicKeys: parsed.keys,
    downloadDir: parsed.downloadDir,
    logger: parsed.verbose ? createLogger('update-check', (line) => console.error(line), 'debug') : undefined,
  });
  if (parsed.json) {
    const { available, version, downloaded, verified, reason } = report;
    console.log(JSON.stringify({ available, version, downloaded, verified, reason }));
  } else {
    const line = sentence(report, parsed.feed, parsed.current);
    if (report.outcome === 'checked') console.log(line);
    else console.error(line);
  }
  return EXIT[report.outcome];
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (thrown: unknown) => {
    console.error(`update-check failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    process.exit(1);
  },
);
