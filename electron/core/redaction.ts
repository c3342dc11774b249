/**
 * What a secret is, in one place: the log sink (log.ts) and the reply scrubber (secrets.ts)
 * judge a field by the same test, cut known secrets out of text the same way, and write the
 * same REDACTED in their place.
 *
 * A field is secret when its name is, and its value is not a flag (true, false or null: a
 * `password_protected: true` says nothing secret). A name is secret when one of its words is
 * a secret word or ends with one (`newpassword`, `accesstoken`), or two words in a row say
 * `api key`, `private key` or `access key`; or when the whole name is `pass`, `pin`, `bearer`
 * or `key`, which inside other names mean other things (`pass_count`, `pinned`, `bearer_kind`,
 * `keynote`). Its words are read two ways, lowercased, and either may find one: split where
 * anything but a letter or digit stands (`PassWord`, `refreshtoken`), and split also where a
 * lowercase letter meets an uppercase one, an all-capital word a capitalised one, or a letter a
 * digit (`secretNote`, `TOKENCount`, `password2`). So
 * `access_token`, `refreshToken`, `client_secret`, `passphrase`, `X-Api-Key`, `api key` and
 * `token_count` are secret; `tokenizer` and `secretary` (longer words that only start with
 * one), `privacy`, `passed`, `keys` and `monkey` are not.
 */
import { BoundedMemo } from './boundedMemo';

export const REDACTED = '[redacted]';

/** Words that make a name secret, alone or at the end of a word. */
const SECRET_WORDS = [
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'token',
  'tokens',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'authorization',
  'apikey',
  'apikeys',
  'privatekey',
  'accesskey',
];
/** Two words in a row that make a name secret. */
const SECRET_PAIRS = new Set(['api key', 'private key', 'access key']);
/** Names secret only as the whole name. */
const SECRET_WHOLE_NAMES = new Set(['pass', 'pin', 'bearer', 'key']);

/** A field name's words, lowercased, split where anything but a letter or digit stands. */
function plainWords(name: string): string[] {
  return name.toLowerCase().split(/[^\p{L}\p{N}]+/u);
}

/** The same, split also at a lowercase–uppercase step, before a capitalised word and at a letter–digit step. */
function steppedWords(name: string): string[] {
  return plainWords(
    name
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .replace(/(\p{L})(\p{N})/gu, '$1 $2')
      .replace(/(\p{N})(\p{L})/gu, '$1 $2'),
  );
}

const saysSecret = (words: string[]) =>
  words.some(
    (word, i) =>
      SECRET_WORDS.some((secret) => word.endsWith(secret)) || SECRET_PAIRS.has(`${words[i - 1]} ${word}`),
  );

function judgeName(name: string): boolean {
  return (
    SECRET_WHOLE_NAMES.has(name.toLowerCase()) ||
    saysSecret(plainWords(name)) ||
    saysSecret(steppedWords(name))
  );
}

/** Field names repeat in every record: each is judged once while remembered. */
const nameVerdicts = new BoundedMemo<string, boolean>(10_000);

/** True for a field name that looks like it holds a secret (see the module comment). */
export function isSecretFieldName(name: string): boolean {
  return nameVerdicts.get(name, judgeName);
}

/** True for a value that only flags something (true, false, null): kept whatever its name. */
export function isFlag(value: unknown): boolean {
  return value === null || typeof value === 'boolean';
}

/**
 * True for a field the log sink and the scrubber both redact: a secret name, not a flag. The
 * name's remembered verdict first: nearly every name is plain, and the reply check asks this of
 * every key of every record.
 */
export function isSecretField(name: string, value: unknown): boolean {
  return isSecretFieldName(name) && !isFlag(value);
}

/** `text` with each of `secrets` cut out wherever it appears (give them longest first; '' is none). */
export function cutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== '') out = out.split(secret).join(REDACTED);
  return out;
}
