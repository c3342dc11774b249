/**
 * The one scrubber every record from a Report Service passes through before it is cached,
 * answered to a front end or printed (the API client's reply parsing, and the cache again as a
 * last guard). A service may echo secrets back — a `token` equal to the API key, a
 * `password_confirmation`, a nested `protection: { pass }` — so two rules apply at any depth:
 *
 *  - by name: fields whose names look secret (redaction.ts's test, the log sink's too:
 *    `password`, `access_token`, `client_secret`, `api_key`, `authorization`, a lone `pass`, …)
 *    are dropped, unless their value is a flag (true/false/null);
 *  - by value: every secret this process knows (keys and passwords registered with
 *    `registerSecret`) is cut out of every string, and a field holding only one is dropped.
 *
 * No field the spec names (id, url, result, generated_at, privacy, project, results) looks
 * secret (tested); the enumerated and identity ones are also left out of the value rule, so a
 * short password that happens to read "good" cannot rewrite a report's result.
 */
import { BoundedMemo } from './boundedMemo';
import { registeredSecrets } from './log';
import { cutSecrets, isSecretField, REDACTED } from './redaction';

/** Spec fields whose values are identities, enumerations or dates: not rewritten by value. */
const VALUE_RULE_EXEMPT = new Set(['id', 'result', 'generated_at', 'privacy', 'results']);

/**
 * A copy of `value` without secrets (see the module comment); `extraSecrets` adds values known
 * only to the caller. Parts that need no change are shared, not copied.
 */
export function scrubSecrets<T>(value: T, extraSecrets?: readonly string[]): T {
  const registered = registeredSecrets();
  const known = extraSecrets?.length
    ? [...registered, ...extraSecrets.filter((secret) => secret.length >= 4)].sort(
        (a, b) => b.length - a.length,
      )
    : registered;
  return scrub(value, known) as T;
}

/**
 * False only when a JSON text certainly holds nothing the scrubber would remove, so it may skip
 * the walk: `parsed` is what JSON.parse made of `text` (a reply), or what JSON.stringify wrote
 * `text` from (a record the cache stores). Names are judged on the parsed
 * keys, where no escape can disguise them (a regular expression over the text cost as much as
 * JSON.parse itself); known secrets are looked for in the text.
 */
export function jsonMayHoldSecrets(text: string, parsed: object): boolean {
  return textMayHoldKnownSecret(text) || holdsSecretNameOrNumber(parsed);
}

/**
 * Whether a JSON text may hold a known secret, in a key or a value. A secret in a parsed string
 * shows in the text as its JSON escape (JSON.stringify's: the only one there is for every
 * character but "/" and those a \u escape spells), so a text without \u holds that escape; where
 * the text escapes "/" as PHP does (perhaps only some of them), the longest part between two "/"
 * is looked for instead.
 */
function textMayHoldKnownSecret(text: string): boolean {
  const list = registryNeedles().list;
  if (list.length === 0) return false;
  if (text.includes('\\u')) return true;
  const slashEscaped = text.includes('\\/');
  return list.some((needle) => text.includes(slashEscaped ? needle.withoutSlash : needle.whole));
}

interface Needle {
  whole: string;
  withoutSlash: string;
}

interface RegistryNeedles {
  list: Needle[];
  numbers: Set<number>;
}

/** Each registered secret as a JSON text holds it: worked out again when the registry grew. */
const needlesOf = new BoundedMemo<readonly string[], RegistryNeedles>(1);
function registryNeedles(): RegistryNeedles {
  return needlesOf.get(registeredSecrets(), (registered) => {
    const list: Needle[] = [];
    const numbers = new Set<number>();
    for (const secret of registered) {
      const whole = JSON.stringify(secret).slice(1, -1);
      const withoutSlash = whole.split('/').reduce((a, b) => (b.length > a.length ? b : a));
      list.push({ whole, withoutSlash });
      // 1234.0 or 1.234e3 in a text is the number 1234: such secrets are compared in the walk.
      if (String(Number(secret)) === secret) numbers.add(Number(secret));
    }
    return { list, numbers };
  });
}

/**
 * A walk over parsed JSON (no copy, no recursion: a deep reply cannot exhaust the stack): true
 * at the first key the scrubber would drop by name, or number it would drop by value.
 */
function holdsSecretNameOrNumber(parsed: object): boolean {
  const { numbers } = registryNeedles();
  const pending: object[] = [parsed];
  for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
    if (Array.isArray(value)) {
      for (const item of value) if (isSecretNumberOrQueued(item, numbers, pending)) return true;
    } else {
      for (const key in value) {
        const inner = (value as Record<string, unknown>)[key];
        if (isSecretField(key, inner) || isSecretNumberOrQueued(inner, numbers, pending)) return true;
      }
    }
  }
  return false;
}

/** True for a number the scrubber drops; an object or array is queued for the walk instead. */
function isSecretNumberOrQueued(value: unknown, numbers: ReadonlySet<number>, pending: object[]): boolean {
  if (typeof value === 'object' && value !== null) pending.push(value);
  return typeof value === 'number' && numbers.has(value);
}

function holdsOnlySecret(value: unknown, known: readonly string[]): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const text = String(value);
  return known.includes(text);
}

function scrub(value: unknown, known: readonly string[]): unknown {
  if (typeof value === 'string') return cutSecrets(value, known);
  if (Array.isArray(value)) {
    let changed = false;
    const out: unknown[] = [];
    for (const item of value) {
      if (holdsOnlySecret(item, known)) {
        changed = true;
        continue;
      }
      const clean = scrub(item, known);
      if (clean !== item) changed = true;
      out.push(clean);
    }
    return changed ? out : value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      const exempt = VALUE_RULE_EXEMPT.has(key);
      if (
        isSecretField(key, inner) ||
        cutSecrets(key, known) !== key ||
        (!exempt && holdsOnlySecret(inner, known))
      ) {
        changed = true;
        continue;
      }
      const clean = exempt ? inner : scrub(inner, known);
      if (clean !== inner) changed = true;
      out[key] = clean;
    }
    return changed ? out : value;
  }
  if (typeof value === 'number' && known.includes(String(value))) return REDACTED;
  return value;
}
