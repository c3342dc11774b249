#!/usr/bin/env node
// `npm run mutation [-- file.ts ...]`: StrykerJS over the core, one file at a time, each
// mutant run only against the test files that cover that file (TARGETS below), one test
// runner at a time (the machine is shared). Prints one JSON line per file on stdout, like the
// benchmarks; Stryker's own output goes to stderr. Not part of ./scripts/test.sh: it takes
// about half an hour. See docs/TESTING.md.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each scored file and the tests that exercise it. */
const TARGETS = {
  // The base-URL rules live in shared/ (the forms use them too); core/api/baseUrl.ts wraps them.
  'shared/baseUrl.ts': ['tests/unit/api/baseUrl*.test.ts'],
  // Issue 22: its remembered base URLs are tested through the client.
  'electron/core/api/baseUrl.ts': [
    'tests/unit/api/baseUrl*.test.ts',
    'tests/unit/api/clientBaseUrl.test.ts',
    // Issue 29: what is remembered, and the bound.
    'tests/unit/api/checkedBaseUrl.test.ts',
  ],
  'electron/core/api/responses.ts': [
    'tests/unit/api/responses.test.ts',
    'tests/unit/api/responsesFastPath.test.ts',
    'tests/integration/client.test.ts',
    // Issue 22: the reply fast paths (secrets check, plainReport).
    'tests/unit/api/replySecrets.test.ts',
    'tests/unit/api/plainReport.test.ts',
    'tests/unit/api/plainReportZod.test.ts',
  ],
  'electron/core/api/client.ts': [
    'tests/integration/client.test.ts',
    'tests/integration/clientEdges.test.ts',
    'tests/integration/clientElectronNet.test.ts',
    // Issue 22: the remembered base URLs.
    'tests/unit/api/clientBaseUrl.test.ts',
  ],
  // The client's wire (bounded body, cancellable wait, Electron's redirect refusal), moved out of client.ts.
  'electron/core/api/transport.ts': [
    'tests/integration/client.test.ts',
    'tests/integration/clientEdges.test.ts',
    'tests/integration/clientElectronNet.test.ts',
  ],
  // Issue 29: one test for a secret field and one way to cut secrets out, for the log sink and
  // the scrubber alike; the bounded memory behind field-name verdicts and checked base URLs.
  'electron/core/redaction.ts': [
    'tests/unit/secretFields.test.ts',
    'tests/unit/security/redaction.test.ts',
    'tests/unit/secretsRules.test.ts',
    'tests/unit/secrets.test.ts',
    'tests/unit/api/replySecrets.test.ts',
  ],
  'electron/core/boundedMemo.ts': ['tests/unit/boundedMemo.test.ts', 'tests/unit/api/checkedBaseUrl.test.ts'],
  // dataDirModes.test.ts, which also writes the rotating log, sets process.umask(), which
  // Stryker's runner refuses; logSink.test.ts rotates the file instead.
  'electron/core/log.ts': [
    'tests/unit/secretFields.test.ts',
    'tests/unit/security/redaction.test.ts',
    'tests/unit/secrets.test.ts',
    'tests/unit/logSink.test.ts',
  ],
  // Issue 22: the scrubber and the reply fast path's check.
  'electron/core/secrets.ts': [
    'tests/unit/secretFields.test.ts',
    'tests/unit/secrets.test.ts',
    'tests/unit/secretsRules.test.ts',
    'tests/unit/api/replySecrets.test.ts',
    'tests/unit/api/replyNoSecrets.test.ts',
    'tests/unit/api/responsesFastPath.test.ts',
    'tests/unit/api/responses.test.ts',
  ],
  'electron/core/keys/keyVault.ts': ['tests/integration/keys.test.ts', 'tests/integration/keyVault.test.ts'],
  'electron/core/profiles/profileStore.ts': [
    'tests/integration/profiles.test.ts',
    'tests/integration/profileStore.test.ts',
    'tests/integration/profileStoreBehaviour.test.ts',
    // Issue 22: the active profile with one look at the file.
    'tests/integration/profileStoreActiveProfile.test.ts',
    // Issue 29: the per-profile offline options (setOfflineOptions) had no test listed here.
    'tests/integration/profileOfflineOptions.test.ts',
    'tests/integration/keepOffline.test.ts',
  ],
  'electron/core/cache/reportCache.ts': [
    'tests/integration/cache.test.ts',
    'tests/integration/reportCache.test.ts',
    'tests/integration/reportCacheBehaviour.test.ts',
    'tests/integration/cacheWriteSoon.test.ts',
    'tests/integration/cacheMigrations.test.ts',
  ],
  'electron/core/cache/listPlan.ts': [
    'tests/unit/cache/listPlan.test.ts',
    'tests/unit/cache/countedPlan.test.ts',
    'tests/integration/cacheQueryPlan.test.ts',
    'tests/integration/listQueryReads.test.ts',
    'tests/integration/countedQuery.test.ts',
  ],
  // The list query moved out of reportCache.ts (issue 15); the same tests guard it.
  'electron/core/cache/listQuery.ts': [
    'tests/integration/cache.test.ts',
    'tests/integration/reportCache.test.ts',
    'tests/integration/reportCacheBehaviour.test.ts',
    'tests/integration/cacheQueryPlan.test.ts',
    'tests/integration/listQueryReads.test.ts',
    'tests/integration/countedQuery.test.ts',
    'tests/integration/countedReads.test.ts',
  ],
  // Issue 22: a large scope's counted list, and what both roads share.
  'electron/core/cache/countedQuery.ts': [
    'tests/unit/cache/countedPlan.test.ts',
    'tests/integration/countedQuery.test.ts',
    'tests/integration/countedReads.test.ts',
  ],
  'electron/core/cache/pageSeek.ts': [
    'tests/integration/pageSeek.test.ts',
    'tests/integration/countedQuery.test.ts',
  ],
  'electron/core/cache/listSql.ts': [
    'tests/integration/cacheQueryPlan.test.ts',
    'tests/integration/listQueryReads.test.ts',
    'tests/integration/countedQuery.test.ts',
    'tests/integration/countedReads.test.ts',
  ],
  'electron/core/cache/migrations/v5ListCounts.ts': [
    'tests/integration/countedQuery.test.ts',
    'tests/integration/countedScopes.test.ts',
    'tests/integration/cacheMigrations.test.ts',
  ],
  // Issue 22: the list query read without zod when it is plain, and the connection and client
  // a request gets without awaiting anything.
  'shared/plainListQuery.ts': ['tests/unit/ipc/plainListQuery.test.ts'],
  'electron/core/gateway/connection.ts': ['tests/integration/connections.test.ts'],
  // Issue 22: the first screen's one round trip.
  'electron/core/gateway/firstScreen.ts': ['tests/integration/firstScreen.test.ts'],
  'electron/core/cache/fullSync.ts': [
    'tests/integration/syncResumeMark.test.ts',
    // Issue 29: a fresh sync checks the whole copy first, a resumed one does not.
    'tests/integration/fullSyncCheck.test.ts',
    'tests/integration/sync.test.ts',
    'tests/integration/fullSyncBehaviour.test.ts',
    'tests/integration/fullSyncSettles.test.ts',
  ],
  // The CLI's proxy support (issue 23); tests/integration/cliProxy.test.ts runs it in child processes.
  'electron/cli/proxy.ts': ['tests/unit/cli/proxy.test.ts'],
  // The launcher and the screenshots command (issue 23), plain JS run by npm;
  // tests/integration/launcher.test.ts runs the launcher in child processes. Their entry points
  // (scripts/launch.mjs, scripts/screenshots.mjs) are two lines each and not scored (issue 29).
  'scripts/launcher.mjs': ['tests/unit/runtime/launch.test.ts', 'tests/unit/runtime/nativeModules.test.ts'],
  'scripts/screenshotPictures.mjs': ['tests/unit/runtime/screenshots.test.ts'],
  // Issue 21: the updater (electron/core/updates) and the lock it shares with the profiles.
  // The update commands' process tests (updateCommands.test.ts) are left out: Stryker cannot
  // see into a child process, and updateFeed.test.ts runs the same check in this one.
  'electron/core/fileLock.ts': [
    'tests/integration/updateSettings.test.ts',
    'tests/integration/profileStore.test.ts',
    'tests/integration/profileStoreBehaviour.test.ts',
  ],
  'electron/core/updates/feedUrl.ts': [
    'tests/unit/updates/feedUrl.test.ts',
    'tests/integration/updateFeed.test.ts',
  ],
  'electron/core/updates/signatures.ts': [
    'tests/unit/updates/signatures.test.ts',
    'tests/integration/updateFeed.test.ts',
  ],
  'electron/core/updates/updateFailure.ts': [
    'tests/unit/updates/updateFailure.test.ts',
    'tests/integration/updateFeed.test.ts',
  ],
  'electron/core/updates/feedHttp.ts': [
    'tests/unit/updates/signedFeedProvider.test.ts',
    'tests/integration/updateFeed.test.ts',
    'tests/integration/updateController.test.ts',
  ],
  'electron/core/updates/electronTransport.ts': ['tests/integration/updateFeed.test.ts'],
  'electron/core/updates/signedFeedProvider.ts': [
    'tests/unit/updates/signedFeedProvider.test.ts',
    'tests/integration/updateFeed.test.ts',
    'tests/integration/updateController.test.ts',
  ],
  'electron/core/updates/updaters.ts': [
    'tests/unit/updates/updaters.test.ts',
    'tests/integration/updateFeed.test.ts',
    'tests/integration/updateController.test.ts',
  ],
  'electron/core/updates/updateCheck.ts': ['tests/integration/updateFeed.test.ts'],
  'electron/core/updates/updateSettings.ts': [
    'tests/integration/updateSettings.test.ts',
    'tests/integration/updateController.test.ts',
  ],
  'electron/core/updates/updateController.ts': [
    'tests/integration/updateController.test.ts',
    'tests/unit/updates/updatesService.test.ts',
  ],
  'electron/core/updates/updatesService.ts': [
    'tests/unit/updates/updatesService.test.ts',
    'tests/integration/gatewayUpdates.test.ts',
  ],
  'electron/core/updates/workActivity.ts': [
    'tests/unit/updates/workActivity.test.ts',
    'tests/integration/gatewayUpdates.test.ts',
  ],
  'electron/core/updates/appUpdates.ts': [
    'tests/integration/updateController.test.ts',
    'tests/unit/packaging/electronBuilder.test.ts',
  ],
  // Keep available offline (issue 20): the change log, the quick refresh, the settling sync's
  // parts, the scheduler and the gateway's services over them.
  'electron/core/cache/reportDiff.ts': [
    'tests/unit/cache/changes.test.ts',
    'tests/integration/changeLog.test.ts',
  ],
  'electron/core/cache/changeSummary.ts': [
    'tests/unit/cache/changes.test.ts',
    'tests/integration/offlineChanges.test.ts',
  ],
  'electron/core/cache/changeLog.ts': [
    'tests/integration/changeLog.test.ts',
    'tests/integration/offlineChanges.test.ts',
    // Issue 29: the age cut in log order.
    'tests/integration/pageWrite.test.ts',
    // Issue 27: a URL's entries (forReports).
    'tests/integration/historyCache.test.ts',
  ],
  'electron/core/cache/reportWrites.ts': [
    'tests/integration/pageWrite.test.ts',
    // Issue 27: the batch's one upsert and the values it writes.
    'tests/integration/reportWritesBatch.test.ts',
    'tests/integration/changeLog.test.ts',
    'tests/integration/cache.test.ts',
    'tests/integration/reportCacheBehaviour.test.ts',
    'tests/integration/cacheWriteSoon.test.ts',
    'tests/integration/offlineChanges.test.ts',
  ],
  // Issue 29: a page's rows upserted by one statement, in rowid order.
  'electron/core/cache/rowUpserts.ts': [
    'tests/integration/pageWrite.test.ts',
    'tests/integration/cache.test.ts',
    'tests/integration/changeLog.test.ts',
  ],
  'electron/core/cache/cacheFile.ts': [
    // Issue 29: which failures the WAL switch retries, and the wait between retries.
    'tests/unit/cache/walSwitch.test.ts',
    'tests/integration/cache.test.ts',
    'tests/integration/reportCache.test.ts',
    'tests/integration/reportCacheBehaviour.test.ts',
    'tests/integration/cacheMigrations.test.ts',
  ],
  'electron/core/cache/pageGaps.ts': [
    'tests/unit/cache/pageGaps.test.ts',
    'tests/integration/fullSyncBehaviour.test.ts',
    'tests/integration/fullSyncSettles.test.ts',
  ],
  'electron/core/cache/pageBatch.ts': [
    'tests/unit/cache/pageBatch.test.ts',
    'tests/integration/fullSyncBehaviour.test.ts',
  ],
  'electron/core/cache/syncLease.ts': [
    // Issue 29: the renewal timer, and what a lost claim stops.
    'tests/integration/syncLeaseRenewal.test.ts',
    'tests/integration/reportCacheBehaviour.test.ts',
    'tests/integration/sync.test.ts',
    'tests/integration/fullSyncBehaviour.test.ts',
    'tests/integration/quickRefresh.test.ts',
  ],
  'electron/core/cache/syncState.ts': [
    // Issue 29: a run resumes only with both its mark and its progress.
    'tests/integration/syncResumeMark.test.ts',
    'tests/integration/sync.test.ts',
    'tests/integration/fullSyncBehaviour.test.ts',
    'tests/integration/fullSyncSettles.test.ts',
  ],
  'electron/core/cache/quickRefresh.ts': [
    'tests/integration/quickRefresh.test.ts',
    'tests/integration/offlineChanges.test.ts',
  ],
  'electron/core/offline/options.ts': ['tests/unit/offline/options.test.ts'],
  'electron/core/offline/plan.ts': [
    'tests/unit/offline/plan.test.ts',
    'tests/unit/offline/scheduler.test.ts',
  ],
  'electron/core/offline/scheduler.ts': ['tests/unit/offline/scheduler.test.ts'],
  'electron/core/gateway/changesService.ts': [
    'tests/integration/offlineChanges.test.ts',
    'tests/integration/cliChanges.test.ts',
  ],
  'electron/core/gateway/offlineService.ts': [
    'tests/integration/keepOffline.test.ts',
    // Issue 29: nothing announced for a scope that is no profile, nor after close.
    'tests/integration/offlineServiceAnnounce.test.ts',
  ],
  // Issue 30: the machine's own faults.
  'electron/core/crashPoints.ts': ['tests/unit/crashPoints.test.ts'],
  'electron/core/processOwner.ts': [
    'tests/unit/processOwner.test.ts',
    'tests/integration/guardedDatabase.test.ts',
  ],
  'electron/core/storageFailure.ts': [
    'tests/unit/storageFailure.test.ts',
    'tests/integration/localStore.test.ts',
    'tests/integration/changeOutbox.test.ts',
  ],
  'electron/core/storageErrors.ts': ['tests/unit/storageFailure.test.ts'],
  'electron/core/sqliteFile.ts': [
    'tests/integration/sqliteFile.test.ts',
    // Issue 29: a folder that answers its names unsorted.
    'tests/integration/unsortedFolder.test.ts',
    'tests/integration/guardedDatabase.test.ts',
    'tests/integration/localStore.test.ts',
  ],
  'electron/core/guardedDatabase.ts': [
    'tests/integration/guardedDatabase.test.ts',
    'tests/integration/localStore.test.ts',
    'tests/integration/changeOutbox.test.ts',
  ],
  'electron/core/asideName.ts': [
    'tests/integration/sqliteFile.test.ts',
    'tests/integration/profilesFile.test.ts',
  ],
  'electron/core/runMarkers.ts': ['tests/integration/guardedDatabase.test.ts'],
  'electron/core/atomicWrite.ts': [
    'tests/unit/atomicWrite.test.ts',
    // Issue 29: the fsyncs and the chmod, recorded call by call; Windows named.
    'tests/unit/atomicWriteSync.test.ts',
    'tests/integration/profiles.test.ts',
  ],
  'electron/core/local/localStore.ts': [
    'tests/integration/localStore.test.ts',
    // Issue 29: the backup's fsync and its folder's, recorded call by call.
    'tests/integration/localStoreSync.test.ts',
    'tests/integration/changeOutbox.test.ts',
  ],
  'electron/core/local/notices.ts': ['tests/integration/localStore.test.ts'],
  'electron/core/local/repairNotes.ts': [
    'tests/integration/localStore.test.ts',
    'tests/integration/orphanedKeys.test.ts',
  ],
  'electron/core/cache/cacheConnection.ts': [
    'tests/integration/cacheConnection.test.ts',
    'tests/integration/changeOutbox.test.ts',
    'tests/integration/cacheWriteSoon.test.ts',
  ],
  'electron/core/cache/changeOutbox.ts': [
    'tests/integration/changeOutbox.test.ts',
    'tests/integration/cacheConnection.test.ts',
    'tests/integration/changeLog.test.ts',
  ],
  // The account kept per scope (moved out of reportCache.ts, which stays under 400 lines).
  'electron/core/cache/accountRows.ts': [
    'tests/integration/cache.test.ts',
    'tests/integration/connections.test.ts',
    'tests/integration/reportCacheBehaviour.test.ts',
  ],
  'electron/core/cache/cacheScopes.ts': [
    'tests/integration/changeOutbox.test.ts',
    'tests/integration/changeLog.test.ts',
    'tests/integration/reportCacheBehaviour.test.ts',
  ],
  'electron/core/cache/pendingWrites.ts': [
    // Issue 29: the queue's timing and the work it does not do, on fake timers.
    'tests/unit/cache/pendingWrites.test.ts',
    'tests/integration/cacheWriteSoon.test.ts',
    'tests/integration/cache.test.ts',
  ],
  'electron/core/profiles/profilesFile.ts': [
    'tests/integration/profilesFile.test.ts',
    // Issue 29: a folder that answers its names unsorted.
    'tests/integration/unsortedFolder.test.ts',
    'tests/integration/orphanedKeys.test.ts',
    'tests/integration/profilesBackup.test.ts',
    'tests/integration/profiles.test.ts',
    'tests/integration/profileStoreBehaviour.test.ts',
  ],
  'electron/core/profiles/profilesOnDisk.ts': [
    'tests/integration/profilesOnDisk.test.ts',
    'tests/integration/profilesBackup.test.ts',
    'tests/integration/profiles.test.ts',
    'tests/integration/profileStore.test.ts',
    'tests/integration/profileStoreBehaviour.test.ts',
  ],
  'electron/core/keys/orphanedKeys.ts': ['tests/integration/orphanedKeys.test.ts'],
  'electron/core/gateway/repairsService.ts': ['tests/integration/orphanedKeys.test.ts'],
  // Issue 27: history from the offline copy. The property test's one child-process case is
  // invisible to Stryker; its in-process cases cover the same code.
  'shared/calendar.ts': ['tests/unit/calendar.test.ts', 'tests/integration/historyProperty.test.ts'],
  'electron/core/cache/migrations/v6History.ts': [
    'tests/integration/historyCache.test.ts',
    'tests/integration/cacheMigrations.test.ts',
    'tests/integration/historyProperty.test.ts',
  ],
  // Issue 29: history's triggers made cheaper (v8), the sums brought up to date per transaction.
  'electron/core/cache/migrations/v8HistoryPending.ts': [
    'tests/integration/historyCache.test.ts',
    'tests/integration/cacheMigrations.test.ts',
    'tests/integration/historyProperty.test.ts',
  ],
  'electron/core/cache/historyPending.ts': [
    'tests/integration/historyCache.test.ts',
    'tests/integration/pageWrite.test.ts',
    'tests/integration/historyProperty.test.ts',
  ],
  'electron/core/cache/historyCounts.ts': [
    'tests/unit/cache/historyEdges.test.ts',
    'tests/integration/historyCache.test.ts',
    'tests/integration/historyGateway.test.ts',
    'tests/integration/historyProperty.test.ts',
  ],
  'electron/core/cache/history.ts': [
    // The order Compare's URLs are sorted in, and which comparison it takes.
    'tests/unit/cache/codePointOrder.test.ts',
    'tests/integration/historyCache.test.ts',
    'tests/integration/historyGateway.test.ts',
    'tests/integration/historyProperty.test.ts',
  ],
  'electron/core/gateway/historyService.ts': [
    'tests/integration/historyGateway.test.ts',
    'tests/integration/cliHistory.test.ts',
  ],
  'electron/core/export/historyExport.ts': ['tests/integration/historyGateway.test.ts'],
  'electron/cli/timeArgument.ts': [
    'tests/unit/cli/timeArgument.test.ts',
    'tests/integration/cliHistory.test.ts',
    'tests/integration/historyProperty.test.ts',
  ],
  // Languages (issue 28): the settings file both app-wide settings use, the language setting,
  // the main process's words, the language rules, the pseudo-languages and the error codes'
  // English sentences (each checked against the English catalogue's).
  'electron/core/settingsFile.ts': [
    'tests/integration/updateSettings.test.ts',
    'tests/integration/languageSettings.test.ts',
  ],
  'electron/core/gateway/languageService.ts': ['tests/integration/languageSettings.test.ts'],
  'electron/core/desktop/words.ts': [
    'tests/unit/desktop/words.test.ts',
    'tests/unit/i18n/pseudo.test.ts',
    'tests/unit/i18n/bidi.test.ts',
  ],
  'shared/i18n/languages.ts': ['tests/unit/i18n/languages.test.ts'],
  'shared/i18n/pseudo.ts': ['tests/unit/i18n/pseudo.test.ts', 'tests/unit/desktop/words.test.ts'],
  'shared/errorCodes.ts': ['tests/unit/i18n/errorWords.test.ts'],
  // Right to left and packaging (issue 28): user data isolated in sentences, the message tree both
  // the pseudo-languages and the isolation rewrite, the installers' languages.
  'shared/i18n/bidi.ts': ['tests/unit/i18n/bidi.test.ts'],
  'shared/i18n/messageTree.ts': ['tests/unit/i18n/bidi.test.ts', 'tests/unit/i18n/pseudo.test.ts'],
  'electron/core/desktop/packagingLanguages.ts': ['tests/unit/packaging/languages.test.ts'],
};

const requested = process.argv.slice(2);
const files = requested.length > 0 ? requested : Object.keys(TARGETS);
let failed = false;

for (const file of files) {
  // A file without an entry runs against every Node test (slow, but nothing is missed).
  const tests = TARGETS[file] ?? ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'];
  const started = Date.now();
  const run = spawnSync('npx', ['stryker', 'run'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, STRYKER_MUTATE: file, MUTATION_TESTS: tests.join(',') },
  });
  const reportFile = join(root, 'reports/mutation', `${file.replace(/[^a-zA-Z0-9]+/g, '-')}.json`);
  if (run.status !== 0) {
    process.stderr.write(
      `[mutation] Stryker failed on ${file} (exit ${run.status}); see its output above.\n`,
    );
    failed = true;
    continue;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const counts = {
    Killed: 0,
    Survived: 0,
    NoCoverage: 0,
    Timeout: 0,
    Ignored: 0,
    CompileError: 0,
    RuntimeError: 0,
  };
  for (const result of Object.values(report.files)) {
    for (const mutant of result.mutants) counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
  }
  // A time-out is a detected mutant (the test run never finished), as Stryker counts it.
  const detected = counts.Killed + counts.Timeout;
  const undetected = counts.Survived + counts.NoCoverage;
  const score = detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
  process.stdout.write(
    JSON.stringify({
      file,
      killed: counts.Killed,
      survived: counts.Survived,
      no_coverage: counts.NoCoverage,
      timeout: counts.Timeout,
      ignored: counts.Ignored,
      score: Math.round(score * 100) / 100,
      goal: '>= 90',
      met: score >= 90,
      seconds: Math.round((Date.now() - started) / 1000),
    }) + '\n',
  );
}
process.exit(failed ? 1 : 0);
