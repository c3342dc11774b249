/**
 * Another user of the same computer reading private reports, profiles or logs out of the data
 * dir. Real files on disk, real SQLite (WAL), modes read back with stat; the CLI as a real
 * process for its warning. POSIX only: Windows has no mode bits to check.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { createCoreServices, dataPaths } from '../../electron/core/services';
import { createLogger, memorySink, rotatingFileSink } from '../../electron/core/log';
import { spawnCliCaptured } from '../helpers/cli';
import { testKeyStore } from '../helpers/keychain';
import { skipWhen } from '../helpers/skip';

const KEY = 'key-modes-3f9a7c1d2e5b';
const modeOf = (path: string) => statSync(path).mode & 0o777;

let service: DemoService;
const root = mkdtempSync(join(tmpdir(), 'report-desk-modes-'));

beforeAll(async () => {
  service = await startDemoService({ accounts: [{ apiKey: KEY, account: { id: 1, name: 'M' } }] });
});
afterAll(async () => {
  await service.stop();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skipWhen(process.platform === 'win32', 'no POSIX modes on Windows'))(
  'another local user reading the data dir',
  () => {
    it('finds a new data dir 0700 and the cache (with -wal and -shm), profiles and logs 0600', async () => {
      // The usual umask, under which SQLite alone would create cache.sqlite 0644.
      const previous = process.umask(0o022);
      const dataDir = join(root, 'fresh', 'ReportDesk');
      try {
        const logs = join(dataDir, 'logs', 'app.log');
        const keychain = testKeyStore();
        const logger = createLogger('test', rotatingFileSink(logs), 'debug');
        logger.info('modes test started');
        const core = await createCoreServices({
          dataDir,
          keyStore: keychain.store,
          logger,
          probeIntervalMs: 0,
        });
        try {
          const added = await core.handlers['profiles:add']({
            name: 'Modes',
            baseUrl: service.baseUrl,
            apiKey: KEY,
            allowInsecureHttp: false,
            sessionOnly: false,
          });
          // Reports written to the cache: SQLite now has its -wal and -shm files open.
          await core.handlers['reports:list']({});
          const paths = dataPaths(dataDir);
          expect(modeOf(dataDir)).toBe(0o700);
          expect(core.dataDirAccess.readableByOthers).toBe(false);
          for (const file of [paths.cache, `${paths.cache}-wal`, `${paths.cache}-shm`, paths.profiles]) {
            expect({ file, mode: modeOf(file).toString(8) }).toEqual({ file, mode: '600' });
          }
          expect(modeOf(paths.logs)).toBe(0o700);
          expect(readFileSync(logs, 'utf8')).toContain('modes test started');
          expect(modeOf(logs)).toBe(0o600);
          // Whatever else the session wrote (the profiles lock, the sync lease's cache rows…):
          // every file in the data dir, at any depth, is the user's alone.
          const everyFile = readdirSync(dataDir, { recursive: true, withFileTypes: true })
            .filter((entry) => entry.isFile())
            .map((entry) => join(entry.parentPath, entry.name));
          expect(everyFile.length).toBeGreaterThanOrEqual(5);
          for (const file of everyFile) {
            expect({ file, mode: modeOf(file).toString(8) }).toEqual({ file, mode: '600' });
          }
          await core.handlers['profiles:remove']({ id: added.id });
        } finally {
          await core.close();
        }
      } finally {
        process.umask(previous);
      }
    });

    it('narrows a cache and log left 0644 by an earlier version, and warns that an 0755 dir is open', async () => {
      const dataDir = join(root, 'old');
      mkdirSync(join(dataDir, 'logs'), { recursive: true });
      chmodSync(dataDir, 0o755);
      const paths = dataPaths(dataDir);
      // An earlier version's files: an empty cache SQLite will initialise, and a log.
      writeFileSync(paths.cache, '', { mode: 0o644 });
      chmodSync(paths.cache, 0o644);
      const logFile = join(paths.logs, 'app.log');
      writeFileSync(logFile, 'old line\n', { mode: 0o644 });
      chmodSync(logFile, 0o644);
      writeFileSync(paths.profiles, JSON.stringify({ version: 1, profiles: [], activeId: null }), {
        mode: 0o644,
      });
      chmodSync(paths.profiles, 0o644);
      const lines = memorySink();
      const fileSink = rotatingFileSink(logFile);
      const core = await createCoreServices({
        dataDir,
        keyStore: testKeyStore().store,
        logger: createLogger('test', (line) => {
          lines(line);
          fileSink(line);
        }),
        probeIntervalMs: 0,
      });
      try {
        expect(modeOf(paths.cache)).toBe(0o600);
        expect(modeOf(logFile)).toBe(0o600);
        expect(modeOf(paths.profiles)).toBe(0o600);
        // The folder itself is left as the user set it, and said to be open.
        expect(modeOf(dataDir)).toBe(0o755);
        expect(core.dataDirAccess).toMatchObject({ readableByOthers: true, mode: 0o755 });
        expect(lines.lines.join('\n')).toMatch(/WARN .*data folder is readable by other users/);
        expect(readFileSync(logFile, 'utf8')).toMatch(/WARN .*data folder is readable by other users/);
        // Settings reads the same through cache:status.
        expect((await core.handlers['cache:status'](undefined)).exposedDataDir).toBe(dataDir);
      } finally {
        await core.close();
      }
    });

    it('the CLI warns on stderr when the data dir is readable by others, and only then', async () => {
      const open = join(root, 'cli-open');
      const closed = join(root, 'cli-closed');
      mkdirSync(open);
      chmodSync(open, 0o755);
      mkdirSync(closed, { mode: 0o700 });
      const env = (dir: string) => ({
        REPORT_DESK_DATA_DIR: dir,
        REPORT_DESK_BASE_URL: service.baseUrl,
        REPORT_DESK_API_KEY: KEY,
      });
      const warned = await spawnCliCaptured(['account'], env(open));
      expect(warned.code).toBe(0);
      expect(warned.stderr).toContain(
        `Warning: other users of this computer can read the data folder ${open} (mode 755)`,
      );
      expect(warned.stderr).toContain(`chmod 700 "${open}"`);
      expect(modeOf(join(open, 'cache.sqlite'))).toBe(0o600);
      const quiet = await spawnCliCaptured(['account'], env(closed));
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe('');
    });
  },
);
