/**
 * The core's logger and its sinks (core/log.ts), beyond what secretFields.test.ts and
 * security/redaction.test.ts say about secrets: one line per event at or above the level asked
 * for, prefixed with the component; the fields as JSON, nested values to a depth, errors by
 * their message, other objects as they are; a sent secret cut out of a service's sentence; and
 * the rotating file sink (0600, app.log → app.1.log → … → app.3.log, the oldest dropped), which
 * never throws. Real files in a temp folder.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLogger,
  memorySink,
  redact,
  registeredSecrets,
  registerSecret,
  rotatingFileSink,
  silentLogger,
  withoutSecret,
} from '../../electron/core/log';

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARN|ERROR) \[[^\]]+\] /;

describe('the registry of secrets', () => {
  // First in this file: a fresh module holds no secret yet.
  it('starts empty, and answers the same array until it grows, longest first', () => {
    expect(registeredSecrets()).toEqual([]);
    registerSecret('registry-secret-a');
    const held = registeredSecrets();
    registerSecret('registry-secret-a');
    expect(registeredSecrets()).toBe(held);
    registerSecret('registry-secret-longer-b');
    expect(registeredSecrets()).not.toBe(held);
    expect(registeredSecrets()).toEqual(['registry-secret-longer-b', 'registry-secret-a']);
  });

  it('cuts a secret of four characters out of any text, and a shorter one only as a whole value', () => {
    registerSecret('wxyz');
    registerSecret('pqr');
    expect(redact('say wxyz now')).toBe('say [redacted] now');
    expect(redact('say pqr now')).toBe('say pqr now');
    expect(redact('pqr')).toBe('[redacted]');
  });
});

describe('a logger', () => {
  it('writes from info on unless asked otherwise', () => {
    const sink = memorySink();
    const logger = createLogger('c', sink);
    logger.debug('not written');
    logger.info('written');
    expect(sink.lines.map((line) => line.replace(LINE, '$1'))).toEqual(['INFOwritten']);
  });

  it('writes one line per event at or above its level, named by its component and child', () => {
    const sink = memorySink();
    const logger = createLogger('core', sink, 'info');
    logger.debug('not written');
    logger.info('started');
    logger.child('cache').warn('slow', { ms: 12 });
    logger.child('cache').child('sync').error('failed');
    expect(sink.lines).toHaveLength(3);
    for (const line of sink.lines) expect(line).toMatch(LINE);
    expect(sink.lines.map((line) => line.replace(LINE, '$1 '))).toEqual([
      'INFO started',
      'WARN slow {"ms":12}',
      'ERROR failed',
    ]);
    expect(sink.lines[1]).toContain(' [core:cache] ');
    expect(sink.lines[2]).toContain(' [core:cache:sync] ');
  });

  it('writes debug lines when asked, and warnings and errors only from warn on', () => {
    const all = memorySink();
    const debug = createLogger('c', all, 'debug');
    debug.debug('d');
    debug.info('i');
    const some = memorySink();
    const warn = createLogger('c', some, 'warn');
    warn.info('i');
    warn.warn('w');
    warn.error('e');
    expect(all.lines.map((line) => line.replace(LINE, '$1'))).toEqual(['DEBUGd', 'INFOi']);
    expect(some.lines.map((line) => line.replace(LINE, '$1'))).toEqual(['WARNw', 'ERRORe']);
  });

  it('the silent logger takes every call, its children too, and writes nothing', () => {
    expect(() => {
      silentLogger.debug('nothing');
      silentLogger.info('nothing', { x: 1 });
      silentLogger.warn('nothing');
      silentLogger.error('nothing', { x: 1 });
      silentLogger.child('a').child('b').error('nothing');
    }).not.toThrow();
  });

  it('writes fields as JSON: nested to a depth of six, errors by message, other objects as they are', () => {
    const sink = memorySink();
    const deep = { a: { b: { c: { d: { e: { f: { g: 'too deep' } } } } } } };
    class Handle {
      kind = 'handle';
    }
    createLogger('c', sink).info('fields', {
      deep,
      error: new Error('it broke'),
      handle: new Handle(),
      list: ['x', 2, null],
      bare: Object.assign(Object.create(null) as object, { k: 'v', password: 'in a bare object' }),
      at: new Date(0),
      none: undefined,
      nothing: null,
      count: 3,
    });
    const fields = JSON.parse(sink.lines[0].slice(sink.lines[0].indexOf('{'))) as Record<string, unknown>;
    expect(fields).toEqual({
      deep,
      error: 'it broke',
      handle: { kind: 'handle' },
      list: ['x', 2, null],
      bare: { k: 'v', password: '[redacted]' },
      at: '1970-01-01T00:00:00.000Z',
      nothing: null,
      count: 3,
    });
  });

  it('reads fields six levels deep; deeper ones are written as JSON would, unread (the walk is bounded)', () => {
    const sink = memorySink();
    const nested = (depth: number): Record<string, unknown> =>
      depth === 0 ? { password: 'plain-words' } : { n: nested(depth - 1) };
    createLogger('c', sink).info('m', { five: nested(4) });
    createLogger('c', sink).info('m', { six: nested(5) });
    expect(sink.lines[0]).toContain('"password":"[redacted]"');
    expect(sink.lines[1]).toContain('"password":"plain-words"');
    // In a list, the same count.
    createLogger('c', sink).info('m', { list: [[[[{ password: 'plain-words' }]]]] });
    expect(sink.lines[2]).toContain('"password":"[redacted]"');
    createLogger('c', sink).info('m', { list: [[[[[{ password: 'plain-words' }]]]]] });
    expect(sink.lines[3]).toContain('"password":"plain-words"');
  });

  it('cuts a secret out of values nested to the depth, and leaves deeper values unread', () => {
    const secret = 'depth-secret-5521';
    registerSecret(secret);
    const sink = memorySink();
    const at = (depth: number): unknown => (depth === 0 ? `x ${secret}` : { n: at(depth - 1) });
    createLogger('c', sink).info('m', { five: at(5) });
    expect(sink.lines[0]).not.toContain(secret);
    // A value past the depth is written as JSON would: the line's last pass still cuts it out.
    createLogger('c', sink).info('m', { seven: at(7) });
    expect(sink.lines[1]).not.toContain(secret);
    expect(sink.lines[1]).toContain('[redacted]');
  });

  it('says so, instead of throwing, when fields cannot be written', () => {
    const sink = memorySink();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    createLogger('c', sink).info('m', { big: 10n });
    createLogger('c', sink).info('m', { cycle });
    expect(sink.lines).toHaveLength(2);
    for (const line of sink.lines) expect(line).toMatch(/ m \[unserialisable fields\]$/);
  });
});

describe('redact and withoutSecret', () => {
  it('redact cuts registered secrets out, a bearer token too, and a short secret only as a whole value', () => {
    registerSecret('long-secret-value-77');
    registerSecret('abc');
    registerSecret('');
    registerSecret(undefined);
    registerSecret(null);
    expect(redact('x long-secret-value-77 y')).toBe('x [redacted] y');
    expect(redact('Authorization: Bearer tok.en-123, next')).toBe('Authorization: Bearer [redacted], next');
    expect(redact('bearer   spaced-token"')).toBe('Bearer [redacted]"');
    expect(redact(' abc ')).toBe('[redacted]');
    expect(redact('abcdef')).toBe('abcdef');
  });

  it('withoutSecret cuts a long secret anywhere, a short one only as a word of its own', () => {
    expect(withoutSecret('the pw hunter2x! was sent', 'hunter2x')).toBe('the pw [redacted]! was sent');
    expect(withoutSecret('pin 42 and 420 and x42, 42', '42')).toBe(
      'pin [redacted] and 420 and x42, [redacted]',
    );
    expect(withoutSecret('a.b a+b', 'a.b')).toBe('[redacted] a+b');
    expect(withoutSecret('x1234y', '1234')).toBe('x[redacted]y');
    expect(withoutSecret('né 42é', '42')).toBe('né 42é');
    expect(withoutSecret('a  b, c', '')).toBe('a  b, c');
  });
});

describe('the rotating file sink', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'report-desk-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes lines to a 0600 file in a 0700 folder it makes', () => {
    const file = join(dir, 'logs', 'app.log');
    const sink = rotatingFileSink(file);
    sink('one');
    sink('two');
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'logs')).mode & 0o777).toBe(0o700);
  });

  it('rotates past the size: app.log → app.1.log → … → app.3.log, the oldest dropped', () => {
    const file = join(dir, 'app.log');
    const sink = rotatingFileSink(file, 10, 3);
    for (const n of [1, 2, 3, 4, 5, 6]) sink(`line ${n} of the log`);
    expect(readFileSync(file, 'utf8')).toBe('line 6 of the log\n');
    expect(readFileSync(join(dir, 'app.1.log'), 'utf8')).toBe('line 5 of the log\n');
    expect(readFileSync(join(dir, 'app.2.log'), 'utf8')).toBe('line 4 of the log\n');
    expect(readFileSync(join(dir, 'app.3.log'), 'utf8')).toBe('line 3 of the log\n');
    expect(existsSync(join(dir, 'app.4.log'))).toBe(false);
  });

  it('keeps writing into a file up to its size, and makes every older, readable log private', () => {
    const file = join(dir, 'app.log');
    writeFileSync(file, 'old\n', { mode: 0o644 });
    for (const n of [1, 3]) writeFileSync(join(dir, `app.${n}.log`), 'older\n', { mode: 0o644 });
    // At its size exactly, a file is not rotated yet.
    const sink = rotatingFileSink(file, 8, 3);
    for (const name of ['app.log', 'app.1.log', 'app.3.log'])
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    sink('new');
    sink('now');
    expect(readFileSync(file, 'utf8')).toBe('old\nnew\nnow\n');
    sink('next');
    expect(readFileSync(file, 'utf8')).toBe('next\n');
    expect(readFileSync(join(dir, 'app.1.log'), 'utf8')).toBe('old\nnew\nnow\n');
    expect(readFileSync(join(dir, 'app.2.log'), 'utf8')).toBe('older\n');
    expect(existsSync(join(dir, 'app.3.log'))).toBe(false);
  });

  it('names the rotated files after a file without .log the same way', () => {
    const file = join(dir, 'trace');
    const sink = rotatingFileSink(file, 4, 2);
    for (const n of [1, 2, 3]) sink(`line ${n}`);
    expect(readFileSync(file, 'utf8')).toBe('line 3\n');
    expect(readFileSync(join(dir, 'trace.1.log'), 'utf8')).toBe('line 2\n');
    expect(readFileSync(join(dir, 'trace.2.log'), 'utf8')).toBe('line 1\n');
  });

  it('never throws: its folder removed under it loses the line, not the app', () => {
    const file = join(dir, 'logs', 'app.log');
    const sink = rotatingFileSink(file, 10, 2);
    rmSync(join(dir, 'logs'), { recursive: true });
    expect(() => sink('lost')).not.toThrow();
    expect(existsSync(file)).toBe(false);
  });
});
