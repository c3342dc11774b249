/**
 * Who holds something in the data folder (a sync's lease, a temporary file, a pending profile
 * change, a running core): a token naming this process so that any other process on this
 * computer can tell at once whether it still runs. A pid alone is not enough — the OS hands a
 * dead process's pid to new ones — so the token also carries the process's start time (Linux:
 * /proc/<pid>/stat's start tick) and the boot it started in. A token written on another
 * computer sharing the folder is never judged dead: whatever it holds runs out by itself.
 *
 * Token: `<host>-<boot>-<pid>-<start>` — host and boot 8 hex digits of a hash ('0' when
 * unknown), pid and start decimal. Safe inside file names.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

const TOKEN = /^([0-9a-f]{8})-([0-9a-f]{8}|0)-(\d+)-(\d+)$/;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** A file of /proc as text, or null where there is none (macOS, Windows, no such process). */
function procText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * When `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or null where
 * there is no /proc or no such process. The command name (field 2) may hold spaces and
 * parentheses, so the fields are counted after its last ')'.
 */
export function startTick(pid: number): string | null {
  const stat = procText(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (the state): field 22 is fields[19], always a decimal number (proc(5)).
  return fields[19] ?? null;
}

/** What ownerIsGone asks of the system; tests give their own answers. */
export interface ProcessProbe {
  /** This process's token. */
  own(): string;
  /** Whether a process with this pid exists (EPERM: it does, owned by another user). */
  pidExists(pid: number): boolean;
  startTick(pid: number): string | null;
}

export const SYSTEM_PROBE: ProcessProbe = {
  own: () => ownerToken(),
  pidExists(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  startTick,
};

/** What a token is made of (ownerToken reads them from the system once). */
export interface TokenFacts {
  host: string;
  /** The kernel's boot id as /proc gives it (with its newline), null without /proc. */
  bootId: string | null;
  pid: number;
  /** The process's start tick, null without /proc. */
  startTick: string | null;
  nowMs: number;
  uptimeSeconds: number;
}

/**
 * The token for these facts. Without /proc, '0' for the boot and the start second stand in:
 * they are never compared. Tokens on disk outlive the version that wrote them, so a boot is
 * named by the hash of its id alone (no newline), the same in every version.
 */
export function tokenOf(facts: TokenFacts): string {
  const boot = facts.bootId === null ? '0' : shortHash(facts.bootId.trim());
  const start = facts.startTick ?? Math.floor(facts.nowMs / 1000 - facts.uptimeSeconds);
  return `${shortHash(facts.host)}-${boot}-${facts.pid}-${start}`;
}

let own: string | null = null;

/** This process's token (made once). */
export function ownerToken(): string {
  own ??= tokenOf({
    host: hostname(),
    bootId: procText('/proc/sys/kernel/random/boot_id'),
    pid: process.pid,
    startTick: startTick(process.pid),
    nowMs: Date.now(),
    uptimeSeconds: process.uptime(),
  });
  return own;
}

/** Whether `text` is a token of the form ownerToken() makes. */
export function isOwnerToken(text: string): boolean {
  return TOKEN.test(text);
}

/**
 * True only when the owner named by `token` is provably no longer running: it was on this
 * computer, and either the computer has restarted since, or no process has its pid, or (where
 * /proc says) the process with its pid started at another time. Anything else — another
 * computer, a token from an older ReportDesk, a process that still runs — is false.
 */
export function ownerIsGone(token: string, probe: ProcessProbe = SYSTEM_PROBE): boolean {
  const match = TOKEN.exec(token);
  if (!match) return false;
  const [, host, boot, pidText, start] = match;
  const mine = TOKEN.exec(probe.own())!;
  if (host !== mine[1]) return false;
  if (boot !== '0' && mine[2] !== '0' && boot !== mine[2]) return true;
  const pid = Number(pidText);
  if (!probe.pidExists(pid)) return true;
  const now = probe.startTick(pid);
  return now !== null && now !== start;
}
