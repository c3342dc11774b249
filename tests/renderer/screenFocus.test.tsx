/**
 * Where the focus goes after a navigation, in the orders a slow machine brings: lib/focus.ts ›
 * useScreenFocus when a dialog is still closing or the screen changes a commit after the path,
 * and lib/router.ts › useRoute, whose readers all take a new route in the same commit.
 */
import { act, render } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useScreenFocus } from '../../renderer/src/lib/focus';
import { pathOf, useRoute } from '../../renderer/src/lib/router';

function Screen({ path }: { path: string }) {
  useScreenFocus(path, `${path} screen`);
  return (
    <div id="main">
      <h1>{path}</h1>
    </div>
  );
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the focus after a navigation', () => {
  it('goes to the new heading once a dialog that was still open leaves', async () => {
    const link = document.createElement('a');
    link.href = '#/account';
    link.textContent = 'Account';
    document.body.append(link);
    const { rerender } = render(<Screen path="settings" />);
    const dialog = document.createElement('div');
    dialog.setAttribute('aria-modal', 'true');
    document.body.append(dialog);
    link.focus();
    rerender(<Screen path="account" />);
    // The dialog holds the focus off while it is there…
    expect(document.activeElement).toBe(link);
    // …and once it leaves, the new screen's heading has it.
    await act(async () => {
      dialog.remove();
      await Promise.resolve();
    });
    expect(document.activeElement?.textContent).toBe('account');
    expect(document.activeElement?.tagName).toBe('H1');
  });
});

/** A shell whose path can run ahead of its screen: `heading` null is a screen still loading. */
function Shell({ path, heading }: { path: string; heading: string | null }) {
  useScreenFocus(path, `${path} screen`);
  return <div id="main">{heading !== null && <h1 key={heading}>{heading}</h1>}</div>;
}

describe('a screen that changes a commit after the path', () => {
  it('hands the focus from the old heading, once it goes, to the new one when it arrives', async () => {
    const link = document.createElement('a');
    link.href = '#/account';
    document.body.append(link);
    const { rerender } = render(<Shell path="/settings" heading="Settings" />);
    link.focus();
    // The path first: the old heading is all there is to focus…
    rerender(<Shell path="/account" heading="Settings" />);
    expect(document.activeElement?.textContent).toBe('Settings');
    // …then the old screen goes (its replacement still loading), and the new heading comes.
    await act(async () => {
      rerender(<Shell path="/account" heading={null} />);
      await Promise.resolve();
    });
    await act(async () => {
      rerender(<Shell path="/account" heading="Account" />);
      await Promise.resolve();
    });
    expect(document.activeElement?.tagName).toBe('H1');
    expect(document.activeElement?.textContent).toBe('Account');
  });
});

describe('the route', () => {
  it('reaches every reader in one commit, even when the browser runs microtasks between listeners', async () => {
    window.history.replaceState(null, '', '#/settings');
    const added = vi.spyOn(window, 'addEventListener');
    const seen: string[] = [];
    // The child subscribes first (its effects run before its parent's), as the header does.
    function Header({ screen }: { screen: string }) {
      const path = pathOf(useRoute());
      useEffect(() => {
        seen.push(`${path} over ${screen}`);
      });
      return null;
    }
    function Screens() {
      return <Header screen={pathOf(useRoute())} />;
    }
    const { unmount } = render(<Screens />);
    const listeners = added.mock.calls
      .filter(([type]) => type === 'hashchange')
      .map(([, listener]) => listener);
    added.mockRestore();
    expect(listeners.length).toBeGreaterThan(0);
    seen.length = 0;

    window.history.replaceState(null, '', '#/account');
    // As a browser dispatches an event: each listener, then the microtasks (React renders there).
    for (const listener of listeners) {
      await act(async () => {
        if (typeof listener === 'function') listener(new HashChangeEvent('hashchange'));
        else listener?.handleEvent(new HashChangeEvent('hashchange'));
        await Promise.resolve();
      });
    }
    expect(seen).toEqual(['/account over /account']);
    unmount();
    window.history.replaceState(null, '', '#');
  });
});
