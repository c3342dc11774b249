/**
 * Logging for the core: one line per event, prefixed with the component (as VS Code does),
 * written to a sink (a rotating file in the app, stderr in the CLI when verbose, memory in
 * tests). Secrets are redacted at the sink: every API key and password the process handles is
 * registered with `registerSecret`, and no log line leaves with one inside.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(component: string): Logger;
}

export type LogSink = (line: string) => void;

const secrets = new Set<string>();

/** Registers a value that must never appear in a log line (keys, passwords). */
export function registerSecret(value: string | undefined | null): void {
  // Very short values would redact ordinary words; keys and passwords are longer.
  if (value && value.length >= 4) secrets.add(value);
}

/** Every value registered so far: the record scrubber (../secrets.ts) removes them too. */
export function registeredSecrets(): ReadonlySet<string> {
  return secrets;
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  }
  // Belt and braces: a bearer token in any header dump.
  return out.replace(/Bearer\s+[^\s"',}]+/gi, 'Bearer [redacted]');
}

const SECRET_FIELD = /^(api_?key|apikey|key|password|authorization|token|secret)$/i;

function formatFields(fields: Record<string, unknown> | undefined): string {
  if (!fields) return '';
  const safe: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) safe[k] = SECRET_FIELD.test(k) ? '[redacted]' : v;
  try {
    return ' ' + JSON.stringify(safe);
  } catch {
    return ' [unserialisable fields]';
  }
}

export function createLogger(component: string, sink: LogSink, minLevel: LogLevel = 'info'): Logger {
  const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (order[level] < order[minLevel]) return;
    const line = `${new Date().toISOString()} ${level.toUpperCase()} [${component}] ${message}${formatFields(fields)}`;
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

/** A logger that drops everything (the default where no one asked for logs). */
export const silentLogger: Logger = createLogger('silent', () => {}, 'error');

/** Keeps lines in memory: for tests, which then search them for secrets. */
export function memorySink(): LogSink & { lines: string[] } {
  const lines: string[] = [];
  const sink = ((line: string) => {
    lines.push(line);
  }) as LogSink & { lines: string[] };
  sink.lines = lines;
  return sink;
}

/**
 * Appends to a file and rotates it when it passes `maxBytes`: app.log → app.1.log → … →
 * app.{keep}.log, the oldest dropped. Synchronous on purpose: a log line must not be lost
 * when the process dies right after writing it.
 */
export function rotatingFileSink(file: string, maxBytes = 1_000_000, keep = 3): LogSink {
  mkdirSync(dirname(file), { recursive: true });
  const rotated = (n: number) => file.replace(/(\.log)?$/, `.${n}.log`);
  return (line: string) => {
    try {
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > maxBytes) {
        rmSync(rotated(keep), { force: true });
        for (let n = keep - 1; n >= 1; n--) {
          try {
            renameSync(rotated(n), rotated(n + 1));
          } catch {
            // that generation does not exist yet
          }
        }
        renameSync(file, rotated(1));
      }
      appendFileSync(file, line + '\n', { mode: 0o600 });
    } catch {
      // Logging must never take the app down (disk full, folder removed).
    }
  };
}
