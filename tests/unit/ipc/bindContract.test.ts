import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import { createLogger, memorySink } from '../../../electron/core/log';
import {
  INVOKE_CHANNEL_PREFIX,
  bindContract,
  type IpcInvokeEventLike,
} from '../../../electron/core/ipc/bindContract';
import { isTrustedInvokeEvent } from '../../../electron/core/desktop/trust';
import { recordingHandlers } from '../../helpers/fakeHandlers';
import { FakeIpcMain, appEvent } from './fakes';

const WINDOW_ID = 7;
const trusted = (event: IpcInvokeEventLike) =>
  isTrustedInvokeEvent(event, { appOrigin: 'app://reportdesk', windowContentsId: WINDOW_ID });

function setUp() {
  const ipc = new FakeIpcMain();
  const fake = recordingHandlers();
  const sink = memorySink();
  const unbind = bindContract(ipc, fake.handlers, {
    isTrustedSender: trusted,
    logger: createLogger('ipc', sink),
  });
  return { ipc, ...fake, sink, unbind };
}

describe('bindContract', () => {
  it('binds exactly one ipc handler per contract channel, under the prefix', () => {
    const { ipc } = setUp();
    expect([...ipc.handlers.keys()].sort()).toEqual(
      CHANNEL_NAMES.map((c) => INVOKE_CHANNEL_PREFIX + c).sort(),
    );
  });

  it('answers a request from the app window with the handler value', async () => {
    const { ipc, calls } = setUp();
    const answer = await ipc.invoke('reportdesk:reports:list', appEvent(undefined, WINDOW_ID), {
      per_page: '25',
    });
    expect(answer).toEqual({ ok: true, value: { echoed: 'reports:list', input: { per_page: 25 } } });
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['another window', appEvent('app://reportdesk/index.html', WINDOW_ID + 1)],
    ['another origin', appEvent('https://evil.example/', WINDOW_ID)],
    ['a file: page', appEvent('file:///tmp/index.html', WINDOW_ID)],
    ['devtools', appEvent('devtools://devtools/bundled/inspector.html', WINDOW_ID)],
    ['about:blank', appEvent('about:blank', WINDOW_ID)],
    [
      'an iframe of the app',
      { senderFrame: { url: 'app://reportdesk/x.html', parent: {} }, sender: { id: WINDOW_ID } },
    ],
    ['a frame that is gone', { senderFrame: null, sender: { id: WINDOW_ID } }],
  ])('refuses a request from %s as forbidden, logs it, and never calls the handler', async (_name, event) => {
    const { ipc, calls, sink } = setUp();
    const answer = await ipc.invoke('reportdesk:profiles:list', event as IpcInvokeEventLike, undefined);
    expect(answer).toEqual({ ok: false, error: appError('ipc.foreign_sender') });
    expect(answer).toMatchObject({
      error: { message: "This request did not come from ReportDesk's window." },
    });
    expect(calls).toHaveLength(0);
    expect(sink.lines.some((l) => l.includes('WARN') && l.includes('foreign sender'))).toBe(true);
  });

  it('treats a sender check that throws as a foreign sender', async () => {
    const ipc = new FakeIpcMain();
    const fake = recordingHandlers();
    bindContract(ipc, fake.handlers, {
      isTrustedSender: () => {
        throw new Error('Object has been destroyed');
      },
    });
    const answer = await ipc.invoke('reportdesk:profiles:list', appEvent(undefined, WINDOW_ID));
    expect(answer).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(fake.calls).toHaveLength(0);
  });

  it('answers invalid input with field errors as a value', async () => {
    const { ipc, calls } = setUp();
    const answer = await ipc.invoke('reportdesk:reports:list', appEvent(undefined, WINDOW_ID), {
      per_page: 7,
    });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_input',
        fieldErrors: { per_page: ['Page size must be one of 10, 25, 50 or 100.'] },
      },
    });
    expect(calls).toHaveLength(0);
  });

  it('returns thrown AppFailures and thrown Errors as values, never as rejections', async () => {
    const { ipc, set } = setUp();
    set('reports:delete', async () => {
      throw new AppFailure({ kind: 'offline', code: 'offline', message: 'You are offline.' });
    });
    set('reports:create', async () => {
      throw new Error('socket hang up at /home/user/secret/path.ts:12');
    });
    await expect(
      ipc.invoke('reportdesk:reports:delete', appEvent(undefined, WINDOW_ID), { id: '3' }),
    ).resolves.toEqual({
      ok: false,
      error: { kind: 'offline', code: 'offline', message: 'You are offline.' },
    });
    const internal = await ipc.invoke('reportdesk:reports:create', appEvent(undefined, WINDOW_ID), {
      url: 'https://example.com',
    });
    expect(internal).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(JSON.stringify(internal)).not.toContain('socket hang up');
  });

  it('unbind removes every handler it registered, and can bind again afterwards', () => {
    const { ipc, handlers, unbind } = setUp();
    unbind();
    expect(ipc.handlers.size).toBe(0);
    // The fake throws on a duplicate registration, as Electron does: rebinding proves nothing was left.
    bindContract(ipc, handlers, { isTrustedSender: trusted });
    expect(ipc.handlers.size).toBe(CHANNEL_NAMES.length);
  });
});

describe('the fake ipcMain crosses the process boundary as Electron does', () => {
  it('a reply that cannot be cloned fails, a class instance loses its prototype, a throw crosses as text', async () => {
    const ipc = new FakeIpcMain();
    class Point {
      constructor(readonly x: number) {}
    }
    ipc.handle('fn', () => ({ run: () => 1 }));
    ipc.handle('instance', () => new Point(2));
    ipc.handle('throws', () => {
      throw Object.assign(new Error('boom'), { secret: 'kept in main' });
    });
    await expect(ipc.invoke('fn', appEvent())).rejects.toThrow('An object could not be cloned.');
    const instance = await ipc.invoke('instance', appEvent());
    expect(instance).toEqual({ x: 2 });
    expect(instance).not.toBeInstanceOf(Point);
    const thrown = await ipc.invoke('throws', appEvent()).catch((error: unknown) => error);
    expect(thrown).toEqual(new Error("Error invoking remote method 'throws': Error: boom"));
    expect(thrown).not.toHaveProperty('secret');
  });

  it('every contract reply survives the clone (the binding returns plain Results)', async () => {
    const ipc = new FakeIpcMain();
    const recording = recordingHandlers();
    bindContract(ipc, recording.handlers, { isTrustedSender: () => true });
    for (const channel of CHANNEL_NAMES) {
      const reply = await ipc.invoke(INVOKE_CHANNEL_PREFIX + channel, appEvent(), undefined);
      expect(reply).toHaveProperty('ok');
    }
  });
});
