/**
 * Logging for the core: one line per event, prefixed with the component (as VS Code does),
 * written to a sink (a rotating file in the app, stderr in the CLI when verbose, memory in
 * tests). Every API key and password the process handles is registered with `registerSecret`;
 * the message and each field value are redacted while raw (before JSON escaping could disguise
 * a secret holding `"` or `\`), and no log line leaves with one inside.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { keepPrivate, PRIVATE_DIR_MODE } from './privateFiles';
import { cutSecrets, isSecretField, REDACTED } from './redaction';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(component: string): Logger;
}

export type LogSink = (line: string) => void;

/** From this length a secret is redacted wherever it appears, even inside other text. */
const SUBSTRING_MIN_LENGTH = 4;
const longSecrets = new Set<string>();
/** Longest first: a password inside a key must not leave the rest of the key behind. */
let longestFirst: string[] = [];
/** Shorter ones would redact ordinary words in prose: they are redacted as whole values only. */
const shortSecrets = new Set<string>();

/** Registers a value that must never appear in a log line (keys, passwords), whatever its length. */
export function registerSecret(value: string | undefined | null): void {
  if (!value) return;
  if (value.length < SUBSTRING_MIN_LENGTH) {
    shortSecrets.add(value);
  } else if (!longSecrets.has(value)) {
    longSecrets.add(value);
    longestFirst = [...longSecrets].sort((a, b) => b.length - a.length);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` without `secret`, for a secret known to have been sent with the request a text talks
 * about (a service message quoting a password): a long secret wherever it appears, a short one
 * wherever it stands as a word of its own.
 */
export function withoutSecret(text: string, secret: string): string {
  if (secret === '') return text;
  if (secret.length >= SUBSTRING_MIN_LENGTH) return cutSecrets(text, [secret]);
  const word = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(secret)}(?![\\p{L}\\p{N}_])`, 'gu');
  return text.replace(word, REDACTED);
}

/**
 * Every registered value long enough to be cut out of any text, longest first (the record
 * scrubber, ../secrets.ts, removes them too); shorter ones are redacted only as whole values.
 * The same array until the registry grows.
 */
export function registeredSecrets(): readonly string[] {
  return longestFirst;
}

/** One raw value (before any escaping): every registered secret out of it. */
export function redact(text: string): string {
  if (shortSecrets.has(text.trim())) return REDACTED;
  // Belt and braces: a bearer token in any header dump.
  return cutSecrets(text, longestFirst).replace(/Bearer\s+[^\s"',}]+/gi, `Bearer ${REDACTED}`);
}

const MAX_FIELD_DEPTH = 6;

/** Field values redacted while still raw: JSON escaping would hide a key holding `"` or `\`. */
function redactedValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth >= MAX_FIELD_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactedValue(item, depth + 1));
  if (value instanceof Error) return redact(value.message);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const safe: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // A secret field by the scrubber's own test (redaction.ts): its value never reaches a line.
    safe[k] = isSecretField(k, v) ? REDACTED : redactedValue(v, depth + 1);
  }
  return safe;
}

function formatFields(fields: Record<string, unknown> | undefined): string {
  if (!fields) return '';
  try {
    return ' ' + JSON.stringify(redactedValue(fields, 0));
  } catch {
    return ' [unserialisable fields]';
  }
}

export function createLogger(component: string, sink: LogSink, minLevel: LogLevel = 'info'): Logger {
  const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (order[level] < order[minLevel]) return;
    const line = `${new Date().toISOString()} ${level.toUpperCase()} [${component}] ${redact(message)}${formatFields(fields)}`;
    // Once more over the whole line: a secret split across the prefix and the message.
    sink(redact(line));
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (sub) => createLogger(`${component}:${sub}`, sink, minLevel),
  };
}

/** A logger that drops everything (the default where no one asked for logs), without writing a line first. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/** Keeps lines in memory: for tests, which then search them for secrets. */
export function memorySink(): LogSink & { lines: string[] } {
  const lines: string[] = [];
  const sink = ((line: string) => {
    lines.push(line);
  }) as LogSink & { lines: string[] };
  sink.lines = lines;
  return sink;
}

const rotated = (file: string, n: number) => file.replace(/(\.log)?$/, `.${n}.log`);

/**
 * Appends to a file and rotates it when it passes `maxBytes`: app.log → app.1.log → … →
 * app.{keep}.log, the oldest dropped. Synchronous on purpose: a log line must not be lost
 * when the process dies right after writing it.
 */
export function rotatingFileSink(file: string, maxBytes = 1_000_000, keep = 3): LogSink {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  // A log written by an earlier version may be 0644; the mode below applies to new files only.
  try {
    for (let n = 0; n <= keep; n++) keepPrivate(n === 0 ? file : rotated(file, n));
  } catch {
    // Not ours to change (another owner): logging must still not take the app down.
  }
  return (line: string) => {
    try {
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > maxBytes) {
        rmSync(rotated(file, keep), { force: true });
        for (let n = keep; n >= 2; n--) {
          try {
            renameSync(rotated(file, n - 1), rotated(file, n));
          } catch {
            // that generation does not exist yet
          }
        }
        renameSync(file, rotated(file, 1));
      }
      appendFileSync(file, line + '\n', { mode: 0o600 });
    } catch {
      // Logging must never take the app down (disk full, folder removed).
    }
  };
}
