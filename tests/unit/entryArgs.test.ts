import { describe, expect, it } from 'vitest';
import { EntryUsageError, parseEntryArgs, parsePort } from '../../electron/core/entryArgs';

const options = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

function usageErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(EntryUsageError);
    return (thrown as Error).message;
  }
  throw new Error('expected a usage error');
}

describe('parseEntryArgs', () => {
  it('reads --name value, --name=value and flags', () => {
    expect(parseEntryArgs(['--port', '8080', '--data-dir=/tmp/x', '--verbose'], options)).toEqual({
      port: '8080',
      'data-dir': '/tmp/x',
      verbose: true,
    });
    expect(parseEntryArgs([], options)).toEqual({});
  });

  it.each([
    [['--bogus'], /^Unknown option '--bogus'\.$/],
    [['--port'], /--port.*missing\.$/],
    [['extra'], /^Unexpected argument 'extra'\.$/],
  ])('refuses %j in one sentence', (argv, sentence) => {
    expect(usageErrorOf(() => parseEntryArgs(argv, options))).toMatch(sentence);
  });
});

describe('parsePort', () => {
  it('takes 0 to 65535, and the fallback for nothing', () => {
    expect(parsePort('0', 8787)).toBe(0);
    expect(parsePort('65535', 8787)).toBe(65535);
    expect(parsePort(undefined, 8787)).toBe(8787);
    expect(parsePort('', 0)).toBe(0);
  });

  it.each(['65536', '-1', '80.5', 'http', ' 80'])('refuses %j', (text) => {
    expect(usageErrorOf(() => parsePort(text, 0))).toBe(
      `The port must be a whole number from 0 to 65535, not "${text}".`,
    );
  });
});
