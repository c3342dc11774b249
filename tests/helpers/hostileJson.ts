/**
 * Random and hostile reply bodies for the reply fast paths (the secrets check and the report
 * reader): values built from secret-looking names, registered secrets and look-alikes, then
 * written as JSON the way services may write it — every character possibly a \u escape, "/"
 * possibly "\/", numbers in other forms (1234.0, 1.234e3), spaces around tokens, keys twice.
 * Seeded, so a failure names the seed that reproduces it.
 */
import { mulberry32, type Random } from '../../electron/demo-service/random';

export { mulberry32, type Random };

/** Names the scrubber drops, in the spellings a service may use. */
export const SECRET_NAMES = [
  'password',
  'PassWord',
  'new_password',
  'password_confirmation',
  'passwd',
  'passphrase',
  'token',
  'Access_Token',
  'secret',
  'clientSecret',
  'api_key',
  'apiKey',
  'API-KEY',
  'private_key',
  'accessKey',
  'credentials',
  'Authorization',
  'pass',
  'PIN',
  'bearer',
];

/** Names that look close and are kept. */
export const PLAIN_NAMES = [
  'summary',
  'score',
  'tags',
  'checks',
  'name',
  'passed',
  'compass',
  'keynote',
  'pinned',
  'bearer_kind',
  'passing',
  'spin',
  'note',
];

/** Keys that trip naive copies: prototypes, integer-like keys (enumerated first), the spec's own. */
export const TRICKY_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  '0',
  '10',
  'id',
  'url',
  'result',
  'privacy',
];

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const chance = (random: Random, p: number) => random() < p;

export interface ValueOptions {
  /** Registered secrets the values may hold (whole, inside text, or as a key). */
  secrets: readonly string[];
  /** How likely a secret-looking name or a secret is at each choice. */
  secretRate: number;
}

/** A random JSON value (a tree at most `depth` deep). */
export function randomValue(random: Random, options: ValueOptions, depth = 3): unknown {
  const roll = random();
  if (depth > 0 && roll < 0.15) {
    return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, options, depth - 1));
  }
  if (depth > 0 && roll < 0.3) return randomObject(random, options, depth - 1);
  if (roll < 0.4) return pick(random, [true, false, null]);
  if (roll < 0.55) {
    const secret = pick(random, options.secrets);
    if (chance(random, options.secretRate) && Number.isFinite(Number(secret))) return Number(secret);
    return pick(random, [0, 1, 2, -7, 42, 3.5, 1e21, 2 ** 53 + 2]);
  }
  return randomText(random, options);
}

export function randomText(random: Random, options: ValueOptions): string {
  const secret = pick(random, options.secrets);
  if (chance(random, options.secretRate)) {
    return pick(random, [secret, `before ${secret} after`, `https://x.example/?k=${secret}`]);
  }
  return pick(random, [
    'https://www.example.com/account/reset-password',
    'https://contoso.com/a/b/c?token_hint=1',
    'plain text',
    'ünïcödé ✓ text',
    'quote " and backslash \\ and tab \t',
    '',
    secret.slice(0, -1),
  ]);
}

export function randomObject(random: Random, options: ValueOptions, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const count = Math.floor(random() * 5);
  for (let i = 0; i < count; i++) {
    const roll = random();
    const name =
      roll < options.secretRate
        ? pick(random, SECRET_NAMES)
        : roll < options.secretRate * 1.3
          ? pick(random, options.secrets)
          : roll < 0.9
            ? pick(random, PLAIN_NAMES)
            : pick(random, TRICKY_NAMES);
    Object.defineProperty(out, name, {
      value: randomValue(random, options, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A report record: the schema's fields (now and then missing, out of order or in another form) and others. */
export function randomReport(random: Random, options: ValueOptions, id: number): Record<string, unknown> {
  // Mostly what zod accepts; now and then a form it converts or refuses.
  const either = (usual: readonly unknown[], odd: readonly unknown[]) =>
    chance(random, 0.05) ? pick(random, odd) : pick(random, usual);
  const fields: [string, unknown][] = [
    ['id', either([id, String(id)], ['', -0, 1.5, 'a/b', Infinity])],
    ['url', either([`https://r${id}.example.org/`, 'https://x.example/reset-password'], [7, null])],
    ['result', either(['good', 'decent', 'bad', null], ['GOOD', undefined, 1])],
    ['generated_at', either(['2026-11-24T11:55:29.000Z', null], [undefined, 5])],
    ['privacy', either([0, 1, 2, null], ['1', '02', 3, undefined])],
    ['project', either(['alpha', 12, null], [undefined, Infinity, ['x'], ''])],
  ];
  if (chance(random, 0.2)) fields.sort(() => random() - 0.5);
  const record: Record<string, unknown> = {};
  for (const [name, value] of fields) if (value !== undefined) record[name] = value;
  const extras = randomObject(random, options, 2);
  for (const name of Object.keys(extras)) {
    Object.defineProperty(record, name, {
      value: extras[name],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
}

export interface WriteOptions {
  /** Chance that any one character of a string is written as a \u escape. */
  unicodeEscapes: number;
  /** Chance that any one "/" is written as "\/" (PHP writes them all). */
  slashEscapes: number;
  /** Numbers written in another form that reads as the same number. */
  otherNumberForms: boolean;
  /** Spaces and line breaks between tokens. */
  spaces: boolean;
  /** Some keys written twice, the first time with another value (JSON.parse keeps the last). */
  duplicateKeys: boolean;
}

/** `value` as JSON text, written as `options` say; JSON.parse gives `value` back. */
export function writeJson(random: Random, value: unknown, options: WriteOptions): string {
  const space = () => (options.spaces && chance(random, 0.3) ? pick(random, [' ', '\n', '\t ', '\r\n']) : '');
  const text = (s: string) => writeString(random, s, options);
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return writeNumber(random, value, options);
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) {
    return `[${value.map((item) => space() + writeJson(random, item, options) + space()).join(',')}]`;
  }
  const members: string[] = [];
  for (const key of Object.keys(value as object)) {
    const inner = (value as Record<string, unknown>)[key];
    if (options.duplicateKeys && chance(random, 0.1)) {
      members.push(`${text(key)}${space()}:${space()}${text('an earlier value')}`);
    }
    members.push(`${space()}${text(key)}${space()}:${space()}${writeJson(random, inner, options)}`);
  }
  return `{${members.join(',')}${space()}}`;
}

function writeString(random: Random, value: string, options: WriteOptions): string {
  let out = '"';
  for (const char of value) {
    if (chance(random, options.unicodeEscapes)) {
      for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    } else if (char === '/' && chance(random, options.slashEscapes)) {
      out += '\\/';
    } else {
      out += JSON.stringify(char).slice(1, -1);
    }
  }
  return `${out}"`;
}

function writeNumber(random: Random, value: number, options: WriteOptions): string {
  if (!Number.isFinite(value)) return '1e999';
  const plain = JSON.stringify(value);
  if (!options.otherNumberForms || !Number.isInteger(value) || Math.abs(value) >= 1e15) return plain;
  const forms = [`${plain}.0`, `${plain}e0`, `${value * 10}E-1`, `${plain}.000`];
  if (value !== 0) forms.push(`${value / 1000}e3`);
  const form = pick(random, forms);
  return Number(form) === value ? form : plain;
}

/** Random write options: each way of writing on or off, as services differ. */
export function randomWriteOptions(random: Random): WriteOptions {
  return {
    unicodeEscapes: chance(random, 0.3) ? pick(random, [0.01, 0.1, 1]) : 0,
    slashEscapes: chance(random, 0.4) ? pick(random, [0.5, 1]) : 0,
    otherNumberForms: chance(random, 0.3),
    spaces: chance(random, 0.3),
    duplicateKeys: chance(random, 0.2),
  };
}
