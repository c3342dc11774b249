/**
 * The IPC contract: every channel, its input schema and its output type, in one place
 * (as GitHub Desktop's ipc-shared.ts). The main process validates every input against these
 * schemas; the renderer's typed client and the browser-preview bridge are derived from it.
 *
 * The renderer never receives an API key: profiles cross as `ProfileView` (id, name, base
 * URL and the key's last four characters). A key travels renderer → main only, once, when the
 * user types it in.
 */
import { z } from 'zod';
import { isTimeZone, parseInstant, PERIOD_KINDS, type PeriodKind } from './calendar';
import type { Channel, EventName } from './channels';
import {
  englishOf,
  englishOnlyError,
  fieldErrorsFrom,
  fieldWordingsFrom,
  issueEnglish,
  issueWording,
  wordedError,
  type AppError,
  type Result,
} from './errors';
import { plainListQuery } from './plainListQuery';
import { SHIPPED_LANGUAGES, type LanguageState } from './i18n/languages';
import { PROFILE_NAME_MAX_LENGTH } from './profileRules';
import {
  CreateReportInputSchema,
  issue,
  ListQuerySchema,
  MAX_PROJECT_LENGTH,
  MAX_URL_LENGTH,
  REPORT_RESULTS,
  ReportIdSchema,
  UpdateReportInputSchema,
  type Account,
  type Report,
  type ReportPage,
  type ReportResult as ResultValue,
} from './report';

export { CHANNEL_NAMES, EVENT_NAMES, isChannel, isEventName, type Channel, type EventName } from './channels';
export type { LanguageChoice, LanguageState } from './i18n/languages';

// ---- Views (outputs) ----------------------------------------------------------------------

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  allowInsecureHttp: boolean;
  /** Last four characters of the key, or null when no key is stored. */
  keyHint: string | null;
  hasKey: boolean;
  /** Where the key lives: the OS keychain, this session's memory only, or nowhere yet. */
  keyStorage: 'keychain' | 'session' | 'none';
  /** True for the profile of the embedded demo service. */
  demo: boolean;
}

export interface ProfilesState {
  profiles: ProfileView[];
  activeId: string | null;
}

/** Where an answer came from: the service just now, or the local cache when offline. */
export type DataSource = 'network' | 'cache';

export interface Sourced {
  source: DataSource;
  /** ISO time the data was fetched from the service (for cache answers: its age). */
  fetchedAt: string;
}

export type ReportPageResult = ReportPage & Sourced;
export type ReportResult = { report: Report } & Sourced;
export type AccountResult = { account: Account } & Sourced;

export interface CacheStatus {
  profileId: string | null;
  reportCount: number;
  /** Bytes of the whole database file (shared by every profile). */
  sizeBytes: number;
  lastFullSyncAt: string | null;
  /** When the newest reports were last checked (a quick refresh); null when never. */
  lastQuickRefreshAt: string | null;
  syncing: boolean;
  /** The data folder, set only when other users of the computer can read it (Settings warns). */
  exposedDataDir?: string;
}

/**
 * Why a full sync removed nothing: the service's list changed while it was read (total or
 * order moved), it seems to ignore `page`, or it sent more pages than its total allows.
 */
export type SyncKeptReason = 'listing_changed' | 'paging_ignored' | 'page_limit';

export interface SyncSummary {
  fetched: number;
  removed: number;
  pages: number;
  completedAt: string;
  /** False when the listing could not be trusted: cached reports the run did not see were kept. */
  pruned: boolean;
  /** Why nothing was pruned; null when `pruned` (and for a quick refresh, which never prunes). */
  reason: SyncKeptReason | null;
  /** 'full': the whole list was read (make available offline); 'quick': only the newest reports. */
  mode: 'full' | 'quick';
  /** Reports new to the offline copy, and reports whose result, privacy, URL, project or date changed. */
  added: number;
  changed: number;
  /** True only when the copy now equals one consistent read of the service's whole list. */
  complete: boolean;
  /** Reads of the whole list this sync needed (up to three when the list changed while read). */
  passes: number;
  /** Requests this run sent to the service (retries included). */
  requests: number;
  /** New bad reports and reports that turned bad, among the changes logged. */
  badNews: number;
  /** Set when this run (the app's first "Make available offline") turned "Keep available offline" on. */
  keepOfflineTurnedOn?: boolean;
}

export type ChangeKind = 'added' | 'changed' | 'removed';

/** A report's watched fields that changed: before → after (null where the report had none). */
export type ChangeFields = Record<string, { before: unknown; after: unknown }>;

/** One entry of a profile's change log. */
export interface ReportChange {
  id: string;
  kind: ChangeKind;
  /** ISO time the change was found. */
  at: string;
  fields: ChangeFields;
}

export interface ConnectivityState {
  online: boolean;
  /** ISO time of the last change. */
  since: string;
  /** The error that made us go offline, when offline. */
  lastError: AppError | null;
}

export interface SyncProgress {
  profileId: string;
  page: number;
  lastPage: number | null;
  fetched: number;
  total: number | null;
  phase: 'fetching' | 'pruning' | 'done' | 'failed' | 'cancelled';
  /** Which read of the whole list (1–3) a full sync is on; a quick refresh has 1. */
  pass?: number;
  /** A run of "Keep available offline" the user did not start. */
  background?: boolean;
}

/** An export of every page of a list query, ready to save. */
export interface ExportResult extends Sourced {
  format: 'csv' | 'json';
  /** The file's text (UTF-8 when written). */
  content: string;
  /** A suggested file name, e.g. "reports-2026-11-23T1205.csv". */
  fileName: string;
  count: number;
  pages: number;
  /**
   * How the front end saves it: through `export:save` (the app's save dialog), or as a
   * download of its own (the preview, whose bridge takes no large bodies).
   */
  saveBy: 'dialog' | 'download';
}

export interface ExportProgress {
  page: number;
  lastPage: number | null;
  fetched: number;
  total: number | null;
}

/** Where the save went: a path the user chose, nowhere (cancelled), or back to the front end. */
export interface ExportSaveResult {
  saved: boolean;
  path: string | null;
  /** True where the core cannot show a save dialog (the preview): the front end downloads it. */
  download: boolean;
}

/** Counts per result from the offline cache (after a full sync) for the list's filters. */
export interface ResultCounts {
  good: number;
  decent: number;
  bad: number;
  /** Reports without a (known) result. */
  other: number;
}

export interface CacheOverview {
  counts: ResultCounts;
  /** Per project, by name; "" for reports without a project. */
  projects: ({ project: string } & ResultCounts)[];
  lastFullSyncAt: string;
}

/** One report in "Changes since …": what its unseen changes came to (first before → last after). */
export interface ChangedReport extends ReportChange {
  /** A new report that is bad, or one whose result turned bad. */
  bad: boolean;
  /** The report as the offline copy holds it now; null once removed. */
  report: Report | null;
}

/** "Changes since …": the profile's unseen changes, counted per report. */
export interface ChangesSummary {
  profileId: string | null;
  /** Since when: the last "mark all as seen", else the first full sync; null before that. */
  since: string | null;
  counts: { added: number; addedBad: number; changed: number; turnedBad: number; removed: number };
  /** Newest first, at most CHANGES_SHOWN. */
  items: ChangedReport[];
  /** Changed reports beyond `items`. */
  more: number;
}

/** How often the newest reports are checked: minutes, or null for only by hand. */
export type RefreshMinutes = 5 | 15 | 60 | null;

/** A profile's "Keep available offline" options (profiles.json; no secrets). */
export interface OfflineOptions {
  keepOffline: boolean;
  refreshMinutes: RefreshMinutes;
  /** A system notification when a refresh finds new bad reports or reports that turned bad. */
  notifyBad: boolean;
}

/** A profile's offline copy as "Keep available offline" sees it. */
export interface OfflineState extends OfflineOptions {
  profileId: string;
  /** False until the user (or the first "Make available offline") chose keepOffline. */
  keepOfflineChosen: boolean;
  lastQuickRefreshAt: string | null;
  lastFullSyncAt: string | null;
  /** What this app is running for the profile now. */
  running: 'quick' | 'full' | null;
  /** The daily full sync is due but waits for mains power (or for the user). */
  waitingForPower: boolean;
  /** The last automatic run's failure (the service out of reach…); null after a success. */
  lastError: AppError | null;
}

/** After every refresh or sync this app ran: what it found, and whether to notify about it. */
export interface OfflineRefreshed {
  profileId: string;
  profileName: string;
  summary: SyncSummary;
  /** The profile asked for a notification of bad news (the front end decides when to show one). */
  notifyBad: boolean;
}

// ---- Repairs: the machine's own faults (issue 30) -----------------------------------------

/** What a repair kept: everything that cannot be fetched again lives apart from the offline copy. */
export type KeptData = 'profiles' | 'settings' | 'changes';

/**
 * Something ReportDesk repaired by itself, kept (in local.sqlite) until the user acknowledges
 * it with `repairs:dismiss`: one banner each. Times are ISO; paths are as on disk.
 */
export type RepairNotice = { id: string; at: string } & (
  | {
      /** The offline copy was damaged: set aside, a new one started. */
      kind: 'cache_set_aside';
      details: {
        /** The damaged file's new name (with its -wal and -shm beside it). */
        asideAs: string;
        /** Reports the damaged copy still held (to be fetched again); null when it could not be read. */
        reportsLost: number | null;
        /** Found while opening, or while in use (a sync, a read). */
        during: 'open' | 'use';
        kept: KeptData[];
        /** Profiles kept available offline, whose copy a full sync refills (started by the app's scheduler). */
        refillProfileIds: string[];
      };
    }
  | {
      /** profiles.json was damaged: its last good backup was restored (one change may be missing). */
      kind: 'profiles_restored';
      details: { file: string; asideAs: string; backupSavedAt: string };
    }
  | {
      /** local.sqlite (change log, seen marks) was damaged: its backup restored, or a new one started. */
      kind: 'local_restored';
      details: { asideAs: string; entriesLost: number | null; backupSavedAt: string | null };
    }
);
export type RepairKind = RepairNotice['kind'];

/** A key in the keychain that no profile names: left by a crash, or by a damaged profiles file. */
export interface OrphanedKey {
  /** Its keychain account (the id of the profile it was stored for). */
  account: string;
  /** The last four characters, as profiles show them; null for a short key. */
  keyHint: string | null;
  /** The profile it belonged to, where ReportDesk still knows it (then `repairs:restoreKeys` brings it back). */
  profile: { name: string; baseUrl: string } | null;
  /** Where that profile was found: an add that was interrupted, the profiles backup, a damaged file set aside. */
  foundIn: 'interrupted_add' | 'backup' | 'damaged_file' | null;
}

/** Everything a window shows about repairs, in one answer (and in the `repairs:changed` event). */
export interface RepairsStatus {
  notices: RepairNotice[];
  /**
   * profiles.json is damaged and there was no backup to restore: every profile command fails
   * with `damaged` / `profiles_damaged` until the user agrees to start a new list
   * (`profiles:startAfresh`). `asideAs` is the copy of the damaged file kept for them.
   */
  profilesDamaged: { file: string; asideAs: string } | null;
  orphanedKeys: OrphanedKey[];
}

// ---- History (issue 27): from the offline copy only --------------------------------------

/** URLs (or reports) per result. */
export interface ResultTally {
  good: number;
  decent: number;
  bad: number;
}

/**
 * Why history has no answer: the profile's copy was never read in full (`not_synced`: a partial
 * copy would give wrong numbers; the front end offers "Make available offline"), or there is
 * no profile.
 */
export interface HistoryUnavailable {
  available: false;
  reason: 'not_synced' | 'no_profile';
}

interface HistoryAnswer {
  available: true;
  profileId: string;
  /** The full sync the copy is as of. */
  lastFullSyncAt: string;
  /** The zone whose offsets the instants below carry (the input's, else the core's). */
  timeZone: string;
}

/** One period: `urls` by their result at `end`, `generated` the reports generated in [start, end). */
export interface HistoryPeriod {
  /** ISO 8601 with the zone's offset; start inclusive, end exclusive. */
  start: string;
  end: string;
  urls: ResultTally;
  generated: ResultTally;
}

export interface HistoryPeriods extends HistoryAnswer {
  by: PeriodKind;
  /** The URLs of this project only (a URL is the project's while its newest report is); null: all. */
  project: string | null;
  /** The range asked (since: the oldest report when not given; null when the copy has none). */
  since: string | null;
  until: string;
  /** Oldest first; none when the copy holds no counted report and no `since` was given. */
  periods: HistoryPeriod[];
}

/** A report of one URL, as the service sent its values. */
export interface HistoryTimelineReport {
  id: string;
  generatedAt: string;
  result: ResultValue;
  /** The service's privacy number (null when it sent none). */
  privacy: unknown;
  project: string | null;
}

/** A report whose result differs from the one before it (same URL). */
export interface HistoryTransition {
  id: string;
  generatedAt: string;
  from: ResultValue;
  to: ResultValue;
}

export interface HistoryTimeline extends HistoryAnswer {
  url: string;
  /** Oldest first; empty when the copy holds no report of the URL. */
  reports: HistoryTimelineReport[];
  transitions: HistoryTransition[];
  /** The change log's entries for these reports and for reports of the URL since removed, newest first. */
  changes: ReportChange[];
  /** Reports of the URL left out: no readable generated_at, or a result other than good, decent, bad. */
  skipped: number;
}

/** A URL whose result differs between two instants; `before` null: it had no report then. */
export interface HistoryChange {
  url: string;
  before: ResultValue | null;
  after: ResultValue;
  beforeId: string | null;
  afterId: string;
}

export interface HistoryCompare extends HistoryAnswer {
  project: string | null;
  from: string;
  to: string;
  /** Sorted by URL. */
  changes: HistoryChange[];
  counts: { new: number; better: number; worse: number };
}

/** A URL as it stood at an instant: the report that gave its result. */
export interface HistoryUrl {
  url: string;
  id: string;
  result: ResultValue;
  generatedAt: string;
}

export interface HistoryUrls extends HistoryAnswer {
  project: string | null;
  at: string;
  result: ResultValue | null;
  /** Every URL per result at that instant (the page below is part of them). */
  counts: ResultTally;
  /** In URL order, after the input's `after`. */
  urls: HistoryUrl[];
  /** The `after` of the next page; null on the last. */
  next: string | null;
}

/** Where a reportdesk:// link leads, after switching to its profile. */
export interface OpenedLink {
  path: string;
  profileId: string | null;
}

// ---- Updates (electron-updater over a signed generic feed) ----------------------------------

export const UPDATE_CHANNELS = ['latest', 'beta'] as const;
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number];

/** App-wide, not per profile. */
export interface UpdatePreferences {
  /** Check 10 s after start and every 6 hours, and download in the background. */
  automatic: boolean;
  channel: UpdateChannel;
}

/** Why a check, download or install failed; each front end words it. */
export type UpdateFailureReason =
  /** The feed, a file or a redirect is neither https nor on this computer. */
  | 'insecure_feed'
  /** No answer, a time-out, or a server error. */
  | 'feed_unreachable'
  /** The manifest is not there (404 or another 4xx). */
  | 'feed_not_found'
  /** An HTML page or something else that is not an update manifest. */
  | 'feed_not_manifest'
  | 'signature_missing'
  /** Not signed by a release key, or changed after it was signed. */
  | 'signature_invalid'
  /** The download is not the file the signed manifest describes. */
  | 'checksum_mismatch'
  | 'download_failed'
  | 'install_failed';

/** Work a restart waits for: a full sync, an export, or changes being sent (a bulk change). */
export type RunningWork = 'sync' | 'export' | 'changes';

export interface UpdateStatus {
  /** False where nothing updates itself: the browser preview, the CLI, a development run… */
  managed: boolean;
  /** Why not, when not managed. */
  unmanagedReason: 'not_installed' | 'development' | 'unsupported_package' | 'no_feed' | null;
  currentVersion: string | null;
  preferences: UpdatePreferences;
  /** ISO time of the last check that read a signed manifest. */
  lastCheckedAt: string | null;
  phase: 'idle' | 'checking' | 'downloading' | 'ready' | 'installing';
  /** The newer version found (downloading, ready); its release notes are text, never HTML. */
  update: { version: string; releaseDate: string | null; releaseNotes: string | null } | null;
  /** 0–100 while downloading. */
  downloadPercent: number | null;
  /** Why the last check or download failed; cleared by the next one that works. */
  failure: UpdateFailureReason | null;
  /** Installed when the app quits, or only when asked, as it asks for the administrator (deb, rpm). */
  install: 'on-quit' | 'asks-admin';
  /** A restart asked for that waits for this work to finish; null when none waits. */
  restartWaitingFor: RunningWork[] | null;
}

// ---- Inputs -------------------------------------------------------------------------------

const profileId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, issue('field.profile_id_invalid'));
const profileName = z
  .string()
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .min(1, issue('field.profile_name_required'))
      .max(PROFILE_NAME_MAX_LENGTH, issue('field.profile_name_too_long', { max: PROFILE_NAME_MAX_LENGTH })),
  );
const baseUrl = z
  .string()
  .transform((v) => v.trim())
  .pipe(z.string().min(1, issue('base_url.required')).max(MAX_URL_LENGTH, issue('base_url.too_long')));
const apiKey = z
  .string()
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .min(1, issue('field.api_key_required'))
      .max(4096, issue('field.api_key_too_long'))
      .regex(/^[\x21-\x7e]+$/, issue('field.api_key_characters')),
  );

export const ConnectionInputSchema = z
  .object({ baseUrl, allowInsecureHttp: z.boolean().default(false), apiKey })
  .strict();

export const AddProfileInputSchema = z
  .object({
    name: profileName,
    baseUrl,
    allowInsecureHttp: z.boolean().default(false),
    apiKey,
    /** Keep the key in memory for this session only (when the keychain is unavailable). */
    sessionOnly: z.boolean().default(false),
  })
  .strict();

export const UpdateProfileInputSchema = z
  .object({
    id: profileId,
    name: profileName.optional(),
    baseUrl: baseUrl.optional(),
    allowInsecureHttp: z.boolean().optional(),
    /**
     * Required when the scheme, host or port changes or insecure http is turned on: the stored
     * key is never sent to a new address; this one is checked there before anything is saved.
     */
    apiKey: apiKey.optional(),
  })
  .strict();

export const SetKeyInputSchema = z
  .object({ id: profileId, apiKey, sessionOnly: z.boolean().default(false) })
  .strict();

const none = z.undefined().or(z.object({}).strict()).optional();

const EXPORT_FORMAT = z.enum(['csv', 'json']);
/** The list's filters and order; the exporter follows every page itself. */
export const ExportInputSchema = z
  .object({ query: ListQuerySchema.omit({ page: true, per_page: true }), format: EXPORT_FORMAT })
  .strict();
export const SetLanguageInputSchema = z
  .object({ choice: z.union([z.literal('system'), z.enum(SHIPPED_LANGUAGES)]) })
  .strict();

/** 256 MB: far above 100,000 reports, low enough to refuse nonsense. */
const MAX_EXPORT_CHARS = 256 * 1024 * 1024;
export const ExportSaveInputSchema = z
  .object({
    fileName: z
      .string()
      .min(1)
      .max(200)
      .refine(
        (name) => !/[/\\:*?"<>|]/.test(name) && [...name].every((c) => c >= ' '),
        issue('field.file_name'),
      ),
    format: EXPORT_FORMAT,
    content: z.string().max(MAX_EXPORT_CHARS, issue('field.export_too_large')),
  })
  .strict();
export const OverviewInputSchema = ListQuerySchema.pick({ search: true, project: true, result: true });
export const UpdatePreferencesInputSchema = z
  .object({ automatic: z.boolean().optional(), channel: z.enum(UPDATE_CHANNELS).optional() })
  .strict();
/** `cancelWork`: stop a running sync or export first instead of waiting for it. */
export const UpdateRestartInputSchema = z
  .object({ cancelWork: z.boolean().default(false) })
  .strict()
  .optional();

// ---- The first screen (issue 22) ----------------------------------------------------------

/**
 * The list a window expects to show first: the profile whose list it showed last, with that
 * list's query. Answered only while that profile is still the active one.
 */
export const FirstScreenInputSchema = z
  .object({ list: z.object({ profileId, query: ListQuerySchema }).strict().optional() })
  .strict()
  .optional();

/** What a window shows first, in one answer: the profiles, connectivity, and its list. */
export interface FirstScreen {
  profiles: ProfilesState;
  /** As it is once the list was asked (a list that found the service gone turns it offline). */
  connectivity: ConnectivityState;
  /** The list asked for, as `reports:list` answers it; null when not asked or another profile is active. */
  list: Result<ReportPageResult> | null;
  /** What decides the language, so the window shows its first screen in it (issue 28). */
  language: LanguageState;
}
export const SyncInputSchema = z
  .object({
    /** Only the newest reports (the quick refresh). */
    quick: z.boolean().optional(),
    /** The app's first "Make available offline" turns "Keep available offline" on. */
    turnOnKeepOffline: z.boolean().optional(),
  })
  .strict()
  .optional();
/** At most this many reports are listed by "Changes since …" (and marked at once). */
export const CHANGES_SHOWN = 200;
const isoTime = z
  .string()
  .max(64)
  .refine((value) => !Number.isNaN(Date.parse(value)), issue('field.date_time'));
export const ChangesListInputSchema = z.object({ since: isoTime.optional() }).strict().optional();
const reportIds = z.array(ReportIdSchema).max(CHANGES_SHOWN);
export const ChangesMarksInputSchema = z.object({ ids: reportIds }).strict();
export const ChangesMarkSeenInputSchema = z.object({ ids: reportIds.optional() }).strict().optional();
const keychainAccounts = z.array(profileId).min(1).max(100);
/** Which orphaned keys to restore or remove: the accounts given, or all of them. */
export const OrphanedKeysInputSchema = z
  .object({ accounts: keychainAccounts.optional() })
  .strict()
  .optional();
export const OfflineSetInputSchema = z
  .object({
    profileId,
    keepOffline: z.boolean().optional(),
    refreshMinutes: z.union([z.literal(5), z.literal(15), z.literal(60), z.null()]).optional(),
    notifyBad: z.boolean().optional(),
  })
  .strict();

// ---- History inputs ------------------------------------------------------------------------

/** At most this many periods in one answer (days over 27 years). */
export const MAX_HISTORY_PERIODS = 10_000;
/** At most this many URLs per page of `history:urls`. */
export const MAX_HISTORY_URLS = 500;
const instant = z
  .string()
  .max(64)
  .refine((value) => parseInstant(value) !== null, issue('history.instant'));
const timeZone = z.string().max(64).refine(isTimeZone, issue('history.time_zone'));
const historyProject = z.string().max(MAX_PROJECT_LENGTH).nullable().default(null);
const before = (earlier: string, later: string) => (parseInstant(earlier) ?? 0) < (parseInstant(later) ?? 0);
const periodsFields = {
  by: z.enum(PERIOD_KINDS).optional(),
  project: historyProject,
  since: instant.optional(),
  until: instant.optional(),
  timeZone: timeZone.optional(),
};
const compareFields = { from: instant, to: instant, project: historyProject, timeZone: timeZone.optional() };
const sinceBeforeUntil = {
  check: (input: { since?: string; until?: string }) =>
    input.since === undefined || input.until === undefined || before(input.since, input.until),
  error: { message: issue('history.range_order'), path: ['since'] },
};
const fromNotAfterTo = {
  check: (input: { from: string; to: string }) => !before(input.to, input.from),
  error: { message: issue('history.dates_order'), path: ['from'] },
};
export const HistoryPeriodsInputSchema = z
  .object(periodsFields)
  .strict()
  .refine(sinceBeforeUntil.check, sinceBeforeUntil.error);
export const HistoryTimelineInputSchema = z.object({ url: z.string().min(1).max(MAX_URL_LENGTH) }).strict();
export const HistoryCompareInputSchema = z
  .object(compareFields)
  .strict()
  .refine(fromNotAfterTo.check, fromNotAfterTo.error);
export const HistoryUrlsInputSchema = z
  .object({
    at: instant,
    project: historyProject,
    result: z.enum(REPORT_RESULTS).nullable().default(null),
    /** The previous page's `next`. */
    after: z.string().max(MAX_URL_LENGTH).default(''),
    limit: z.number().int().min(1).max(MAX_HISTORY_URLS).default(100),
    timeZone: timeZone.optional(),
  })
  .strict();
/** The chart's numbers, or a compare's changes, as a file (saved like any export). */
export const HistoryExportInputSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('periods'), format: EXPORT_FORMAT, ...periodsFields }).strict(),
    z.object({ kind: z.literal('compare'), format: EXPORT_FORMAT, ...compareFields }).strict(),
  ])
  .refine((input) => input.kind !== 'periods' || sinceBeforeUntil.check(input), sinceBeforeUntil.error)
  .refine((input) => input.kind !== 'compare' || fromNotAfterTo.check(input), fromNotAfterTo.error);

// ---- Channels -----------------------------------------------------------------------------

/** Declares a channel: its input schema and (as a phantom) its output type. */
function channel<I extends z.ZodType, O>(input: I) {
  return { input, output: undefined as unknown as O };
}

export const CHANNELS = {
  'profiles:list': channel<typeof none, ProfilesState>(none),
  /** Tests the key with GET /account first; a rejected key is not saved. */
  'profiles:add': channel<typeof AddProfileInputSchema, ProfileView>(AddProfileInputSchema),
  'profiles:update': channel<typeof UpdateProfileInputSchema, ProfileView>(UpdateProfileInputSchema),
  /** Deletes the profile, its key in the keychain and its cached data. */
  'profiles:remove': channel<z.ZodObject<{ id: typeof profileId }>, ProfilesState>(
    z.object({ id: profileId }).strict(),
  ),
  'profiles:activate': channel<z.ZodObject<{ id: typeof profileId }>, ProfilesState>(
    z.object({ id: profileId }).strict(),
  ),
  /** Tests the new key first; clears the cache when it belongs to another account. */
  'profiles:setKey': channel<typeof SetKeyInputSchema, ProfileView>(SetKeyInputSchema),
  /** Checks a base URL + key without saving anything; answers the account it reaches. */
  'profiles:testConnection': channel<typeof ConnectionInputSchema, Account>(ConnectionInputSchema),
  /** Starts the embedded demo service and creates (or reuses) the Demo profile. */
  'profiles:startDemo': channel<typeof none, ProfilesState>(none),

  'reports:list': channel<typeof ListQuerySchema, ReportPageResult>(ListQuerySchema),
  'reports:get': channel<z.ZodObject<{ id: typeof ReportIdSchema }>, ReportResult>(
    z.object({ id: ReportIdSchema }).strict(),
  ),
  'reports:create': channel<typeof CreateReportInputSchema, Report>(CreateReportInputSchema),
  'reports:update': channel<
    z.ZodObject<{ id: typeof ReportIdSchema; changes: typeof UpdateReportInputSchema }>,
    Report
  >(z.object({ id: ReportIdSchema, changes: UpdateReportInputSchema }).strict()),
  'reports:delete': channel<z.ZodObject<{ id: typeof ReportIdSchema }>, { deleted: string }>(
    z.object({ id: ReportIdSchema }).strict(),
  ),
  /** Every page of a query as CSV or JSON (offline: from the cache); progress as `export:progress`. */
  'reports:export': channel<typeof ExportInputSchema, ExportResult>(ExportInputSchema),
  'reports:cancelExport': channel<typeof none, { cancelled: boolean }>(none),
  /** Saves an export through the app's save dialog; the preview answers `download: true`. */
  'export:save': channel<typeof ExportSaveInputSchema, ExportSaveResult>(ExportSaveInputSchema),

  'account:get': channel<typeof none, AccountResult>(none),

  'cache:status': channel<typeof none, CacheStatus>(none),
  /** Full sync ("make available offline"), or the quick refresh; progress as `sync:progress` events. */
  'cache:sync': channel<typeof SyncInputSchema, SyncSummary>(SyncInputSchema),
  'cache:cancelSync': channel<typeof none, { cancelled: boolean }>(none),
  'cache:clear': channel<typeof none, CacheStatus>(none),
  /** Project names seen in the active profile's cache, for filter suggestions. */
  'cache:projects': channel<typeof none, string[]>(none),
  /** Result counts from the cache after a full sync; null when nothing is synced. */
  'cache:overview': channel<typeof OverviewInputSchema, CacheOverview | null>(OverviewInputSchema),
  /** The active profile's change log, newest first (the CLI's `cache changes`). */
  'changes:list': channel<typeof ChangesListInputSchema, { changes: ReportChange[] }>(ChangesListInputSchema),
  /** "Changes since …" of the active profile. */
  'changes:summary': channel<typeof none, ChangesSummary>(none),
  /** Of these ids, the ones the list marks as new (unseen "added"). */
  'changes:marks': channel<typeof ChangesMarksInputSchema, { newIds: string[] }>(ChangesMarksInputSchema),
  /** Marks these reports' changes (a report opened), or all of them, as seen. */
  'changes:markSeen': channel<typeof ChangesMarkSeenInputSchema, ChangesSummary>(ChangesMarkSeenInputSchema),
  /** A profile's "Keep available offline" options and when its copy was last checked. */
  'offline:get': channel<z.ZodObject<{ profileId: typeof profileId }>, OfflineState>(
    z.object({ profileId }).strict(),
  ),
  'offline:set': channel<typeof OfflineSetInputSchema, OfflineState>(OfflineSetInputSchema),
  /** History (offline copy only): URLs per result at each period's end, reports generated per period. */
  'history:periods': channel<typeof HistoryPeriodsInputSchema, HistoryPeriods | HistoryUnavailable>(
    HistoryPeriodsInputSchema,
  ),
  /** Every report of one URL, its result changes and the change log's entries for them. */
  'history:timeline': channel<typeof HistoryTimelineInputSchema, HistoryTimeline | HistoryUnavailable>(
    HistoryTimelineInputSchema,
  ),
  /** The URLs whose result differs between two instants, with the reports before and after. */
  'history:compare': channel<typeof HistoryCompareInputSchema, HistoryCompare | HistoryUnavailable>(
    HistoryCompareInputSchema,
  ),
  /** The URLs as they stood at an instant, a page at a time, with the report that gave each its result. */
  'history:urls': channel<typeof HistoryUrlsInputSchema, HistoryUrls | HistoryUnavailable>(
    HistoryUrlsInputSchema,
  ),
  /** The chart's numbers or a compare as CSV or JSON, saved through `export:save` like any export. */
  'history:export': channel<typeof HistoryExportInputSchema, ExportResult>(HistoryExportInputSchema),

  'connectivity:status': channel<typeof none, ConnectivityState>(none),
  /** Probes the service now (the "retry" button) and answers the new state. */
  'connectivity:check': channel<typeof none, ConnectivityState>(none),

  /** Opens an http(s) URL in the system browser; anything else is refused. */
  'shell:openExternal': channel<z.ZodObject<{ url: z.ZodString }>, { opened: boolean }>(
    z.object({ url: z.string().max(4096) }).strict(),
  ),
  /** Opens a reportdesk:// link: switches to its profile, answers the route to show. */
  'links:open': channel<z.ZodObject<{ url: z.ZodString }>, OpenedLink>(
    z.object({ url: z.string().max(4096) }).strict(),
  ),

  'updates:status': channel<typeof none, UpdateStatus>(none),
  /** Checks the feed now (and downloads a newer version); answers when that has finished. */
  'updates:check': channel<typeof none, UpdateStatus>(none),
  'updates:setPreferences': channel<typeof UpdatePreferencesInputSchema, UpdateStatus>(
    UpdatePreferencesInputSchema,
  ),
  /** Restarts into the downloaded update once no sync, export or change is running. */
  'updates:restart': channel<typeof UpdateRestartInputSchema, UpdateStatus>(UpdateRestartInputSchema),
  /** Stops waiting to restart; the update is still installed when the app quits. */
  'updates:cancelRestart': channel<typeof none, UpdateStatus>(none),
  /** Issue 22: the profiles, connectivity and the expected list in one round trip. */
  'app:firstScreen': channel<typeof FirstScreenInputSchema, FirstScreen>(FirstScreenInputSchema),

  /** Issue 30: what was repaired, a damaged profiles file, orphaned keys (looks in the keychain). */
  'repairs:status': channel<typeof none, RepairsStatus>(none),
  /** Acknowledges one notice (its banner goes). */
  'repairs:dismiss': channel<z.ZodObject<{ id: z.ZodString }>, RepairsStatus>(
    z.object({ id: z.string().min(1).max(64) }).strict(),
  ),
  /** Brings back the profiles of orphaned keys that ReportDesk still knows (all, or those named). */
  'repairs:restoreKeys': channel<typeof OrphanedKeysInputSchema, RepairsStatus>(OrphanedKeysInputSchema),
  /** Deletes orphaned keys from the keychain (all, or those named). */
  'repairs:removeKeys': channel<typeof OrphanedKeysInputSchema, RepairsStatus>(OrphanedKeysInputSchema),
  /**
   * The user agrees to start a new, empty profile list over a damaged profiles.json that had no
   * backup (its copy stays where `repairs:status` says). Refused while the file is not damaged.
   */
  'profiles:startAfresh': channel<typeof none, ProfilesState>(none),
  /** What decides the app's language: the choice kept in the data folder, the system's, this run's --lang. */
  'settings:language': channel<typeof none, LanguageState>(none),
  /** Keeps the choice (a shipped language, or the system's) for every window, and applies it at once. */
  'settings:setLanguage': channel<typeof SetLanguageInputSchema, LanguageState>(SetLanguageInputSchema),
} as const satisfies Record<Channel, { input: z.ZodType; output: unknown }>;

export type ChannelInput<C extends Channel> = z.input<(typeof CHANNELS)[C]['input']>;
export type ChannelParsedInput<C extends Channel> = z.output<(typeof CHANNELS)[C]['input']>;
export type ChannelOutput<C extends Channel> = (typeof CHANNELS)[C]['output'];

// ---- Events (main → renderer) ---------------------------------------------------------------

export interface EventPayloads {
  'connectivity:changed': ConnectivityState;
  'sync:progress': SyncProgress;
  'export:progress': ExportProgress;
  'profiles:changed': ProfilesState;
  /** A deep link or menu item asks the renderer to go somewhere (e.g. "/reports/12"); `notice` says why not as asked. */
  'app:navigate': { path: string; notice?: AppError };
  /** A menu item asks the renderer to run a command (refresh, new report, focus search…). */
  'app:command': { command: AppCommand };
  'updates:changed': UpdateStatus;
  /** A profile's offline state changed (options, a run started or ended). */
  'offline:changed': OfflineState;
  /** A refresh or sync this app ran has ended. */
  'offline:refreshed': OfflineRefreshed;
  /** Issue 30: a repair was made, a notice dismissed, orphaned keys found or dealt with. */
  'repairs:changed': RepairsStatus;
  /** The language choice changed (Settings › Language): every window, the menu and the dialogs follow. */
  'language:changed': LanguageState;
}
// Every event has a payload type, and every payload type an event.
const _payloadForEveryEvent: [
  Exclude<EventName, keyof EventPayloads>,
  Exclude<keyof EventPayloads, EventName>,
] extends [never, never]
  ? true
  : never = true;
void _payloadForEveryEvent;
export type AppCommand =
  'refresh' | 'new-report' | 'focus-search' | 'show-history' | 'switch-profile' | 'sync' | 'show-shortcuts';

/** The object the preload (or the preview bridge) exposes as `window.reportDesk`. */
export interface ReportDeskBridge {
  invoke<C extends Channel>(channel: C, input?: ChannelInput<C>): Promise<Result<ChannelOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
}

/** What every implementation of the contract (the gateway) provides, channel by channel. */
export type ContractHandlers = {
  [C in Channel]: (input: ChannelParsedInput<C>) => Promise<ChannelOutput<C>>;
};

/** Channels whose usual input is read without zod when it is already plain (the busiest one). */
const PLAIN_INPUT: { [C in Channel]?: (input: unknown) => ChannelParsedInput<C> | undefined } = {
  'reports:list': plainListQuery,
};

/** Validates a channel's input; the answer is either the parsed input or an invalid_input error. */
export function parseChannelInput<C extends Channel>(name: C, input: unknown): Result<ChannelParsedInput<C>> {
  const plain = PLAIN_INPUT[name]?.(input);
  if (plain !== undefined) return { ok: true, value: plain };
  const parsed = CHANNELS[name].input.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data as ChannelParsedInput<C> };
  const issues = parsed.error.issues;
  const fieldWordings = fieldWordingsFrom(issues);
  const first = issues[0]?.message;
  const wording = first === undefined ? null : issueWording(first);
  const extra = {
    fieldErrors: fieldErrorsFrom(issues),
    ...(Object.keys(fieldWordings).length > 0 ? { fieldWordings } : {}),
  };
  return {
    ok: false,
    // The first issue is the sentence: the schema's own by its code, or zod's in words for the CLI
    // (the app then says the generic one).
    error: wording
      ? { ...wordedError(wording, extra), kind: 'invalid_input' }
      : englishOnlyError(
          'invalid_input',
          first === undefined ? englishOf({ code: 'invalid_input' }) : issueEnglish(first),
          extra,
        ),
  };
}
