/**
 * Named crash points (electron/core/crashPoints.ts): armed only from the environment an entry
 * point passes, refused when misspelt, and reached on the n-th time asked. The kill itself is
 * proven in real processes by tests/reliability/crashPoints.test.ts; here a stand-in counts it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { armCrashPoints, CRASH_AT_ENV, CRASH_POINTS, crashPoint } from '../../electron/core/crashPoints';

afterEach(() => armCrashPoints({}));

function armed(value: string | undefined): { kills: () => number } {
  let kills = 0;
  armCrashPoints({ [CRASH_AT_ENV]: value }, () => kills++);
  return { kills: () => kills };
}

describe('crash points', () => {
  it('do nothing unless armed', () => {
    armCrashPoints({});
    for (const point of CRASH_POINTS) expect(() => crashPoint(point)).not.toThrow();
  });

  it('kill at the named point only, the first time by default', () => {
    const { kills } = armed('sync.batch-committed');
    crashPoint('sync.batch-written');
    expect(kills()).toBe(0);
    crashPoint('sync.batch-committed');
    expect(kills()).toBe(1);
    // Once: the process is gone after the first.
    crashPoint('sync.batch-committed');
    expect(kills()).toBe(1);
  });

  it('kill the n-th time with point@n', () => {
    const { kills } = armed('atomic-write.before-rename@3');
    crashPoint('atomic-write.before-rename');
    crashPoint('atomic-write.before-rename');
    expect(kills()).toBe(0);
    crashPoint('atomic-write.before-rename');
    expect(kills()).toBe(1);
  });

  it('an empty variable disarms', () => {
    const { kills } = armed('cache.clearing');
    armCrashPoints({ [CRASH_AT_ENV]: '' });
    crashPoint('cache.clearing');
    expect(kills()).toBe(0);
  });

  it('counts past nine: point@12 kills the twelfth time', () => {
    const { kills } = armed('refresh.page-committed@12');
    for (let i = 0; i < 11; i++) crashPoint('refresh.page-committed');
    expect(kills()).toBe(0);
    crashPoint('refresh.page-committed');
    expect(kills()).toBe(1);
  });

  it('kills with SIGKILL, this process, when no stand-in is given', () => {
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      armCrashPoints({ [CRASH_AT_ENV]: 'export.before-write' });
      crashPoint('export.before-write');
      expect(kill).toHaveBeenCalledWith(process.pid, 'SIGKILL');
    } finally {
      kill.mockRestore();
    }
  });

  it.each([
    'no.such-point',
    'sync.batch-written@0',
    'sync.batch-written@x',
    'Sync.batch-written',
    'sync.batch-written@',
    '9sync.batch-written',
    'sync.batch-written@2x',
  ])('refuses %s, naming the points, and stays disarmed', (value) => {
    let kills = 0;
    expect(() => armCrashPoints({ [CRASH_AT_ENV]: value }, () => kills++)).toThrow(
      new RegExp(
        `^${CRASH_AT_ENV}=.* names no crash point; the points are: profiles\\.pending-written, .*update\\.downloading\\.$`,
      ),
    );
    for (const point of CRASH_POINTS) crashPoint(point);
    expect(kills).toBe(0);
  });

  it('kill a real process with SIGKILL: nothing after the point runs', () => {
    const script = `
      import { armCrashPoints, crashPoint } from './electron/core/crashPoints';
      armCrashPoints(process.env);
      process.stdout.write('before\\n');
      crashPoint('cache.clearing');
      process.stdout.write('after\\n');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(__dirname, '../..'),
      env: { ...process.env, [CRASH_AT_ENV]: 'cache.clearing' },
      encoding: 'utf8',
    });
    expect(run.signal).toBe('SIGKILL');
    expect(run.stdout).toBe('before\n');
  });
});
