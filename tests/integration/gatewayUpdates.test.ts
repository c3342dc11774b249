/**
 * The `updates:*` channels through the real core (createCoreServices): what the preview and
 * the CLI answer without an updater, how the app's updater is given the core's events and the
 * work a restart waits for — a full sync, an export, report writes — against the reference
 * service on 127.0.0.1, slowed down so the work is seen while it runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, UpdateStatus } from '../../shared/contract';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import type { UpdatesContext } from '../../electron/core/updates/appUpdates';
import { UPDATE_SETTINGS_FILE } from '../../electron/core/updates/updateSettings';
import { unmanagedUpdates, type UpdatesService } from '../../electron/core/updates/updatesService';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';

let service: DemoService;
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'reportdesk-gateway-updates-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: 250 });
});
afterAll(async () => {
  await service.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('without an updater (the preview, the CLI)', () => {
  it('answers that the installed app manages updates, to every channel, and writes nothing', async () => {
    const dir = dataDir();
    const core = await createCoreServices({ dataDir: dir, probeIntervalMs: 0 });
    try {
      const expected = { ok: true, value: unmanagedUpdates('not_installed').status() };
      expect(await dispatch(core.handlers, 'updates:status', undefined)).toEqual(expected);
      expect(await dispatch(core.handlers, 'updates:check', undefined)).toEqual(expected);
      expect(await dispatch(core.handlers, 'updates:setPreferences', { automatic: false })).toEqual(expected);
      expect(await dispatch(core.handlers, 'updates:restart', { cancelWork: true })).toEqual(expected);
      expect(await dispatch(core.handlers, 'updates:cancelRestart', undefined)).toEqual(expected);
      expect(existsSync(join(dir, UPDATE_SETTINGS_FILE))).toBe(false);
    } finally {
      await core.close();
    }
  });

  it('checks the inputs against the contract', async () => {
    const core = await createCoreServices({ dataDir: dataDir(), probeIntervalMs: 0 });
    try {
      for (const [channel, input] of [
        ['updates:setPreferences', { channel: 'nightly' }],
        ['updates:setPreferences', { automatic: 'yes' }],
        ['updates:setPreferences', { feed: 'https://evil.example/' }],
        ['updates:restart', { cancelWork: 1 }],
      ] as const) {
        const result = await dispatch(core.handlers, channel, input);
        expect(result.ok, `${channel} ${JSON.stringify(input)}`).toBe(false);
        if (!result.ok) expect(result.error.kind).toBe('invalid_input');
      }
    } finally {
      await core.close();
    }
  });
});

describe("with the app's updater", () => {
  let core: CoreServices;
  let context: UpdatesContext;
  const calls: string[] = [];
  const events: [EventName, unknown][] = [];
  const status = (phase: UpdateStatus['phase']): UpdateStatus => ({
    ...unmanagedUpdates('not_installed').status(),
    managed: true,
    unmanagedReason: null,
    phase,
  });

  beforeAll(async () => {
    const updates: UpdatesService = {
      status: () => status('idle'),
      check: async () => (calls.push('check'), status('checking')),
      setPreferences: (changes) => (calls.push(`preferences ${JSON.stringify(changes)}`), status('idle')),
      restart: (options) => (calls.push(`restart ${JSON.stringify(options)}`), status('ready')),
      cancelRestart: () => (calls.push('cancelRestart'), status('ready')),
      beforeQuit: () => void calls.push('beforeQuit'),
      close: () => void calls.push('close'),
    };
    core = await createCoreServices({
      dataDir: dataDir(),
      probeIntervalMs: 0,
      fixedConnection: { baseUrl: service.baseUrl, apiKey: service.apiKey, allowInsecureHttp: false },
      updates: (given) => {
        context = given;
        return updates;
      },
    });
    core.events.subscribe((event, payload) => events.push([event, payload]));
  });
  afterAll(async () => {
    await core.close();
    expect(calls.at(-1)).toBe('close');
  });

  it('routes each channel to it, with its parsed input', async () => {
    expect(await dispatch(core.handlers, 'updates:status', undefined)).toEqual({
      ok: true,
      value: status('idle'),
    });
    await dispatch(core.handlers, 'updates:check', undefined);
    await dispatch(core.handlers, 'updates:setPreferences', { channel: 'beta' });
    await dispatch(core.handlers, 'updates:restart', undefined);
    await dispatch(core.handlers, 'updates:restart', {});
    await dispatch(core.handlers, 'updates:cancelRestart', undefined);
    expect(calls).toEqual([
      'check',
      'preferences {"channel":"beta"}',
      'restart undefined',
      'restart {"cancelWork":false}',
      'cancelRestart',
    ]);
    expect(core.updates.status()).toEqual(status('idle'));
  });

  it('sends its changes to every front end as the updates:changed event', () => {
    context.onChange(status('downloading'));
    expect(events.at(-1)).toEqual(['updates:changed', status('downloading')]);
  });

  it('sees a report write while it runs and for a moment after; nothing once quiet', async () => {
    expect(context.work.running()).toEqual([]);
    service.faults.setLatency(400);
    try {
      const write = core.handlers['reports:create']({
        url: 'https://example.com/update-test',
        privacy: 0,
      } as never);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(context.work.running()).toEqual(['changes']);
      await write;
      expect(context.work.running()).toEqual(['changes']);
    } finally {
      service.faults.setLatency(0);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(context.work.running()).toEqual([]);
  });

  it('sees a full sync and an export while they run, and cancels both', async () => {
    service.faults.setLatency(300);
    try {
      const sync = core.handlers['cache:sync'](undefined).catch((thrown: unknown) => thrown);
      const exported = core.handlers['reports:export']({ query: {}, format: 'csv' } as never).catch(
        (thrown: unknown) => thrown,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(context.work.running()).toEqual(['sync', 'export']);
      context.work.cancel();
      const [syncEnd, exportEnd] = await Promise.all([sync, exported]);
      expect((syncEnd as { error?: { kind: string } }).error?.kind).toBe('cancelled');
      expect((exportEnd as { error?: { kind: string } }).error?.kind).toBe('cancelled');
      expect(context.work.running()).toEqual([]);
    } finally {
      service.faults.setLatency(0);
    }
  });
});
