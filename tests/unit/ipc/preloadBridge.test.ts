import { describe, expect, it } from 'vitest';
import { CHANNELS, CHANNEL_NAMES } from '../../../shared/contract';
import { EVENT_IPC_CHANNEL, SUBSCRIPTION_IPC_CHANNEL } from '../../../electron/core/ipc/channels';
import { createBridge, type IpcRendererLike } from '../../../electron/core/ipc/preloadBridge';

/** A fake ipcRenderer: records invokes and sends, and lets the test emit main's events. */
class FakeIpcRenderer implements IpcRendererLike {
  readonly invoked: { channel: string; args: unknown[] }[] = [];
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly listeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  answer: (channel: string, input: unknown) => Promise<unknown> = async () => ({
    ok: true,
    value: 'answered',
  });

  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return this.answer(channel, args[0]);
  }
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): this {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
    return this;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  /** What main's webContents.send(EVENT_IPC_CHANNEL, name, payload) does. */
  emit(name: unknown, payload: unknown): void {
    const secretEvent = { sender: 'the ipcRenderer itself', ports: [] };
    for (const listener of this.listeners.get(EVENT_IPC_CHANNEL) ?? []) listener(secretEvent, name, payload);
  }
}

describe('the preload whitelists', () => {
  // Events have no runtime map to compare with: shared/contract.ts checks them at compile time.
  it('list exactly the contract channels', () => {
    expect([...CHANNEL_NAMES].sort()).toEqual(Object.keys(CHANNELS).sort());
  });
});

describe('createBridge().invoke', () => {
  it('sends a contract channel to main under the prefix and returns its Result', async () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    expect(await bridge.invoke('reports:get', { id: '4' })).toEqual({ ok: true, value: 'answered' });
    expect(ipc.invoked).toEqual([{ channel: 'reportdesk:reports:get', args: [{ id: '4' }] }]);
  });

  it.each(['reports:drop', 'event', 'subscription', '__proto__', ''])(
    'answers invalid_input for "%s" without touching IPC',
    async (channel) => {
      const ipc = new FakeIpcRenderer();
      const bridge = createBridge(ipc);
      const answer = await bridge.invoke(channel as never, {} as never);
      expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(ipc.invoked).toHaveLength(0);
    },
  );

  it('turns a failed IPC call into a Result instead of a rejection', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.answer = () => Promise.reject(new Error("No handler registered for 'reportdesk:account:get'"));
    const answer = await createBridge(ipc).invoke('account:get');
    expect(answer).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(JSON.stringify(answer)).not.toContain('No handler');
  });
});

describe('createBridge().on', () => {
  it('delivers only the payload of the subscribed event, never the IPC event object', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    const received: unknown[][] = [];
    bridge.on('app:navigate', (...args) => received.push(args));
    ipc.emit('app:navigate', { path: '/reports/1' });
    ipc.emit('app:command', { command: 'refresh' });
    expect(received).toEqual([[{ path: '/reports/1' }]]);
  });

  it('ignores event names that are not in the contract, both ways', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    const unsubscribe = bridge.on('secret:event' as never, () => {
      throw new Error('must not be called');
    });
    expect(typeof unsubscribe).toBe('function');
    expect(ipc.listeners.size).toBe(0);
    expect(ipc.sent).toHaveLength(0);
    const received: unknown[] = [];
    bridge.on('sync:progress', (p) => received.push(p));
    ipc.emit('secret:event', { x: 1 });
    expect(received).toEqual([]);
  });

  it('listens on one ipc channel however many subscriptions there are', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    bridge.on('app:navigate', () => {});
    bridge.on('app:command', () => {});
    bridge.on('app:command', () => {});
    expect(ipc.listeners.get(EVENT_IPC_CHANNEL)).toHaveLength(1);
  });

  it('unsubscribe stops delivery to that listener only', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    const first: unknown[] = [];
    const second: unknown[] = [];
    const offFirst = bridge.on('profiles:changed', (p) => first.push(p));
    bridge.on('profiles:changed', (p) => second.push(p));
    offFirst();
    ipc.emit('profiles:changed', { profiles: [], activeId: null });
    expect(first).toEqual([]);
    expect(second).toHaveLength(1);
  });

  it('tells main when the page starts and stops listening to an event', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    const offA = bridge.on('app:navigate', () => {});
    const offB = bridge.on('app:navigate', () => {});
    offA();
    offA(); // a second call is harmless
    offB();
    expect(ipc.sent).toEqual([
      { channel: SUBSCRIPTION_IPC_CHANNEL, args: ['app:navigate', true] },
      { channel: SUBSCRIPTION_IPC_CHANNEL, args: ['app:navigate', false] },
    ]);
  });

  it('keeps delivering to other listeners when one throws', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    const received: unknown[] = [];
    const originalError = console.error;
    console.error = () => {};
    try {
      bridge.on('connectivity:changed', () => {
        throw new Error('broken listener');
      });
      bridge.on('connectivity:changed', (p) => received.push(p));
      ipc.emit('connectivity:changed', { online: false, since: '2025-01-01T00:00:00.000Z', lastError: null });
    } finally {
      console.error = originalError;
    }
    expect(received).toHaveLength(1);
  });
});
