import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCode } from '../../electron/core/errorCode';

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('errorCode', () => {
  it('names the code of a failed system call', () => {
    expect(errorCode(thrownBy(() => readFileSync('/nonexistent/report-desk/file')))).toBe('ENOENT');
    expect(errorCode(thrownBy(() => readdirSync('/proc/self/status')))).toBe('ENOTDIR');
  });

  it('says "unknown error" for anything without a code', () => {
    for (const thrown of [new Error('no code'), 'a string', null, undefined, 42, { code: 7 }, { code: '' }])
      expect({ thrown, code: errorCode(thrown) }).toEqual({ thrown, code: 'unknown error' });
  });
});
