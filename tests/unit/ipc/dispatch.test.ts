import { describe, expect, it } from 'vitest';
import { AppFailure, type Result } from '../../../shared/errors';
import { createLogger, memorySink } from '../../../electron/core/log';
import { dispatch } from '../../../electron/core/ipc/dispatch';
import { recordingHandlers } from '../../helpers/fakeHandlers';

function failed(result: Result<unknown>) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('dispatch', () => {
  it('passes the parsed input to the handler and answers its value', async () => {
    const { handlers, calls } = recordingHandlers();
    const result = await dispatch(handlers, 'reports:get', { id: 12 });
    // The contract turns numeric ids into strings before the handler sees them.
    expect(calls).toEqual([{ channel: 'reports:get', input: { id: '12' } }]);
    expect(result).toEqual({ ok: true, value: { echoed: 'reports:get', input: { id: '12' } } });
  });

  it.each([['reports:drop'], ['__proto__'], ['toString'], [42], [null], [undefined]])(
    'refuses the unknown channel %s without calling anything',
    async (channel) => {
      const { handlers, calls } = recordingHandlers();
      const error = failed(await dispatch(handlers, channel, {}));
      expect(error.kind).toBe('invalid_input');
      expect(error.message).toMatch(/^Unknown request/);
      expect(calls).toHaveLength(0);
    },
  );

  it('refuses invalid input with field errors and does not call the handler', async () => {
    const { handlers, calls } = recordingHandlers();
    const error = failed(
      await dispatch(handlers, 'reports:create', { url: 'ftp://example.com', privacy: 2 }),
    );
    expect(error.kind).toBe('invalid_input');
    expect(error.fieldErrors?.url?.[0]).toMatch(/http/);
    expect(error.fieldErrors?.password).toEqual(['A password-protected report needs a password.']);
    expect(calls).toHaveLength(0);
  });

  it('refuses extra fields the contract does not know', async () => {
    const { handlers, calls } = recordingHandlers();
    const error = failed(await dispatch(handlers, 'reports:delete', { id: '5', force: true }));
    expect(error.kind).toBe('invalid_input');
    expect(calls).toHaveLength(0);
  });

  it('returns a thrown AppFailure as its AppError', async () => {
    const { handlers, set } = recordingHandlers();
    set('reports:get', async () => {
      throw new AppFailure({
        kind: 'not_found',
        code: 'not_found',
        message: 'Report 9 was not found.',
        status: 404,
      });
    });
    expect(await dispatch(handlers, 'reports:get', { id: '9' })).toEqual({
      ok: false,
      error: { kind: 'not_found', code: 'not_found', message: 'Report 9 was not found.', status: 404 },
    });
  });

  it('turns any other thrown error into "internal", logs it, and keeps the stack out of the answer', async () => {
    const { handlers, set } = recordingHandlers();
    set('account:get', async () => {
      throw new TypeError('Cannot read properties of undefined (reading "name")');
    });
    const sink = memorySink();
    const result = await dispatch(handlers, 'account:get', undefined, createLogger('test', sink));
    const error = failed(result);
    expect(error.kind).toBe('internal');
    expect(JSON.stringify(result)).not.toMatch(/TypeError|reading "name"|at .*\.ts/);
    expect(sink.lines.some((l) => l.includes('ERROR') && l.includes('Cannot read properties'))).toBe(true);
  });

  it('never rejects, even when a handler throws a non-Error value', async () => {
    const { handlers, set } = recordingHandlers();
    set('cache:status', () => Promise.reject('plain string'));
    await expect(dispatch(handlers, 'cache:status', {})).resolves.toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
  });
});
