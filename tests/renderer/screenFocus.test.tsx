/**
 * lib/focus.ts › useScreenFocus: a navigation made while a dialog is still closing waits for the
 * dialog to leave, then puts the focus on the new screen's heading (seen once under the load of
 * the whole test command: the focus stayed behind).
 */
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useScreenFocus } from '../../renderer/src/lib/focus';

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
