/**
 * Who holds something (electron/core/processOwner.ts): a token that names this process, and
 * the judgement "its process is gone" — true only when provably so on this computer.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import {
  isOwnerToken,
  ownerIsGone,
  ownerToken,
  startTick,
  SYSTEM_PROBE,
  tokenOf,
  type ProcessProbe,
} from '../../electron/core/processOwner';
import { deadOwnerToken } from '../helpers/deadOwner';
import { skipWhen } from '../helpers/skip';

const TOKEN = /^([0-9a-f]{8})-([0-9a-f]{8}|0)-(\d+)-(\d+)$/;
const parts = () => TOKEN.exec(ownerToken())!;
const linux = process.platform === 'linux';

describe('owner tokens', () => {
  it('name this process: host, boot, pid, start', () => {
    const [, , boot, pid, start] = parts();
    expect(isOwnerToken(ownerToken())).toBe(true);
    expect(Number(pid)).toBe(process.pid);
    if (linux) {
      expect(boot).not.toBe('0');
      expect(start).toBe(startTick(process.pid));
    }
    // Made once: the same for the life of the process.
    expect(ownerToken()).toBe(ownerToken());
  });

  it.skipIf(skipWhen(!linux, 'the boot id comes from /proc, which only Linux has'))(
    'name the boot and the host by the first 8 hex digits of the sha256 of their ids, the boot id without its newline',
    () => {
      // Tokens outlive the app that wrote them (an update restarts it in the same boot): the
      // boot's part is the kernel's id as text, so every version names the same boot alike.
      const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8');
      expect(bootId.endsWith('\n')).toBe(true);
      const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
      const [, host, boot] = parts();
      expect(boot).toBe(hash(bootId.trim()));
      expect(host).toBe(hash(hostname()));
    },
  );

  it('are made of the facts given: a hash of the host and of the boot id without its newline, the pid, the start', () => {
    const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
    const facts = { host: 'desk', bootId: 'b0a7\n', pid: 42, startTick: '777', nowMs: 0, uptimeSeconds: 0 };
    expect(tokenOf(facts)).toBe(`${hash('desk')}-${hash('b0a7')}-42-777`);
    expect(tokenOf({ ...facts, bootId: 'b0a7' })).toBe(tokenOf(facts));
    // Without /proc: '0' for the boot, and the start second from the clock and the uptime.
    const withoutProc = { ...facts, bootId: null, startTick: null, nowMs: 10_000_900, uptimeSeconds: 100.5 };
    expect(tokenOf(withoutProc)).toBe(`${hash('desk')}-0-42-9900`);
    expect(isOwnerToken(tokenOf(withoutProc))).toBe(true);
  });

  it.each([
    '',
    'abc',
    '0123456-0-1-2',
    '01234567-0-x-2',
    '01234567-0-1-2-3',
    'g1234567-0-1-2',
    'z01234567-0-1-2',
  ])('tells %j is no token, and never gone', (text) => {
    expect(isOwnerToken(text)).toBe(false);
    expect(ownerIsGone(text)).toBe(false);
  });

  it('this process is not gone', () => {
    expect(ownerIsGone(ownerToken())).toBe(false);
  });

  it('a process that exited is gone', () => {
    expect(ownerIsGone(deadOwnerToken())).toBe(true);
  });

  it('a token of another computer is never judged gone, whatever its pid', () => {
    const [, host, boot, , start] = parts();
    const other = host === '00000000' ? '11111111' : '00000000';
    expect(ownerIsGone(`${other}-${boot}-999999999-${start}`)).toBe(false);
  });

  it('a pid no process has is gone', () => {
    const [, host, boot, , start] = parts();
    expect(ownerIsGone(`${host}-${boot}-999999999-${start}`)).toBe(true);
  });

  it.skipIf(skipWhen(!linux, 'the boot id and start ticks come from /proc, which only Linux has'))(
    'a pid of a process started at another time (a reused pid) is gone, as is any of another boot',
    () => {
      const [, host, boot, pid, start] = parts();
      expect(ownerIsGone(`${host}-${boot}-${pid}-${Number(start) + 1}`)).toBe(true);
      const otherBoot = boot === 'ffffffff' ? 'eeeeeeee' : 'ffffffff';
      expect(ownerIsGone(`${host}-${otherBoot}-${pid}-${start}`)).toBe(true);
      // Where either side does not know its boot, the boot decides nothing.
      expect(ownerIsGone(`${host}-0-${pid}-${start}`)).toBe(false);
    },
  );

  it.skipIf(skipWhen(!linux, '/proc/<pid>/stat exists only on Linux'))(
    'reads a start tick past a command name holding spaces and parentheses, and none for no process',
    async () => {
      // process.title sets the command name (prctl) that /proc/<pid>/stat shows in parentheses.
      const child = spawn(process.execPath, [
        '-e',
        "process.title = 'a) (b c'; process.stdout.write('up'); setInterval(() => {}, 1000)",
      ]);
      try {
        await once(child.stdout, 'data');
        expect(readFileSync(`/proc/${child.pid}/stat`, 'utf8')).toContain('(a) (b c)');
        const tick = startTick(child.pid!);
        expect(tick).toMatch(/^\d+$/);
        // The same field read another way: the 20th after the state that follows the name.
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        expect(tick).toBe(/\) [A-Za-z] (?:\S+ ){18}(\d+) /.exec(stat)?.[1]);
        // Started after this test's process.
        expect(Number(tick)).toBeGreaterThanOrEqual(Number(startTick(process.pid)));
      } finally {
        child.kill('SIGKILL');
      }
      expect(startTick(999999999)).toBeNull();
    },
  );
});

describe("the judgement, with the system's answers given", () => {
  const HOST = 'aaaaaaaa';
  const probe = (answers: Partial<ProcessProbe> & { mine: string }): ProcessProbe => ({
    pidExists: () => true,
    startTick: () => '100',
    ...answers,
    own: () => answers.mine,
  });

  it('another boot is gone, unless either side does not know its boot', () => {
    expect(ownerIsGone(`${HOST}-bbbbbbbb-7-100`, probe({ mine: `${HOST}-cccccccc-1-1` }))).toBe(true);
    expect(ownerIsGone(`${HOST}-0-7-100`, probe({ mine: `${HOST}-cccccccc-1-1` }))).toBe(false);
    expect(ownerIsGone(`${HOST}-bbbbbbbb-7-100`, probe({ mine: `${HOST}-0-1-1` }))).toBe(false);
    expect(ownerIsGone(`${HOST}-bbbbbbbb-7-100`, probe({ mine: `${HOST}-bbbbbbbb-1-1` }))).toBe(false);
  });

  it('a pid nobody has is gone; one whose start is unknown (no /proc) is not', () => {
    const mine = `${HOST}-0-1-1`;
    expect(ownerIsGone(`${HOST}-0-7-100`, probe({ mine, pidExists: () => false }))).toBe(true);
    expect(ownerIsGone(`${HOST}-0-7-100`, probe({ mine, startTick: () => null }))).toBe(false);
    expect(ownerIsGone(`${HOST}-0-7-100`, probe({ mine, startTick: () => '101' }))).toBe(true);
    expect(ownerIsGone(`${HOST}-0-7-100`, probe({ mine }))).toBe(false);
  });

  it("the system's own answers: this pid exists, no pid 999999999 does; a process of another user exists too", () => {
    expect(SYSTEM_PROBE.pidExists(process.pid)).toBe(true);
    expect(SYSTEM_PROBE.pidExists(999999999)).toBe(false);
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('not yours'), { code: 'EPERM' });
    });
    try {
      expect(SYSTEM_PROBE.pidExists(1)).toBe(true);
    } finally {
      kill.mockRestore();
    }
    expect(SYSTEM_PROBE.own()).toBe(ownerToken());
  });
});
