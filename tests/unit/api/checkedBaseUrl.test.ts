/**
 * What core/api/baseUrl.ts remembers of the base URLs it checked: one entry per address and
 * plain-http allowance (the same answer, not checked again), never one address's answer for
 * another's, and at most 16 of them (the 17th starts the memory afresh). Each test loads the
 * module afresh, so it starts with nothing remembered.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

let checkedBaseUrl: typeof import('../../../electron/core/api/baseUrl').checkedBaseUrl;
beforeEach(async () => {
  vi.resetModules();
  ({ checkedBaseUrl } = await import('../../../electron/core/api/baseUrl'));
});

const address = (n: number) => `https://remembered-${n}.example.net/api/v1`;

describe('the checked base URLs kept in memory', () => {
  it('answer an address checked before with the same checked form, and each address with its own', () => {
    const first = checkedBaseUrl(address(1), false);
    expect(first).toEqual({ baseUrl: 'https://remembered-1.example.net', host: 'remembered-1.example.net' });
    expect(checkedBaseUrl(address(1), false)).toBe(first);
    expect(checkedBaseUrl(address(2), false)).toEqual({
      baseUrl: 'https://remembered-2.example.net',
      host: 'remembered-2.example.net',
    });
    // The allowance is part of what is remembered: the same address with it is another entry.
    const allowed = checkedBaseUrl(address(1), true);
    expect(allowed).toEqual(first);
    expect(allowed).not.toBe(first);
    expect(checkedBaseUrl(address(1), true)).toBe(allowed);
    expect(checkedBaseUrl(address(1), false)).toBe(first);
  });

  it('keep 16 addresses, and start afresh at the 17th', () => {
    const kept = checkedBaseUrl(address(0), false);
    for (let n = 1; n < 16; n++) checkedBaseUrl(address(n), false);
    // Sixteen held: the first is still the same answer…
    expect(checkedBaseUrl(address(0), false)).toBe(kept);
    // …until a 17th address starts the memory afresh.
    checkedBaseUrl(address(16), false);
    const again = checkedBaseUrl(address(0), false);
    expect(again).toEqual(kept);
    expect(again).not.toBe(kept);
  });
});
