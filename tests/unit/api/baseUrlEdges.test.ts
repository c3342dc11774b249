/**
 * The base URL rules at their edges: what a pasted address may carry (a key as a user name, a
 * lone password), where /api/v1 and slashes are trimmed, and which look-alike hosts are not
 * this computer. Each case here was a mutant of the base-URL rules that the main tests let through.
 */
import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../../electron/core/api/baseUrl';
import { isLoopbackHost } from '../../../shared/baseUrl';
import { AppFailure, type AppError } from '../../../shared/errors';

function failureOf(raw: string): AppError {
  try {
    normalizeBaseUrl(raw, false);
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(AppFailure);
    return (thrown as AppFailure).error;
  }
  throw new Error(`expected "${raw}" to be refused`);
}

describe('credentials in the base URL', () => {
  it('refuses an API key pasted as the user name, and never echoes it', () => {
    const error = failureOf('https://TOKEN-9f8e7d6c5b4a@reports.example.com');
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(/Remove the user name and password/);
    expect(error.message).not.toContain('TOKEN-9f8e7d6c5b4a');
  });

  it('refuses a password without a user name', () => {
    expect(failureOf('https://:hunter2-secret@reports.example.com').message).toMatch(
      /Remove the user name and password/,
    );
  });

  it('files the error under the baseUrl field, so a form can show it beside that input', () => {
    const error = failureOf('https://user:pw@reports.example.com');
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(['baseUrl']);
    expect(error.fieldErrors?.baseUrl).toEqual([error.message]);
  });
});

describe('the scheme must come first', () => {
  it('refuses text before the scheme as a missing scheme, not as a typo', () => {
    expect(failureOf('see https://reports.example.com').message).toMatch(/must start with https:\/\//);
  });
});

describe('trimming /api/v1 and slashes', () => {
  it.each([
    // Only a trailing /api/v1 is the pasted endpoint prefix; one in the middle is part of the path.
    ['https://reports.example.com/api/v1/x', 'https://reports.example.com/api/v1/x'],
    ['https://reports.example.com/api/v1//', 'https://reports.example.com'],
    ['https://reports.example.com/base//api/v1', 'https://reports.example.com/base'],
    ['https://reports.example.com/base///api/v1', 'https://reports.example.com/base'],
  ])('normalises %j to %j', (raw, expected) => {
    expect(normalizeBaseUrl(raw, false)).toBe(expected);
  });
});

describe('isLoopbackHost at its edges', () => {
  it('accepts a loopback name with surrounding spaces', () => {
    expect(isLoopbackHost('  localhost ')).toBe(true);
  });

  it.each([
    // Brackets only count when they wrap the whole host.
    'local[host]',
    '[127.0.0.1]1',
    // The 127. prefix must start the address.
    '1127.0.0.1',
    '10.127.0.0.1',
  ])('refuses %j', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
