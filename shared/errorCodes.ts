/**
 * Every error a person can meet in the app, by code: its kind and its English sentence. The
 * code is the error's message id in the catalogues (`errors.<code>`), so the renderer words it
 * in the user's language from the code and its values; the English sentence here is what the CLI
 * prints and the logs keep. tests/unit/i18n/errorWords.test.ts renders the English catalogue's
 * message for every code and checks it equals the sentence here, so the two never drift apart.
 *
 * Values are names, numbers and the service's own words (kept as sent), never a key or a
 * password. A value that picks a wording (`action`, `cause`, `problem`, `platform`, `store`) is an
 * ICU select in the catalogue; keep its keys in step there.
 */

export const ERROR_KINDS = [
  'invalid_input',
  'unauthorized',
  'forbidden',
  'not_found',
  'validation',
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  'bad_response',
  'insecure_url',
  'keychain_unavailable',
  'offline',
  'no_profile',
  'cancelled',
  'busy',
  /** The disk that holds the data (or an export) is full: details.folder, details.freeBytes. */
  'disk_full',
  /** The data folder (or an export's) cannot be written to: details.folder, details.code. */
  'read_only',
  /** A file ReportDesk keeps is damaged and could not be repaired by itself (reason, details). */
  'damaged',
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export type ErrorValue = string | number;

interface CodeEntry<V> {
  kind: ErrorKind;
  english: (values: V) => string;
}

/** What a request was for, as "not allowed to …" says it. */
export type RequestAction = 'list' | 'get' | 'create' | 'update' | 'delete' | 'account';

function actionWords(action: RequestAction, id: string): string {
  switch (action) {
    case 'list':
      return 'list reports';
    case 'get':
      return `read report ${id}`;
    case 'create':
      return 'create reports';
    case 'update':
      return `change report ${id}`;
    case 'delete':
      return `delete report ${id}`;
    case 'account':
      return 'read the account';
  }
}

/** Why a request never got an answer. */
export type NetworkCause = 'refused' | 'not_found' | 'bad_port' | 'certificate' | 'closed';

const CAUSE_WORDS: Record<NetworkCause, string> = {
  refused: 'the connection was refused',
  not_found: 'the host name was not found',
  bad_port: 'its port is one that web requests may not use; run the service on another port',
  certificate: 'its security certificate was not accepted',
  closed: 'the connection closed before an answer arrived',
};

/** What a 2xx reply held instead of what the endpoint returns. */
export type ReplyProblem =
  'empty' | 'not_json' | 'report' | 'list_report' | 'not_list' | 'not_report' | 'not_account';

function problemWords(problem: ReplyProblem, field: string, item: number): string {
  switch (problem) {
    case 'empty':
      return 'an empty reply where data was expected';
    case 'not_json':
      return 'something that is not JSON';
    case 'report':
      return `a report ReportDesk cannot read (field "${field}" is missing or invalid)`;
    case 'list_report':
      return `a report ReportDesk cannot read (item ${item}, field "${field}" is missing or invalid)`;
    case 'not_list':
      return 'data in an unexpected shape instead of a list of reports';
    case 'not_report':
      return 'data in an unexpected shape instead of a report';
    case 'not_account':
      return 'data in an unexpected shape instead of an account';
  }
}

type ReplyValues = { status: number; problem: ReplyProblem; field: string; item: number };

/** Which store's lock: the profiles (shared with CLI runs) or the update settings (windows only). */
export type LockedStoreName = 'profiles' | 'update_settings' | 'language_settings';

const STORE_WORDS: Record<LockedStoreName, { subject: string; busy: string }> = {
  profiles: {
    subject: 'The profiles',
    busy: 'The profiles are being changed by another ReportDesk window or command',
  },
  update_settings: {
    subject: 'The update settings',
    busy: 'The update settings are being changed by another ReportDesk window',
  },
  language_settings: {
    subject: 'The language setting',
    busy: 'The language setting is being changed by another ReportDesk window',
  },
};

/** Why the profiles file could not be used: it could not be read (with the system's code), or it is no profile list. */
export type UnusableProfilesFile =
  { reason: 'unreadable'; readCode: string } | { reason: 'not_json' | 'not_profiles' };

/** That reason as a clause (the sentence below; the profile store's log). */
export function unusableProfilesWords(why: {
  reason: UnusableProfilesFile['reason'];
  readCode?: string;
}): string {
  switch (why.reason) {
    case 'unreadable':
      return `it could not be read (${why.readCode})`;
    case 'not_json':
      return 'it is not valid JSON';
    case 'not_profiles':
      return 'its content is not a profile list ReportDesk understands';
  }
}

/** A damaged profiles file without a backup: what became of it. */
export type DamagedProfilesKept = 'copy' | 'as_is' | 'unmovable';

type ProfilesDamageValues = {
  file: string;
  asideAs: string;
  kept: DamagedProfilesKept;
  /** Why the file could not be moved (`unmovable`), else ''. */
  moveCode: string;
  reason: UnusableProfilesFile['reason'];
  /** The system's code when the file could not be read (`unreadable`), else ''. */
  readCode: string;
};

function keptWords(kept: DamagedProfilesKept, asideAs: string, moveCode: string): string {
  switch (kept) {
    case 'copy':
      return `A copy is kept as ${asideAs}`;
    case 'as_is':
      return 'It is kept as it is';
    case 'unmovable':
      return `It is kept as it is (it could not be moved: ${moveCode})`;
  }
}

/** Whose folder a storage failure is about: ReportDesk's data folder, or an export's. */
export type StoragePlaceName = 'data_folder' | 'export';

type DiskFullValues = {
  place: StoragePlaceName;
  folder: string;
  /** 'yes' when the system said how much is free (`freeMegabytes`). */
  freeKnown: 'yes' | 'no';
  freeMegabytes: number;
  /** 'yes' when the reports still available offline are known (`offlineReports`). */
  offlineKnown: 'yes' | 'no';
  offlineReports: number;
};

/**
 * "12.3 MB": one decimal at most, as the catalogue's skeleton. Made at each use (a rare error
 * sentence), not at import: a change to its options must show in the tests that word one.
 */
const megabytes = (value: number) =>
  new Intl.NumberFormat('en', {
    style: 'unit',
    unit: 'megabyte',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);

/** "1 report", "2,048 reports": a count before its noun, the number grouped as the catalogue's `#` prints it in English. */
const plural = (count: number, one: string, other: string) =>
  `${count.toLocaleString('en')} ${count === 1 ? one : other}`;

/** "at most 80 characters": a limit on a field's length. */
const characters = (max: number) => plural(max, 'character', 'characters');

/** "12 reports from 3 requests": how far a walk over the pages got. */
const taken = (reports: number, requests: number) =>
  `${plural(reports, 'report', 'reports')} from ${plural(requests, 'request', 'requests')}`;

const SESSION_ONLY = 'Or keep the key for this session only: it is then forgotten when ReportDesk quits.';
const BASE_URL_EXAMPLE = 'https://reports.example.com';

export const ERROR_CODES = {
  // ---- Each kind's own sentence, when nothing more precise is known -------------------------
  invalid_input: {
    kind: 'invalid_input',
    english: () => 'Some of the input is not valid. Check the highlighted fields and try again.',
  },
  unauthorized: {
    kind: 'unauthorized',
    english: () => 'The Report Service rejected the API key. Check the key, or replace it.',
  },
  forbidden: {
    kind: 'forbidden',
    english: () =>
      'The API key is not allowed to do this. Ask the account holder for access, or use another key.',
  },
  not_found: {
    kind: 'not_found',
    english: () => 'The report was not found. It may have been deleted; refresh the list.',
  },
  validation: {
    kind: 'validation',
    english: () => 'The Report Service did not accept the input. Check the highlighted fields.',
  },
  rate_limited: {
    kind: 'rate_limited',
    english: () => 'The Report Service is receiving too many requests. Wait a moment and try again.',
  },
  server_error: {
    kind: 'server_error',
    english: () => 'The Report Service had an internal problem. Try again in a moment.',
  },
  network: {
    kind: 'network',
    english: () => 'The Report Service could not be reached. Check the network connection and the base URL.',
  },
  timeout: {
    kind: 'timeout',
    english: () => 'The Report Service did not answer in time. Try again, or raise the time-out.',
  },
  bad_response: {
    kind: 'bad_response',
    english: () => 'The Report Service sent a reply ReportDesk does not understand. Check the base URL.',
  },
  insecure_url: {
    kind: 'insecure_url',
    english: () =>
      'Plain http:// is only allowed for this computer (localhost). Use https://, or allow insecure http for this profile.',
  },
  keychain_unavailable: {
    kind: 'keychain_unavailable',
    english: () =>
      'The system keychain is not available. Unlock or install it, or keep the key for this session only.',
  },
  offline: {
    kind: 'offline',
    english: () =>
      'You are offline, so this change cannot be sent. Try again when the Report Service can be reached.',
  },
  no_profile: {
    kind: 'no_profile',
    english: () => 'No profile is set up yet. Add a profile with a base URL and an API key.',
  },
  cancelled: { kind: 'cancelled', english: () => 'The operation was cancelled.' },
  busy: {
    kind: 'busy',
    english: () =>
      'A sync of this profile is already running in another ReportDesk window or command; wait for it to finish, then try again.',
  },
  disk_full: {
    kind: 'disk_full',
    english: () =>
      'The disk that holds ReportDesk’s data is full. Nothing was lost; free some space and try again.',
  },
  read_only: {
    kind: 'read_only',
    english: () =>
      'ReportDesk’s data folder cannot be written to, so nothing could be saved. Reading still works; make the folder writable, then try again.',
  },
  damaged: {
    kind: 'damaged',
    english: () =>
      'A file ReportDesk keeps is damaged. Nothing was written over it; restart ReportDesk, and if it keeps happening, check the logs.',
  },
  internal: {
    kind: 'internal',
    english: () =>
      'Something went wrong inside ReportDesk. Try again; if it keeps happening, check the logs.',
  },

  // ---- The Report Service's answers (core/api/failures.ts) ------------------------------------
  'http.unauthorized': {
    kind: 'unauthorized',
    english: () =>
      'The Report Service rejected the API key (HTTP 401). Check that the key is complete and still valid, or create a new one in the service’s account area.',
  },
  'http.forbidden': {
    kind: 'forbidden',
    english: ({ action, id }: { action: RequestAction; id: string }) =>
      `The API key is not allowed to ${actionWords(action, id)} (HTTP 403). Ask the account holder for access, or use another key.`,
  },
  'http.report_not_found': {
    kind: 'not_found',
    english: ({ id }: { id: string }) =>
      `Report ${id} was not found (HTTP 404). It may have been deleted; refresh the list.`,
  },
  'http.path_not_found': {
    kind: 'not_found',
    english: ({ path }: { path: string }) =>
      `The Report Service answered "not found" (HTTP 404) for ${path}. Check that the base URL points at the Report Service.`,
  },
  'http.validation': {
    kind: 'validation',
    english: () =>
      'The Report Service did not accept the input (HTTP 422). Correct the fields it named and try again.',
  },
  'http.validation_said': {
    kind: 'validation',
    english: ({ said }: { said: string }) =>
      `The Report Service did not accept the input: ${said} Correct it and try again.`,
  },
  'http.rate_limited': {
    kind: 'rate_limited',
    english: () =>
      'The Report Service is receiving too many requests (HTTP 429). Wait a minute and try again.',
  },
  'http.rate_limited_wait': {
    kind: 'rate_limited',
    english: ({ seconds }: { seconds: number }) =>
      `The Report Service is receiving too many requests and asked to wait ${plural(seconds, 'second', 'seconds')} (HTTP 429). Try again after that.`,
  },
  'http.server_error': {
    kind: 'server_error',
    english: ({ status }: { status: number }) =>
      `The Report Service had an internal problem (HTTP ${status}). Try again in a moment.`,
  },
  'http.server_error_said': {
    kind: 'server_error',
    english: ({ status, said }: { status: number; said: string }) =>
      `The Report Service had an internal problem (HTTP ${status}, "${said}"). Try again in a moment.`,
  },
  'http.unexpected_status': {
    kind: 'bad_response',
    english: ({ status }: { status: number }) =>
      `The Report Service answered with an unexpected status (HTTP ${status}). Check the base URL, or try again later.`,
  },
  'http.unexpected_status_said': {
    kind: 'bad_response',
    english: ({ status, said }: { status: number; said: string }) =>
      `The Report Service answered with an unexpected status (HTTP ${status}, "${said}"). Check the base URL, or try again later.`,
  },
  'http.redirect': {
    kind: 'bad_response',
    english: () =>
      'The Report Service address redirects to another address. Update the base URL to the address it moved to.',
  },
  'http.redirect_status': {
    kind: 'bad_response',
    english: ({ status }: { status: number }) =>
      `The Report Service address redirects to another address (HTTP ${status}). Update the base URL to the address it moved to.`,
  },
  'http.redirect_to': {
    kind: 'bad_response',
    english: ({ target }: { target: string }) =>
      `The Report Service address redirects to "${target}". Update the base URL to the address it moved to.`,
  },
  'http.redirect_to_status': {
    kind: 'bad_response',
    english: ({ target, status }: { target: string; status: number }) =>
      `The Report Service address redirects to "${target}" (HTTP ${status}). Update the base URL to the address it moved to.`,
  },
  'http.timeout': {
    kind: 'timeout',
    english: ({ seconds }: { seconds: number }) =>
      `The Report Service did not answer within ${plural(seconds, 'second', 'seconds')}. Try again, or raise the time-out.`,
  },
  'http.unreachable': {
    kind: 'network',
    english: ({ host, cause }: { host: string; cause: NetworkCause }) =>
      `The Report Service at ${host} could not be reached: ${CAUSE_WORDS[cause]}. Check the network connection and the base URL.`,
  },
  'reply.unexpected': {
    kind: 'bad_response',
    english: ({ status, problem, field, item }: ReplyValues) =>
      `The Report Service answered HTTP ${status} with ${problemWords(problem, field, item)}. Check that the base URL points at the Report Service.`,
  },
  'reply.unexpected_said': {
    kind: 'bad_response',
    english: ({ status, problem, field, item, said }: ReplyValues & { said: string }) =>
      `The Report Service answered HTTP ${status} with ${problemWords(problem, field, item)} ("${said}"). Check that the base URL points at the Report Service.`,
  },
  'reply.too_large': {
    kind: 'bad_response',
    english: ({ megabytes, status }: { megabytes: number; status: number }) =>
      `The Report Service sent a reply larger than ${megabytes} MB (HTTP ${status}). Check the base URL, or ask for fewer reports per page.`,
  },
  'reply.too_large_said': {
    kind: 'bad_response',
    english: ({ megabytes, status, said }: { megabytes: number; status: number; said: string }) =>
      `The Report Service sent a reply larger than ${megabytes} MB (HTTP ${status}, "${said}"). Check the base URL, or ask for fewer reports per page.`,
  },
  'reply.no_page': { kind: 'bad_response', english: () => 'The Report Service sent no page.' },
  'request.cancelled': { kind: 'cancelled', english: () => 'The request was cancelled.' },
  // A second sentence after a failed change whose outcome is unknown.
  'outcome.create': {
    kind: 'internal',
    english: () => 'The report may or may not have been created; refresh the list before trying again.',
  },
  'outcome.update': {
    kind: 'internal',
    english: ({ id }: { id: string }) =>
      `Report ${id} may or may not have been changed; refresh it before trying again.`,
  },
  'outcome.delete': {
    kind: 'internal',
    english: ({ id }: { id: string }) =>
      `Report ${id} may or may not have been deleted; refresh the list before trying again.`,
  },

  // ---- Online first, the cache as the fallback (core/gateway/onlinePolicy.ts) ---------------
  'offline.nothing_cached': {
    kind: 'offline',
    english: () =>
      'Nothing for this is in the offline copy yet; once the service can be reached, make the reports available offline.',
  },
  'offline.change_not_made': {
    kind: 'offline',
    english: () =>
      'The Report Service cannot be reached, so the change was not made. Try again when it is back.',
  },
  'timeout.change_unknown': {
    kind: 'timeout',
    english: () =>
      'The Report Service did not answer in time, so the change may or may not have been made. Refresh to check before trying again.',
  },

  // ---- Profiles and keys ------------------------------------------------------------------------
  'profile.not_found': { kind: 'not_found', english: () => 'That profile no longer exists.' },
  'profile.id_taken': { kind: 'internal', english: () => 'A profile with that id already exists.' },
  'profile.name_taken': {
    kind: 'invalid_input',
    english: ({ name }: { name: string }) => `A profile named "${name}" already exists. Choose another name.`,
  },
  'profile.key_required': {
    kind: 'invalid_input',
    english: () =>
      'A new service address needs the API key again: enter the key for that service, and it is checked there before the change is saved.',
  },
  'profile.no_key_stored': {
    kind: 'unauthorized',
    english: ({ profile }: { profile: string }) =>
      `No API key is stored for the profile “${profile}”. Store its key again.`,
  },
  'profile.save_failed': {
    kind: 'internal',
    english: ({ file, code }: { file: string; code: string }) =>
      `The profiles could not be saved to ${file} (${code}). Check that the disk has space and the folder is writable, then try again.`,
  },
  'profiles.damaged': {
    kind: 'damaged',
    english: ({ file, asideAs, kept, moveCode, ...why }: ProfilesDamageValues) =>
      `The profiles file ${file} could not be used because ${unusableProfilesWords(why)}, and there is no backup to restore. ${keptWords(kept, asideAs, moveCode)}; nothing is written over it until you agree to start a new list of profiles.`,
  },
  'profiles.newer_version': {
    kind: 'internal',
    english: ({ file, version }: { file: string; version: number }) =>
      `The profiles file ${file} was written by a newer version of ReportDesk (file format version ${version}). Update ReportDesk; nothing was changed.`,
  },
  'profiles.not_damaged': {
    kind: 'invalid_input',
    english: () => 'The profiles file is not damaged, so there is nothing to start afresh.',
  },
  'storage.disk_full': {
    kind: 'disk_full',
    english: ({ place, folder, freeKnown, freeMegabytes, offlineKnown, offlineReports }: DiskFullValues) =>
      `The disk that holds ${place === 'data_folder' ? `the data folder ${folder}` : folder} is full${freeKnown === 'yes' ? ` (${megabytes(freeMegabytes)} free)` : ''}. Nothing was lost${offlineKnown === 'yes' ? `: ${offlineReports.toLocaleString('en')} ${offlineReports === 1 ? 'report is' : 'reports are'} available offline` : ''}; free some space and try again.`,
  },
  'storage.read_only': {
    kind: 'read_only',
    english: ({ place, folder, code }: { place: StoragePlaceName; folder: string; code: string }) =>
      place === 'data_folder'
        ? `The data folder ${folder} cannot be written to (${code}), so nothing was saved; reading still works. Make the folder writable, then try again.`
        : `${folder} cannot be written to (${code}), so nothing was saved. Make the folder writable or choose another, then try again.`,
  },
  'storage.set_aside_failed': {
    kind: 'internal',
    english: ({ file, code }: { file: string; code: string }) =>
      `The damaged file ${file} could not be set aside (${code}). Check that the folder is writable, then try again.`,
  },
  'cache.reset': {
    kind: 'internal',
    english: () =>
      'The offline copy was damaged, so it was set aside and a new one started. Nothing else was lost; try again.',
  },
  'history.too_many_periods': {
    kind: 'invalid_input',
    english: ({ max, by }: { max: number; by: 'day' | 'week' | 'month' }) =>
      `The range holds more than ${plural(max, by, `${by}s`)}; choose longer periods or a shorter range.`,
  },
  'history.not_available': {
    kind: 'offline',
    english: () => 'There is no history to export until the whole profile is available offline.',
  },
  'history.instant': {
    kind: 'invalid_input',
    english: () => 'Not a date and time with its offset (e.g. 2026-11-23T09:00:00+01:00).',
  },
  'history.time_zone': {
    kind: 'invalid_input',
    english: () => 'Not a time zone this computer knows (e.g. Europe/Berlin).',
  },
  'history.range_order': {
    kind: 'invalid_input',
    english: () => 'The start of the range must be before its end.',
  },
  'history.dates_order': {
    kind: 'invalid_input',
    english: () => 'The first date must not be after the second.',
  },
  'keychain.unavailable': {
    kind: 'keychain_unavailable',
    english: ({ platform }: { platform: 'darwin' | 'win32' | 'other' }) => {
      switch (platform) {
        case 'darwin':
          return `The macOS keychain could not be used to store the API key. Unlock your login keychain (in Keychain Access) and try again. ${SESSION_ONLY}`;
        case 'win32':
          return `Windows Credential Manager could not be used to store the API key. Check that you are signed in to a normal Windows account and that the Credential Manager service is running, then try again. ${SESSION_ONLY}`;
        case 'other':
          return `The system keychain could not be used to store the API key. Install and unlock a Secret Service such as GNOME Keyring or KWallet (with libsecret), then try again. ${SESSION_ONLY}`;
      }
    },
  },
  'native.wrong_build': {
    kind: 'internal',
    english: ({ module, runtime }: { module: string; runtime: 'electron' | 'node' }) =>
      runtime === 'electron'
        ? `The ${module} module was built for another runtime (Node, not this Electron): run "node scripts/native-modules.mjs electron" in the ReportDesk checkout (npm start does it), or reinstall ReportDesk, then start it again.`
        : `The ${module} module was built for another runtime (Electron, by npm start): run "node scripts/native-modules.mjs node" in the ReportDesk checkout (npm run cli and the test command do it), then try again.`,
  },
  'lock.busy': {
    kind: 'busy',
    english: ({ store, seconds }: { store: LockedStoreName; seconds: number }) =>
      `${STORE_WORDS[store].busy}, which has not finished within ${plural(seconds, 'second', 'seconds')}. Nothing was changed; try again in a moment.`,
  },
  'lock.save_failed': {
    kind: 'internal',
    english: ({ store, file, code }: { store: LockedStoreName; file: string; code: string }) =>
      `${STORE_WORDS[store].subject} could not be saved to ${file} (${code}). Check that the disk has space and the folder is writable, then try again.`,
  },

  // ---- The offline copy ----------------------------------------------------------------------
  'sync.running': {
    kind: 'busy',
    english: () =>
      'A sync of this profile is already running in another ReportDesk window or command; wait for it to finish, then try again.',
  },
  'sync.taken_over': {
    kind: 'busy',
    english: () =>
      'This sync stalled and another ReportDesk window or command took it over; nothing was removed from the offline copy. Wait for that sync to finish.',
  },
  'sync.cancelled': {
    kind: 'cancelled',
    english: () => 'The offline sync was cancelled. Start it again to continue where it stopped.',
  },
  'refresh.cancelled': {
    kind: 'cancelled',
    english: () => 'The check for new reports was cancelled. Nothing already saved was lost.',
  },
  'cache.newer_version': {
    kind: 'internal',
    english: ({ file }: { file: string }) =>
      `The offline copy (${file}) was written by a newer version of ReportDesk. Update ReportDesk, or clear the offline copy to start a new one.`,
  },
  'paging.ignored': {
    kind: 'bad_response',
    english: ({ page, reports, requests }: { page: number; reports: number; requests: number }) =>
      `The Report Service sent the same reports again for page ${page}, so it seems to ignore paging; stopped after ${taken(reports, requests)}.`,
  },
  'paging.limit': {
    kind: 'bad_response',
    english: ({ pages, reports, requests }: { pages: number; reports: number; requests: number }) =>
      `The list did not end after ${plural(pages, 'page', 'pages')}, so paging was stopped after ${taken(reports, requests)}. Narrow the search or filters and try again.`,
  },

  // ---- Export, links, the browser -----------------------------------------------------------
  'export.running': {
    kind: 'invalid_input',
    english: () => 'An export is already running. Wait for it to finish or cancel it.',
  },
  'export.cancelled': { kind: 'cancelled', english: () => 'The export was cancelled; no file was written.' },
  'export.write_failed': {
    kind: 'invalid_input',
    english: ({ path, code }: { path: string; code: string }) =>
      `The export could not be written to ${path} (${code}). Choose a folder you can write to and try again.`,
  },
  'link.invalid': {
    kind: 'invalid_input',
    english: () =>
      'That is not a ReportDesk link. A link looks like reportdesk://report/12?profile=…; copy it again.',
  },
  'link.profile_missing': {
    kind: 'not_found',
    english: ({ profile }: { profile: string }) =>
      `The link is for the profile “${profile}”, which is not set up on this computer. Add that profile (same service and key) or ask for a link without a profile.`,
  },
  'external_url.not_a_url': {
    kind: 'invalid_input',
    english: () => 'That is not a web address, so it was not opened.',
  },
  'external_url.not_web': {
    kind: 'invalid_input',
    english: () => 'Only http:// and https:// addresses are opened in the browser.',
  },
  'external_url.credentials': {
    kind: 'invalid_input',
    english: () => 'Addresses with a user name or password in them are not opened in the browser.',
  },
  'external_url.too_long': {
    kind: 'invalid_input',
    english: ({ max }: { max: number }) =>
      `Addresses longer than ${characters(max)} are not opened in the browser.`,
  },

  // ---- The demo service ----------------------------------------------------------------------
  'demo.unavailable': { kind: 'internal', english: () => 'The demo service is not available in this build.' },
  'demo.port_in_use': {
    kind: 'network',
    english: ({ address }: { address: string }) =>
      `The demo service could not start: ${address} is already in use. Stop the program using it, or choose another port.`,
  },
  'demo.port_refused': {
    kind: 'network',
    english: ({ address }: { address: string }) =>
      `The demo service could not start: it may not listen on ${address}. Choose a port above 1024.`,
  },
  'demo.start_failed': {
    kind: 'network',
    english: ({ address, code }: { address: string; code: string }) =>
      `The demo service could not start on ${address} (${code}). Choose another port and try again.`,
  },
  'demo.data_damaged': {
    kind: 'internal',
    english: ({ file }: { file: string }) =>
      `The demo service's data file ${file} is damaged or not a demo data file. Move it away to start with fresh demo data, or restore a backup of it.`,
  },

  // ---- The bridge between the window and the core ---------------------------------------------
  'ipc.unknown_channel': {
    kind: 'invalid_input',
    english: ({ channel }: { channel: string }) =>
      `Unknown request "${channel}". This version of ReportDesk does not support it; update or restart the app.`,
  },
  'ipc.foreign_sender': {
    kind: 'forbidden',
    english: () => "This request did not come from ReportDesk's window.",
  },
  'ipc.main_unreachable': {
    kind: 'internal',
    english: () =>
      'ReportDesk could not reach its main process. Restart the app; if it keeps happening, check the logs.',
  },
  'ipc.core_unreachable': {
    kind: 'internal',
    english: () => 'ReportDesk could not connect to its core. Close the window and start ReportDesk again.',
  },
  'preview.unreachable': {
    kind: 'network',
    english: () => 'The preview server cannot be reached. Restart npm run preview.',
  },
  'preview.refused': {
    kind: 'internal',
    english: () =>
      'The preview server refused the request (HTTP 403). Open the link printed by npm run preview again.',
  },
  'preview.no_result': {
    kind: 'internal',
    english: ({ status }: { status: number }) =>
      `The preview server answered HTTP ${status} without a result. Restart npm run preview.`,
  },

  // ---- Fields: beside the field in a form, and as the error's sentence ------------------------
  'field.profile_name_required': { kind: 'invalid_input', english: () => 'Give the profile a name.' },
  'field.profile_name_too_long': {
    kind: 'invalid_input',
    english: ({ max }: { max: number }) => `A profile name is at most ${characters(max)}.`,
  },
  'field.profile_name_taken': {
    kind: 'invalid_input',
    english: () => 'A profile with this name already exists.',
  },
  'field.profile_id_invalid': { kind: 'invalid_input', english: () => 'Not a profile id.' },
  'field.api_key_required': { kind: 'invalid_input', english: () => 'Enter the API key.' },
  'field.api_key_too_long': { kind: 'invalid_input', english: () => 'The API key is too long.' },
  'field.api_key_characters': {
    kind: 'invalid_input',
    english: () => 'An API key contains no spaces or special characters. Paste it again.',
  },
  'field.api_key_unusable': {
    kind: 'invalid_input',
    english: () => 'The API key is empty or contains spaces or special characters. Paste the key again.',
  },
  'field.api_key_for_new_address': {
    kind: 'invalid_input',
    english: () => 'Enter the API key for the new address.',
  },
  'field.timeout_invalid': {
    kind: 'invalid_input',
    english: () => 'The time-out must be a positive number of seconds.',
  },
  'base_url.required': { kind: 'invalid_input', english: () => 'Enter the Report Service base URL.' },
  'base_url.too_long': { kind: 'invalid_input', english: () => 'The base URL is too long.' },
  'base_url.scheme': {
    kind: 'invalid_input',
    english: () =>
      `The base URL must start with https:// (or http:// for this computer), for example ${BASE_URL_EXAMPLE}.`,
  },
  'base_url.invalid': {
    kind: 'invalid_input',
    english: () =>
      `The base URL is not a valid address. Check it for typos, for example ${BASE_URL_EXAMPLE}.`,
  },
  'base_url.credentials': {
    kind: 'invalid_input',
    english: () => 'Remove the user name and password from the base URL; the API key is entered separately.',
  },
  'base_url.query': {
    kind: 'invalid_input',
    english: () => 'The base URL cannot contain "?" or "#". Use only the address of the service.',
  },
  'base_url.insecure': {
    kind: 'insecure_url',
    english: ({ host }: { host: string }) =>
      `Plain http:// is only allowed for this computer, and ${host} is not it: the API key would travel unencrypted. Use https://, or explicitly allow insecure http.`,
  },
  'report_url.required': { kind: 'invalid_input', english: () => 'Enter the address to analyse.' },
  'report_url.too_long': {
    kind: 'invalid_input',
    english: ({ max }: { max: number }) => `The address is longer than ${characters(max)}.`,
  },
  'report_url.not_absolute': {
    kind: 'invalid_input',
    english: () => 'Enter a full address starting with http:// or https://.',
  },
  'report_url.not_web': {
    kind: 'invalid_input',
    english: () => 'Only http:// and https:// addresses can be analysed.',
  },
  'report_url.no_host': { kind: 'invalid_input', english: () => 'The address needs a host name.' },
  'report_id.empty': { kind: 'invalid_input', english: () => 'A report id cannot be empty.' },
  'report_id.too_long': { kind: 'invalid_input', english: () => 'A report id is at most 64 characters.' },
  'report_id.characters': {
    kind: 'invalid_input',
    english: () => 'A report id may contain only letters, digits, "-" and "_".',
  },
  'report_password.required': {
    kind: 'invalid_input',
    english: () => 'A password-protected report needs a password.',
  },
  'report_password.too_long': {
    kind: 'invalid_input',
    english: ({ max }: { max: number }) => `The password is at most ${characters(max)}.`,
  },
  'report_password.not_used': {
    kind: 'invalid_input',
    english: () => 'A password is only used with privacy 2 (password).',
  },
  'field.privacy': {
    kind: 'invalid_input',
    english: () => 'Privacy must be 0 (public), 1 (private) or 2 (password).',
  },
  'field.results': { kind: 'invalid_input', english: () => '“Results visible” must be Yes (1) or No (0).' },
  'field.per_page': { kind: 'invalid_input', english: () => 'Page size must be one of 10, 25, 50 or 100.' },
  'field.page': { kind: 'invalid_input', english: () => 'Page must be a whole number from 1.' },
  'field.page_too_large': { kind: 'invalid_input', english: () => 'Page is too large.' },
  'field.search_too_long': {
    kind: 'invalid_input',
    english: ({ max }: { max: number }) => `Search text is at most ${characters(max)}.`,
  },
  'field.project_too_long': {
    kind: 'invalid_input',
    english: ({ max }: { max: number }) => `Project is at most ${characters(max)}.`,
  },
  'field.file_name': { kind: 'invalid_input', english: () => 'Not a file name.' },
  'field.export_too_large': { kind: 'invalid_input', english: () => 'The export is too large to save.' },
  'field.date_time': {
    kind: 'invalid_input',
    english: () => 'Not a date and time (e.g. 2026-11-23T09:00:00Z).',
  },
  'field.invalid': {
    kind: 'invalid_input',
    english: ({ detail }: { detail: string }) => `The input is not valid: ${detail}.`,
  },
} satisfies Record<string, CodeEntry<never>>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The values a code's sentence takes (none: an empty object). */
export type ErrorValuesOf<C extends ErrorCode> =
  Parameters<(typeof ERROR_CODES)[C]['english']> extends [infer V, ...unknown[]] ? V : Record<never, never>;

/** Values that are the service's own words (a page's title, a redirect's target): shown as sent, bidi-isolated. */
export function isServiceText(valueName: string): boolean {
  return valueName === 'said' || valueName === 'target';
}

/** A sentence by its code and values: what the renderer words in the user's language. */
export interface Wording {
  code: ErrorCode;
  values?: Record<string, ErrorValue>;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

/** The English sentence of a wording (the CLI's, the logs'). */
export function englishOf(wording: Wording): string {
  const english = ERROR_CODES[wording.code].english as (values: Record<string, ErrorValue>) => string;
  return english(wording.values ?? {});
}

/** A code's kind. */
export function kindOf(code: ErrorCode): ErrorKind {
  return ERROR_CODES[code].kind;
}
