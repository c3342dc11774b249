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
  registerSecret,
  rotatingFileSink,
  silentLogger,
  withoutSecret,
} from '../../electron/core/log';

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARN|ERROR) \[[^\]]+\] /;

describe('a logger', () => {
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

  it('the silent logger writes nothing anywhere', () => {
    expect(() => silentLogger.error('nothing', { x: 1 })).not.toThrow();
    expect(silentLogger.child('x')).toBeDefined();
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
      bare: Object.assign(Object.create(null) as object, { k: 'v' }),
    });
    const fields = JSON.parse(sink.lines[0].slice(sink.lines[0].indexOf('{'))) as Record<string, unknown>;
    expect(fields).toEqual({
      deep,
      error: 'it broke',
      handle: { kind: 'handle' },
      list: ['x', 2, null],
      bare: { k: 'v' },
    });
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
    expect(redact(' abc ')).toBe('[redacted]');
    expect(redact('abcdef')).toBe('abcdef');
  });

  it('withoutSecret cuts a long secret anywhere, a short one only as a word of its own', () => {
    expect(withoutSecret('the pw hunter2x! was sent', 'hunter2x')).toBe('the pw [redacted]! was sent');
    expect(withoutSecret('pin 42 and 420 and x42', '42')).toBe('pin [redacted] and 420 and x42');
    expect(withoutSecret('a.b a+b', 'a.b')).toBe('[redacted] a+b');
    expect(withoutSecret('unchanged', '')).toBe('unchanged');
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

  it('keeps writing into a file under its size, and makes an older, readable log private', () => {
    const file = join(dir, 'app.log');
    writeFileSync(file, 'old\n', { mode: 0o644 });
    writeFileSync(join(dir, 'app.1.log'), 'older\n', { mode: 0o644 });
    const sink = rotatingFileSink(file, 1_000, 3);
    sink('new');
    expect(readFileSync(file, 'utf8')).toBe('old\nnew\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'app.1.log')).mode & 0o777).toBe(0o600);
  });

  it('never throws: its folder removed under it loses the line, not the app', () => {
    const file = join(dir, 'logs', 'app.log');
    const sink = rotatingFileSink(file, 10, 2);
    rmSync(join(dir, 'logs'), { recursive: true });
    expect(() => sink('lost')).not.toThrow();
    expect(existsSync(file)).toBe(false);
  });
});
