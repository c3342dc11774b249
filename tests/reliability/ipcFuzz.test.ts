/**
 * A seeded fuzz run over every contract channel through `dispatch`, the one entry point from
 * Electron IPC and the preview bridge, against the real core (temp data dir, SQLite, the
 * reference service on 127.0.0.1). Hostile inputs — wrong types, huge strings, deep nesting,
 * arrays, null, prototype-pollution keys from JSON.parse, unknown and non-string channel names —
 * must resolve to `{ ok: false, error: { kind: 'invalid_input' } }`; inputs that pass validation
 * reach real code and must still resolve to a Result. Nothing may throw, and Object.prototype
 * must be untouched afterwards.
 *
 * A seed other than the default can be tried with REPORT_DESK_FUZZ_SEED=<n>.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHANNEL_NAMES, isChannel, parseChannelInput, type Channel } from '../../shared/contract';
import { ERROR_KINDS, type AppError, type Result } from '../../shared/errors';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { mulberry32, type Random } from '../../electron/demo-service/random';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { tempCore, type TempCore } from './helpers';

const SEED = Number(process.env.REPORT_DESK_FUZZ_SEED ?? 20_251_122);
const CALLS_PER_CHANNEL = 70;

let service: DemoService;
let app: TempCore;
/** Hosts the core tried to reach that are not this computer (refused by the guard below). */
const refusedHosts = new Set<string>();

/** Real fetch for loopback; anything else fails like an unreachable network, untouched. */
const loopbackOnlyFetch: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    refusedHosts.add(url.hostname);
    return Promise.reject(new TypeError('fetch failed'));
  }
  return fetch(input, init);
};

beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: 40 });
  app = await tempCore('fuzz', {
    fetch: loopbackOnlyFetch,
    client: { timeoutMs: 1_000, retry: { maxAttempts: 1 } },
  });
  await app.core.handlers['profiles:add']({
    name: 'Fuzz',
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

// ---- Hostile values ------------------------------------------------------------------------

const POLLUTING_JSON = [
  '{"__proto__": {"polluted": "yes"}}',
  '{"constructor": {"prototype": {"polluted": "yes"}}}',
  '{"prototype": {"polluted": "yes"}}',
  '{"__proto__": {"toString": "not a function"}, "id": "1"}',
  '{"changes": {"__proto__": {"polluted": "yes"}}, "id": "1"}',
];

function deepNesting(depth: number, asArray: boolean): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { next: value };
  return value;
}

function hostileString(random: Random): string {
  const options = [
    () => 'x'.repeat(1 + Math.floor(random() * 3_000_000)),
    () => '\u0000\u001b[31m\r\n\t' + '\ud800',
    () => '../../etc/passwd',
    () => '<script>alert(1)</script>',
    () => "'; DROP TABLE reports; --",
    () => 'javascript:alert(1)',
    () => 'file:///etc/passwd',
    () => '\u202e' + 'https://example.org',
    () => '🙂'.repeat(500),
    () => '',
    () => ' ',
    () => 'reports:list',
  ];
  return options[Math.floor(random() * options.length)]();
}

function hostileValue(random: Random, depth = 0): unknown {
  const options: (() => unknown)[] = [
    () => undefined,
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 2 ** 53 + 1,
    () => Number.NaN,
    () => Number.POSITIVE_INFINITY,
    () => 10n ** 30n,
    () => hostileString(random),
    () => new Date(0),
    () => new Map([['id', '1']]),
    () => Object.create(null) as object,
    () => () => 'a function',
    () => JSON.parse(POLLUTING_JSON[Math.floor(random() * POLLUTING_JSON.length)]) as unknown,
    () => deepNesting(1 + Math.floor(random() * 5_000), random() < 0.5),
    () => (depth > 2 ? [] : [hostileValue(random, depth + 1), hostileValue(random, depth + 1)]),
    () => (depth > 2 ? {} : { [hostileString(random).slice(0, 40)]: hostileValue(random, depth + 1) }),
  ];
  return options[Math.floor(random() * options.length)]();
}

// ---- Valid-looking inputs, then mutated --------------------------------------------------------

function validTemplate(channel: Channel, random: Random): Record<string, unknown> | undefined {
  const someId = () =>
    random() < 0.5 ? String(1 + Math.floor(random() * 60)) : 'p' + Math.floor(random() * 1e6);
  const profileId = () => app.core.profiles.activeId() ?? 'missing-profile';
  switch (channel) {
    case 'profiles:add':
      return {
        name: `Fuzz ${Math.floor(random() * 1e6)}`,
        baseUrl: service.baseUrl,
        apiKey: random() < 0.5 ? service.apiKey : 'wrong-key-0000',
      };
    case 'profiles:update':
      return { id: random() < 0.7 ? profileId() : someId(), name: `Renamed ${Math.floor(random() * 1e6)}` };
    case 'profiles:remove':
    case 'profiles:activate':
      // Removing the working profile would end the run's real traffic; a made-up id is refused.
      return { id: channel === 'profiles:activate' && random() < 0.5 ? profileId() : someId() };
    case 'profiles:setKey':
      return { id: profileId(), apiKey: random() < 0.5 ? service.apiKey : 'wrong-key-0000' };
    case 'profiles:testConnection':
      return { baseUrl: service.baseUrl, apiKey: service.apiKey };
    case 'reports:list':
      return {
        per_page: [10, 25, 50, 100][Math.floor(random() * 4)],
        page: 1 + Math.floor(random() * 5),
        search: 'contoso',
      };
    case 'reports:get':
    case 'reports:delete':
      return { id: someId() };
    case 'reports:create':
      return random() < 0.5
        ? { url: 'https://www.contoso.com/fuzz', privacy: 0 }
        : { url: 'https://www.contoso.com/locked', privacy: 2, password: 'fuzz-password-123' };
    case 'reports:update':
      return { id: someId(), changes: { privacy: 1 } };
    case 'reports:export':
      return { query: { result: 'good' }, format: random() < 0.5 ? 'csv' : 'json' };
    case 'export:save':
      return { fileName: 'reports.csv', format: 'csv', content: 'id,url\r\n' };
    case 'cache:overview':
      return { result: 'bad' };
    case 'links:open':
      return {
        url: random() < 0.5 ? `reportdesk://report/${someId()}?profile=${profileId()}` : 'reportdesk://x/1',
      };
    case 'shell:openExternal':
      return { url: random() < 0.5 ? 'https://example.org/help' : 'file:///etc/passwd' };
    default:
      return random() < 0.5 ? undefined : {};
  }
}

function fuzzInput(channel: Channel, random: Random): unknown {
  const roll = random();
  if (roll < 0.3) return hostileValue(random);
  const template = validTemplate(channel, random);
  if (roll < 0.5 || template === undefined) return template;
  const mutated: Record<string, unknown> = { ...template };
  const keys = Object.keys(mutated);
  if (roll < 0.8 && keys.length > 0) {
    mutated[keys[Math.floor(random() * keys.length)]] = hostileValue(random);
    return mutated;
  }
  // An extra key, sometimes one that would pollute a prototype if merged naively.
  const extra = JSON.parse(POLLUTING_JSON[Math.floor(random() * POLLUTING_JSON.length)]) as Record<
    string,
    unknown
  >;
  return random() < 0.5 ? { ...mutated, unexpected: hostileValue(random) } : Object.assign(extra, mutated);
}

function describeInput(input: unknown): string {
  try {
    const text = JSON.stringify(input, (_key, value: unknown) =>
      typeof value === 'bigint' ? `${value}n` : value,
    );
    return (text ?? String(input)).slice(0, 200);
  } catch {
    return typeof input;
  }
}

function expectResult(result: Result<unknown>): void {
  expect(typeof result.ok).toBe('boolean');
  if (!result.ok) {
    expect(ERROR_KINDS).toContain(result.error.kind);
    expect(result.error.message.length).toBeGreaterThan(10);
    expect(result.error.message).not.toMatch(/\n\s+at /);
  }
}

it('refuses every invalid input to every channel with invalid_input, and never throws', async () => {
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  const random = mulberry32(SEED);
  const internal: string[] = [];
  let invalid = 0;
  let valid = 0;

  for (const channel of CHANNEL_NAMES) {
    for (let i = 0; i < CALLS_PER_CHANNEL; i++) {
      const input = fuzzInput(channel, random);
      const expected = parseChannelInput(channel, input);
      const result = await dispatch(app.core.handlers, channel, input);
      expectResult(result);
      if (!expected.ok) {
        invalid += 1;
        expect(result, `${channel} ${describeInput(input)}`).toMatchObject({
          ok: false,
          error: { kind: 'invalid_input' },
        });
      } else {
        valid += 1;
        // Real code ran; an "internal" answer would mean something threw that nobody expected.
        if (!result.ok && result.error.kind === 'internal') {
          internal.push(`${channel} ${describeInput(input)}: ${result.error.message}`);
        }
      }
    }
  }

  expect(internal).toEqual([]);
  // The mix really exercised both sides of validation.
  expect(invalid).toBeGreaterThan(CHANNEL_NAMES.length * 10);
  expect(valid).toBeGreaterThan(CHANNEL_NAMES.length * 10);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(typeof ({} as { toString: unknown }).toString).toBe('function');
  expect([...refusedHosts]).toEqual([]);
});

it('refuses unknown and non-string channel names', async () => {
  const random = mulberry32(SEED + 1);
  const names: unknown[] = [
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'reports:list ',
    'REPORTS:LIST',
    'reports:*',
    '',
    'x'.repeat(100_000),
    42,
    null,
    undefined,
    true,
    {},
    [],
    ['reports:list'],
    { channel: 'reports:list' },
    Symbol('reports:list'),
    10n,
    () => 'reports:list',
  ];
  while (names.length < 50) {
    const name = hostileString(random).slice(0, 1000);
    if (!isChannel(name)) names.push(name);
  }
  for (const name of names) {
    const result = await dispatch(app.core.handlers, name, { per_page: 10 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect((result as { error: AppError }).error.message).toMatch(/^Unknown request/);
    expect((result as { error: AppError }).error.message.length).toBeLessThan(300);
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

it('still serves real requests after the fuzzing', async () => {
  const result = await dispatch(app.core.handlers, 'reports:list', { per_page: 10 });
  expect(result.ok).toBe(true);
  const state = await dispatch(app.core.handlers, 'profiles:list', undefined);
  expect(state.ok).toBe(true);
});
