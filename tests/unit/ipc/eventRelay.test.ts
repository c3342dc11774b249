import { describe, expect, it } from 'vitest';
import { EVENT_IPC_CHANNEL } from '../../../electron/core/ipc/channels';
import { RendererEventRelay, type EventTargetLike } from '../../../electron/core/ipc/eventRelay';
import { crossProcess } from './fakes';

/** webContents as Electron documents it: send() structured-clones its arguments; destroyed throws. */
class FakeContents implements EventTargetLike {
  readonly sent: unknown[][] = [];
  destroyed = false;
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.sent.push(crossProcess([channel, ...args]));
  }
}

const online = { online: true, since: '2025-01-01T00:00:00.000Z', lastError: null };

describe('RendererEventRelay', () => {
  it('forwards an event the page listens to as (name, payload) on the event channel', () => {
    const relay = new RendererEventRelay();
    const contents = new FakeContents();
    relay.attach(contents);
    relay.setListening('connectivity:changed', true);
    relay.deliver('connectivity:changed', online);
    expect(contents.sent).toEqual([[EVENT_IPC_CHANNEL, 'connectivity:changed', online]]);
  });

  it('drops state events nobody listens to', () => {
    const relay = new RendererEventRelay();
    const contents = new FakeContents();
    relay.attach(contents);
    relay.deliver('connectivity:changed', online);
    relay.setListening('connectivity:changed', true);
    expect(contents.sent).toEqual([]);
  });

  it('holds a deep link that arrives before the window exists and delivers it once the page listens', () => {
    const relay = new RendererEventRelay();
    relay.deliver('app:navigate', { path: '/reports/1' });
    relay.deliver('app:navigate', { path: '/reports/2' });
    relay.deliver('app:command', { command: 'new-report' });
    const contents = new FakeContents();
    relay.attach(contents);
    relay.setListening('app:navigate', true);
    // Only the latest navigation: the page can show one place.
    expect(contents.sent).toEqual([[EVENT_IPC_CHANNEL, 'app:navigate', { path: '/reports/2' }]]);
    relay.setListening('app:command', true);
    expect(contents.sent.at(-1)).toEqual([EVENT_IPC_CHANNEL, 'app:command', { command: 'new-report' }]);
    // Delivered once, not again on a later subscription.
    relay.setListening('app:navigate', true);
    expect(contents.sent).toHaveLength(2);
  });

  it('holds menu commands again after the page reloads, until the new page listens', () => {
    const relay = new RendererEventRelay();
    const contents = new FakeContents();
    relay.attach(contents);
    relay.setListening('app:command', true);
    relay.pageChanged();
    relay.deliver('app:command', { command: 'refresh' });
    expect(contents.sent).toEqual([]);
    relay.setListening('app:command', true);
    expect(contents.sent).toEqual([[EVENT_IPC_CHANNEL, 'app:command', { command: 'refresh' }]]);
  });

  it('stops sending when the page stops listening', () => {
    const relay = new RendererEventRelay();
    const contents = new FakeContents();
    relay.attach(contents);
    relay.setListening('sync:progress', true);
    relay.setListening('sync:progress', false);
    relay.deliver('sync:progress', {
      profileId: 'p',
      page: 1,
      lastPage: 2,
      fetched: 10,
      total: 20,
      phase: 'fetching',
    });
    expect(contents.sent).toEqual([]);
  });

  it('ignores subscription messages with names or flags outside the contract', () => {
    const relay = new RendererEventRelay();
    const contents = new FakeContents();
    relay.attach(contents);
    relay.setListening('app:navigate', 'yes');
    relay.setListening('secret:event', true);
    relay.deliver('app:navigate', { path: '/reports/3' });
    expect(contents.sent).toEqual([]);
  });

  it('keeps at most ten held commands, the newest', () => {
    const relay = new RendererEventRelay();
    for (let i = 0; i < 15; i++) relay.deliver('app:command', { command: i % 2 ? 'refresh' : 'sync' });
    const contents = new FakeContents();
    relay.attach(contents);
    relay.setListening('app:command', true);
    expect(contents.sent).toHaveLength(10);
    expect(contents.sent.at(-1)).toEqual([EVENT_IPC_CHANNEL, 'app:command', { command: 'sync' }]);
  });

  it('survives a window destroyed under it', () => {
    const relay = new RendererEventRelay();
    const contents = new FakeContents();
    relay.attach(contents);
    relay.setListening('profiles:changed', true);
    contents.destroyed = true;
    expect(() => relay.deliver('profiles:changed', { profiles: [], activeId: null })).not.toThrow();
  });
});
