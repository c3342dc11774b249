/**
 * The core's errors, worded by code: the English catalogue's `errors.<code>` says exactly the
 * sentence the core keeps for the CLI and the logs (shared/errorCodes.ts), for every code and
 * every choice of its values, so the two never drift apart; and the app words an error's notes
 * and what the service said as errorSentence does.
 */
import { CATALOGUES } from 'virtual:catalogues/all';
import { describe, expect, it } from 'vitest';
import { createWords } from '../../../electron/core/desktop/words';
import {
  ERROR_CODES,
  ERROR_KINDS,
  englishOf,
  isErrorCode,
  kindOf,
  type ErrorCode,
  type ErrorValuesOf,
  type NetworkCause,
  type ReplyProblem,
  type RequestAction,
} from '../../../shared/errorCodes';
import { appError } from '../../../shared/errors';
import { errorSentence } from '../../../shared/i18n/errorSentence';
import type { ErrorMessageId } from '../../../shared/i18n/messages';

const words = createWords('en', CATALOGUES.en);

const ACTIONS: RequestAction[] = ['list', 'get', 'create', 'update', 'delete', 'account'];
const CAUSES: NetworkCause[] = ['refused', 'not_found', 'bad_port', 'certificate', 'closed'];
const PROBLEMS: ReplyProblem[] = [
  'empty',
  'not_json',
  'report',
  'list_report',
  'not_list',
  'not_report',
  'not_account',
];
const STORES = ['profiles', 'update_settings', 'language_settings'] as const;
const reply = PROBLEMS.map((problem) => ({ status: 200, problem, field: 'url', item: 3 }));

/** Each code's values, every choice of each select and both sides of each plural. */
const SAMPLES: { [C in ErrorCode]: ErrorValuesOf<C>[] } = {
  invalid_input: [{}],
  unauthorized: [{}],
  forbidden: [{}],
  not_found: [{}],
  validation: [{}],
  rate_limited: [{}],
  server_error: [{}],
  network: [{}],
  timeout: [{}],
  bad_response: [{}],
  insecure_url: [{}],
  keychain_unavailable: [{}],
  offline: [{}],
  no_profile: [{}],
  cancelled: [{}],
  busy: [{}],
  disk_full: [{}],
  read_only: [{}],
  damaged: [{}],
  internal: [{}],
  'http.unauthorized': [{}],
  'http.forbidden': ACTIONS.map((action) => ({ action, id: '12' })),
  'http.report_not_found': [{ id: 'a-1' }],
  'http.path_not_found': [{ path: '/api/v1/reports' }],
  'http.validation': [{}],
  'http.validation_said': [{ said: 'The url must be a valid URL.' }],
  'http.rate_limited': [{}],
  'http.rate_limited_wait': [{ seconds: 1 }, { seconds: 30 }],
  'http.server_error': [{ status: 503 }],
  'http.server_error_said': [{ status: 502, said: '502 Bad Gateway' }],
  'http.unexpected_status': [{ status: 418 }],
  'http.unexpected_status_said': [{ status: 418, said: "I'm a teapot" }],
  'http.redirect': [{}],
  'http.redirect_status': [{ status: 301 }],
  'http.redirect_to': [{ target: 'https://new.example.com/api/v1/reports' }],
  'http.redirect_to_status': [{ target: 'https://new.example.com/', status: 308 }],
  'http.timeout': [{ seconds: 1 }, { seconds: 0.5 }, { seconds: 30 }],
  'http.unreachable': CAUSES.map((cause) => ({ host: 'reports.example.com', cause })),
  'reply.unexpected': reply,
  'reply.unexpected_said': reply.map((values) => ({ ...values, said: 'Sign in' })),
  'reply.too_large': [
    { megabytes: 1, status: 200 },
    { megabytes: 0.5, status: 200 },
  ],
  'reply.too_large_said': [{ megabytes: 10, status: 200, said: 'Index of /' }],
  'reply.no_page': [{}],
  'request.cancelled': [{}],
  'outcome.create': [{}],
  'outcome.update': [{ id: '7' }],
  'outcome.delete': [{ id: '7' }],
  'offline.nothing_cached': [{}],
  'offline.change_not_made': [{}],
  'timeout.change_unknown': [{}],
  'profile.not_found': [{}],
  'profile.id_taken': [{}],
  'profile.name_taken': [{ name: 'Work' }],
  'profile.key_required': [{}],
  'profile.no_key_stored': [{ profile: 'Work' }],
  'profile.save_failed': [{ file: '/data/profiles.json', code: 'ENOSPC' }],
  'profiles.damaged': [
    ...(['copy', 'as_is', 'unmovable'] as const).map((kept) => ({
      file: '/data/profiles.json',
      asideAs: '/data/profiles.json.corrupt-20261128T0100Z',
      kept,
      moveCode: kept === 'unmovable' ? 'EROFS' : '',
      reason: 'unreadable' as const,
      readCode: 'EIO',
    })),
    ...(['not_json', 'not_profiles'] as const).map((reason) => ({
      file: '/data/profiles.json',
      asideAs: '/data/profiles.json.corrupt-20261128T0100Z',
      kept: 'copy' as const,
      moveCode: '',
      reason,
      readCode: '',
    })),
  ],
  'profiles.newer_version': [{ file: '/data/profiles.json', version: 2 }],
  'profiles.not_damaged': [{}],
  'storage.disk_full': [
    ...(['data_folder', 'export'] as const).map((place) => ({
      place,
      folder: '/data',
      freeKnown: 'yes' as const,
      freeMegabytes: 0.4,
      offlineKnown: 'yes' as const,
      offlineReports: 1,
    })),
    {
      place: 'data_folder',
      folder: '/data',
      freeKnown: 'yes',
      freeMegabytes: 1234.5,
      offlineKnown: 'yes',
      offlineReports: 2500,
    },
    // One decimal, as the catalogue's skeleton rounds it (12.3 MB).
    {
      place: 'data_folder',
      folder: '/data',
      freeKnown: 'yes',
      freeMegabytes: 12.34,
      offlineKnown: 'no',
      offlineReports: 0,
    },
    {
      place: 'data_folder',
      folder: '/data',
      freeKnown: 'no',
      freeMegabytes: 0,
      offlineKnown: 'no',
      offlineReports: 0,
    },
  ],
  'storage.read_only': (['data_folder', 'export'] as const).map((place) => ({
    place,
    folder: '/data',
    code: 'EROFS',
  })),
  'storage.set_aside_failed': [{ file: '/data/cache.sqlite', code: 'EACCES' }],
  'cache.reset': [{}],
  'history.too_many_periods': (['day', 'week', 'month'] as const).map((by) => ({ max: 10000, by })),
  'history.not_available': [{}],
  'history.instant': [{}],
  'history.time_zone': [{}],
  'history.range_order': [{}],
  'history.dates_order': [{}],
  'keychain.unavailable': (['darwin', 'win32', 'other'] as const).map((platform) => ({ platform })),
  'native.wrong_build': (['electron', 'node'] as const).map((runtime) => ({ module: 'keytar', runtime })),
  'lock.busy': STORES.flatMap((store) => [
    { store, seconds: 1 },
    { store, seconds: 10 },
  ]),
  'lock.save_failed': STORES.map((store) => ({ store, file: '/data/x.json', code: 'EROFS' })),
  'sync.running': [{}],
  'sync.taken_over': [{}],
  'sync.cancelled': [{}],
  'refresh.cancelled': [{}],
  'cache.newer_version': [{ file: '/data/cache.sqlite' }],
  'paging.ignored': [
    { page: 2, reports: 1, requests: 1 },
    { page: 3, reports: 100, requests: 2 },
  ],
  'paging.limit': [
    { pages: 1, reports: 1, requests: 1 },
    { pages: 500, reports: 1, requests: 1 },
    { pages: 500, reports: 900, requests: 500 },
  ],
  'export.running': [{}],
  'export.cancelled': [{}],
  'export.write_failed': [{ path: '/home/ann/reports.csv', code: 'EACCES' }],
  'link.invalid': [{}],
  'link.profile_missing': [{ profile: 'p_9' }],
  'external_url.not_a_url': [{}],
  'external_url.not_web': [{}],
  'external_url.credentials': [{}],
  'external_url.too_long': [{ max: 4096 }],
  'demo.unavailable': [{}],
  'demo.port_in_use': [{ address: '127.0.0.1:8787' }],
  'demo.port_refused': [{ address: '127.0.0.1:80' }],
  'demo.start_failed': [{ address: '127.0.0.1:8787', code: 'EADDRNOTAVAIL' }],
  'demo.data_damaged': [{ file: '/data/demo-service.json' }],
  'ipc.unknown_channel': [{ channel: 'reports:nope' }],
  'ipc.foreign_sender': [{}],
  'ipc.main_unreachable': [{}],
  'ipc.core_unreachable': [{}],
  'preview.unreachable': [{}],
  'preview.refused': [{}],
  'preview.no_result': [{ status: 502 }],
  'field.profile_name_required': [{}],
  'field.profile_name_too_long': [{ max: 80 }],
  'field.profile_name_taken': [{}],
  'field.profile_id_invalid': [{}],
  'field.api_key_required': [{}],
  'field.api_key_too_long': [{}],
  'field.api_key_characters': [{}],
  'field.api_key_unusable': [{}],
  'field.api_key_for_new_address': [{}],
  'field.timeout_invalid': [{}],
  'base_url.required': [{}],
  'base_url.too_long': [{}],
  'base_url.scheme': [{}],
  'base_url.invalid': [{}],
  'base_url.credentials': [{}],
  'base_url.query': [{}],
  'base_url.insecure': [{ host: 'reports.example.com' }],
  'report_url.required': [{}],
  'report_url.too_long': [{ max: 2048 }],
  'report_url.not_absolute': [{}],
  'report_url.not_web': [{}],
  'report_url.no_host': [{}],
  'report_id.empty': [{}],
  'report_id.too_long': [{}],
  'report_id.characters': [{}],
  'report_password.required': [{}],
  'report_password.too_long': [{ max: 256 }],
  'report_password.not_used': [{}],
  'field.privacy': [{}],
  'field.results': [{}],
  'field.per_page': [{}],
  'field.page': [{}],
  'field.page_too_large': [{}],
  'field.search_too_long': [{ max: 2000 }, { max: 1 }],
  'field.project_too_long': [{ max: 200 }],
  'field.file_name': [{}],
  'field.export_too_large': [{}],
  'field.date_time': [{}],
  'field.invalid': [{ detail: 'expected string, received number' }],
};

const cases = (Object.keys(ERROR_CODES) as ErrorCode[]).flatMap((code) =>
  (SAMPLES[code] as Record<string, string | number>[]).map((values) => [code, values] as const),
);

describe('each error code in the English catalogue', () => {
  it('has its message', () => {
    const missing = Object.keys(ERROR_CODES).filter((code) => !(`errors.${code}` in CATALOGUES.en));
    expect(missing).toEqual([]);
  });

  it.each(cases)('%s %j says the core’s English sentence', (code, values) => {
    expect(words(`errors.${code}` as ErrorMessageId, values)).toBe(englishOf({ code, values }));
  });
});

describe('each error code’s kind', () => {
  it('is one of the kinds the app tells apart; a kind’s own code is of that kind', () => {
    const codes = Object.keys(ERROR_CODES) as ErrorCode[];
    expect(codes.filter((code) => !ERROR_KINDS.includes(kindOf(code)))).toEqual([]);
    for (const kind of ERROR_KINDS) expect(kindOf(kind)).toBe(kind);
    expect(appError('http.rate_limited', {}).kind).toBe('rate_limited');
  });

  it('is known by code only for the codes there are', () => {
    expect(isErrorCode('http.server_error')).toBe(true);
    expect(isErrorCode('busy')).toBe(true);
    expect(isErrorCode('no.such.code')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
    expect(isErrorCode({ toString: () => 'busy' })).toBe(false);
  });
});

describe('errorSentence', () => {
  it('says the code’s sentence, then its notes’, joined as the language joins sentences', () => {
    const error = appError(
      'http.server_error',
      { status: 500 },
      { notes: [{ code: 'outcome.delete', values: { id: '9' } }] },
    );
    expect(errorSentence(words, error)).toBe(error.message);
    expect(error.message).toBe(
      'The Report Service had an internal problem (HTTP 500). Try again in a moment. Report 9 may or may not have been deleted; refresh the list before trying again.',
    );
  });

  it('keeps what the service said as it was sent, isolated from the sentence around it', () => {
    const said = 'خطأ في الخادم';
    expect(errorSentence(words, appError('http.server_error_said', { status: 500, said }))).toBe(
      `The Report Service had an internal problem (HTTP 500, "\u2068${said}\u2069"). Try again in a moment.`,
    );
    // In left-to-right words as well: isolated because the service said it, not for its script.
    expect(
      errorSentence(words, appError('http.server_error_said', { status: 500, said: 'Disk quota' })),
    ).toBe(
      'The Report Service had an internal problem (HTTP 500, "\u2068Disk quota\u2069"). Try again in a moment.',
    );
    expect(errorSentence(words, appError('http.redirect_to', { target: 'https://x.example/' }))).toContain(
      '"\u2068https://x.example/\u2069"',
    );
  });
});
