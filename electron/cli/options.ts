/** Every option of the `report-desk` commands, with its help line; the global ones apart. */
import {
  PER_PAGE_VALUES,
  PRIVACY_NAMES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
} from '../../shared/report';
import { PERIOD_KINDS } from '../../shared/calendar';
import { EXPORT_FORMATS } from '../core/export/exporter';
import type { OptionSpec } from './args';
import { DATA_DIR_ENV } from './dataDir';

function option(name: string, description: string, value?: string, choices?: readonly string[]): OptionSpec {
  return { name, description, value, choices };
}

export const OPTIONS: Record<string, OptionSpec> = {
  'base-url': option(
    'base-url',
    'Report Service address, with REPORT_DESK_API_KEY (default: $REPORT_DESK_BASE_URL) or for profiles add',
    'URL',
  ),
  'data-dir': option(
    'data-dir',
    `where profiles and the offline cache live (default: $${DATA_DIR_ENV}, else the app's folder)`,
    'DIR',
  ),
  timeout: option('timeout', 'seconds to wait for each request (default 15)', 'SECONDS'),
  'allow-insecure-http': option(
    'allow-insecure-http',
    'allow plain http:// to a host other than this computer',
  ),
  json: option('json', 'print only JSON on stdout, for scripts'),
  verbose: option('verbose', 'log each request to stderr'),
  help: option('help', 'show help'),
  profile: option('profile', 'use this profile (else the active one); wins over REPORT_DESK_API_KEY', 'NAME'),
  'no-cache': option('no-cache', 'never answer from the offline cache: an unreachable service is exit 6'),
  search: option('search', 'only reports whose URL contains TEXT', 'TEXT'),
  'search-by': option('search-by', 'the field --search looks in', 'FIELD', ['url']),
  project: option('project', 'only reports of project NAME', 'NAME'),
  result: option('result', 'only reports with this result', 'RESULT', REPORT_RESULTS),
  'sort-by': option('sort-by', 'sort field (default id)', 'FIELD', SORT_BY_VALUES),
  sort: option('sort', 'sort direction (default desc)', 'DIR', SORT_VALUES),
  'per-page': option(
    'per-page',
    'reports per page (default 10; 100 with --all)',
    'N',
    PER_PAGE_VALUES.map(String),
  ),
  page: option('page', 'page number (default 1)', 'N'),
  all: option('all', 'follow every page from --page on'),
  url: option('url', 'the address to analyse', 'URL'),
  privacy: option('privacy', 'who may see the report', 'PRIVACY', PRIVACY_NAMES),
  'password-stdin': option('password-stdin', 'read the report password from stdin (with --privacy password)'),
  results: option('results', 'the service’s results flag', 'YESNO', ['yes', 'no']),
  yes: option('yes', 'confirm the deletion or the new start (it cannot be undone)'),
  format: option(
    'format',
    'table (default), or csv / json as the app exports them; csv and json default from --output’s extension',
    'FORMAT',
    ['table', ...EXPORT_FORMATS],
  ),
  output: option('output', 'write the list to FILE (replaced atomically, readable by you only)', 'FILE'),
  quick: option('quick', 'only the newest reports, down to what the offline copy already has'),
  restore: option('restore', 'bring back the profiles the orphaned keys belonged to, where they are known'),
  remove: option('remove', 'delete the orphaned keys from the keychain (confirm with --yes)'),
  since: option(
    'since',
    'from TIME: a date (its local midnight), a date and time (local, or with an offset), or an age (30m, 12h, 7d)',
    'TIME',
  ),
  until: option('until', 'up to TIME (default now), read as --since is', 'TIME'),
  by: option('by', 'the length of each period (default week)', 'PERIOD', PERIOD_KINDS),
  from: option('from', 'the first time to compare, read as --since is', 'TIME'),
  to: option('to', 'the second time to compare, read as --since is', 'TIME'),
};

/** Options every command accepts. */
export const GLOBAL_OPTIONS = [
  'base-url',
  'data-dir',
  'timeout',
  'allow-insecure-http',
  'json',
  'verbose',
  'help',
];
