/**
 * The one scrubber every record from a Report Service passes through before it is cached,
 * answered to a front end or printed (the API client's reply parsing, and the cache again as a
 * last guard). A service may echo secrets back — a `token` equal to the API key, a
 * `password_confirmation`, a nested `protection: { pass }` — so two rules apply at any depth:
 *
 *  - by name: fields whose names look secret (`*password*`, `*token*`, `*secret*`, `api_key`,
 *    `authorization`, `pass`, …) are dropped, unless their value is a flag (true/false/null);
 *  - by value: every secret this process knows (keys and passwords registered with
 *    `registerSecret`) is cut out of every string, and a field holding only one is dropped.
 *
 * The fields the spec names (id, url, result, generated_at, privacy, project, results) are
 * never dropped by name; the enumerated and identity ones are also left out of the value rule,
 * so a short password that happens to read "good" cannot rewrite a report's result.
 */
import { registeredSecrets } from './log';

export const REDACTED = '[redacted]';

const SECRET_NAME =
  /password|passwd|passphrase|token|secret|api[_-]?key|apikey|private[_-]?key|access[_-]?key|credential|authorization|^pass$|^pin$|^bearer$/i;

/** Named by the spec: kept whatever the name rule says. */
// Stryker disable next-line ArrayDeclaration,StringLiteral: a guard; no spec field matches SECRET_NAME (secretsRules.test.ts), so removing one changes no verdict.
const SPEC_FIELDS = new Set(['id', 'url', 'result', 'generated_at', 'privacy', 'project', 'results']);

/** Spec fields whose values are identities, enumerations or dates: not rewritten by value. */
const VALUE_RULE_EXEMPT = new Set(['id', 'result', 'generated_at', 'privacy', 'results']);

/** Field names repeat in every record: each is judged once (bounded, so a hostile service cannot grow it). */
const nameVerdicts = new Map<string, boolean>();
const MAX_REMEMBERED_NAMES = 10_000;

/** True for a field name that looks like it holds a secret (the spec's own fields never do). */
export function isSecretFieldName(name: string): boolean {
  let verdict = nameVerdicts.get(name);
  if (verdict === undefined) {
    verdict = !SPEC_FIELDS.has(name) && SECRET_NAME.test(name);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the bound only limits what is remembered, never a verdict.
    if (nameVerdicts.size < MAX_REMEMBERED_NAMES) nameVerdicts.set(name, verdict);
  }
  return verdict;
}

/**
 * A copy of `value` without secrets (see the module comment); `extraSecrets` adds values known
 * only to the caller. Parts that need no change are shared, not copied.
 */
// Stryker disable next-line ArrayDeclaration: a default extra secret would have to appear in a test's data to show.
export function scrubSecrets<T>(value: T, extraSecrets: readonly string[] = []): T {
  const registered = registeredSecrets();
  const known =
    extraSecrets.length === 0
      ? registeredList(registered)
      : [...registered, ...extraSecrets.filter((secret) => secret.length >= 4)];
  return scrub(value, known) as T;
}

/** The registry as an array, rebuilt only when it grew (it only ever grows). */
// Stryker disable next-line ObjectLiteral,ArrayDeclaration: replaced at the first use, as no registry has size -1.
let registeredCopy: { size: number; list: string[] } = { size: -1, list: [] };
function registeredList(registered: ReadonlySet<string>): string[] {
  if (registeredCopy.size !== registered.size)
    registeredCopy = { size: registered.size, list: [...registered] };
  return registeredCopy.list;
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
  size: number;
  list: Needle[];
  numbers: Set<number>;
}

/** Each registered secret as a JSON text holds it; rebuilt only when the registry grew. */
// Stryker disable next-line ObjectLiteral,ArrayDeclaration: replaced at the first use, as no registry has size -1.
let needles: RegistryNeedles = { size: -1, list: [], numbers: new Set() };
function registryNeedles(): RegistryNeedles {
  const registered = registeredSecrets();
  if (needles.size !== registered.size) {
    const list: Needle[] = [];
    const numbers = new Set<number>();
    for (const secret of registered) {
      const whole = JSON.stringify(secret).slice(1, -1);
      const withoutSlash = whole.split('/').reduce((a, b) => (b.length > a.length ? b : a));
      list.push({ whole, withoutSlash });
      // 1234.0 or 1.234e3 in a text is the number 1234: such secrets are compared in the walk.
      if (String(Number(secret)) === secret) numbers.add(Number(secret));
    }
    needles = { size: registered.size, list, numbers };
  }
  return needles;
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
        // A flag is kept whatever its name.
        if (inner === null || typeof inner === 'boolean') continue;
        if (isSecretFieldName(key) || isSecretNumberOrQueued(inner, numbers, pending)) return true;
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

/** `text` with every known secret cut out. */
function scrubText(text: string, known: readonly string[]): string {
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

function holdsOnlySecret(value: unknown, known: readonly string[]): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const text = String(value);
  return known.includes(text);
}

function scrub(value: unknown, known: readonly string[]): unknown {
  if (typeof value === 'string') return known.length === 0 ? value : scrubText(value, known);
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
      const isFlag = inner === null || typeof inner === 'boolean';
      const exempt = VALUE_RULE_EXEMPT.has(key);
      if (
        (isSecretFieldName(key) && !isFlag) ||
        scrubText(key, known) !== key ||
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
