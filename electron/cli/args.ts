/**
 * The CLI's argument grammar and parser: command words, positionals and `--options`, with
 * options allowed before or after the command words. Every mistake becomes a UsageError whose
 * message says what is wrong and where to find the usage. The grammar is data, so new commands
 * (profiles, cache) and options (--profile, --data-dir) are added by declaring them.
 */

export interface OptionSpec {
  /** Without the leading dashes, e.g. 'per-page'. */
  name: string;
  /** Placeholder for the value ('URL', 'N'); absent for flags. */
  value?: string;
  /** The only values accepted, checked while parsing. */
  choices?: readonly string[];
  description: string;
}

export interface CommandSpec {
  /** The command words, e.g. ['reports', 'list']. */
  words: readonly string[];
  /** Names of the positional arguments, in order, e.g. ['ID']. */
  positionals: readonly string[];
  /** Options accepted besides the global ones. */
  options: readonly string[];
  /** Options that must be given. */
  required?: readonly string[];
  summary: string;
}

export interface Grammar<C extends CommandSpec = CommandSpec> {
  program: string;
  /** Every option any command knows. */
  options: Readonly<Record<string, OptionSpec>>;
  /** Options every command accepts. */
  globalOptions: readonly string[];
  commands: readonly C[];
  /** Extra paragraphs for the general help (environment, exit codes). */
  epilogue?: string;
}

export type OptionValues = Readonly<Record<string, string | true | undefined>>;

export type ParsedArgs<C extends CommandSpec> =
  | { help: false; command: C; positionals: string[]; options: OptionValues }
  /** `topic` is the words after `help` (or before `--help`): a command, a group, or nothing. */
  | { help: true; topic: string[] };

export class UsageError extends Error {
  constructor(
    message: string,
    /** The words of the command the mistake belongs to, for the usage hint. */
    readonly topic: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Options refused with their own explanation rather than "unknown option". */
const REFUSED_OPTIONS: Record<string, string> = {
  'api-key':
    'The API key is never taken as an argument (it would show in the process list and shell history). Set REPORT_DESK_API_KEY instead.',
  password:
    'A password is never taken as an argument (it would show in the process list and shell history). Pipe it in and add --password-stdin.',
};

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((word, i) => words[i] === word);
}

function formatOption(spec: OptionSpec): string {
  if (!spec.value) return `--${spec.name}`;
  return `--${spec.name} ${spec.choices ? spec.choices.join('|') : spec.value}`;
}

export function parseArgs<C extends CommandSpec>(
  argv: readonly string[],
  grammar: Grammar<C>,
): ParsedArgs<C> {
  const words: string[] = [];
  const options: Record<string, string | true> = {};
  let help = false;

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (token === '-h' || token === '--help') {
      help = true;
      continue;
    }
    if (!token.startsWith('-') || token === '-' || /^-\d/.test(token)) {
      words.push(token);
      continue;
    }
    if (!token.startsWith('--')) {
      throw new UsageError(
        `Unknown option ${token}; options are written with two dashes, like --json.`,
        words,
      );
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    const inline = eq === -1 ? undefined : token.slice(eq + 1);
    if (REFUSED_OPTIONS[name]) throw new UsageError(REFUSED_OPTIONS[name], words);
    const spec = grammar.options[name];
    if (!spec) throw new UsageError(`Unknown option --${name}.`, words);
    if (name in options) throw new UsageError(`--${name} is given more than once; give it once.`, words);
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value.`, words);
      options[name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        throw new UsageError(`--${name} needs a value: ${formatOption(spec)}.`, words);
      }
      value = next;
      i++;
    }
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`--${name} must be one of ${spec.choices.join(', ')} (got "${value}").`, words);
    }
    options[name] = value;
  }

  if (words[0] === 'help') return { help: true, topic: words.slice(1) };
  if (help) return { help: true, topic: words };
  if (words.length === 0) throw new UsageError('Give a command.');

  const command = grammar.commands
    .filter((c) => startsWith(words, c.words))
    .sort((a, b) => b.words.length - a.words.length)[0];
  if (!command) {
    const group = grammar.commands.find((c) => c.words[0] === words[0]);
    if (group && words.length === 1) {
      throw new UsageError(`"${words[0]}" needs a sub-command.`, [words[0]]);
    }
    throw new UsageError(`Unknown command "${words.join(' ')}".`, group ? [words[0]] : []);
  }
  const name = command.words.join(' ');
  const positionals = words.slice(command.words.length);
  if (positionals.length < command.positionals.length) {
    throw new UsageError(`${name} needs ${command.positionals[positionals.length]}.`, command.words);
  }
  if (positionals.length > command.positionals.length) {
    throw new UsageError(
      `Unexpected argument "${positionals[command.positionals.length]}" for ${name}.`,
      command.words,
    );
  }
  for (const option of Object.keys(options)) {
    if (!grammar.globalOptions.includes(option) && !command.options.includes(option)) {
      throw new UsageError(`--${option} is not an option of ${name}.`, command.words);
    }
  }
  for (const option of command.required ?? []) {
    if (options[option] === undefined) {
      throw new UsageError(`${name} needs ${formatOption(grammar.options[option])}.`, command.words);
    }
  }
  return { help: false, command, positionals, options };
}

function optionLines(grammar: Grammar, names: readonly string[]): string[] {
  const specs = names.map((n) => grammar.options[n]);
  const width = Math.max(...specs.map((s) => formatOption(s).length));
  return specs.map((s) => `  ${formatOption(s).padEnd(width)}  ${s.description}`);
}

function commandSynopsis(grammar: Grammar, command: CommandSpec): string {
  const required = new Set(command.required ?? []);
  const parts = [grammar.program, ...command.words, ...command.positionals];
  for (const name of command.options) {
    const text = formatOption(grammar.options[name]);
    parts.push(required.has(name) ? text : `[${text}]`);
  }
  return parts.join(' ');
}

/** The help text for the whole program, a command group ('reports') or one command. */
export function usageText(grammar: Grammar, topic: readonly string[] = []): string {
  const exact = grammar.commands.find((c) => c.words.join(' ') === topic.join(' '));
  if (exact) {
    const lines = [`Usage: ${commandSynopsis(grammar, exact)}`, '', exact.summary];
    if (exact.options.length > 0) lines.push('', 'Options:', ...optionLines(grammar, exact.options));
    lines.push('', 'Options for every command:', ...optionLines(grammar, grammar.globalOptions));
    return lines.join('\n') + '\n';
  }
  const listed = grammar.commands.filter((c) => topic.length === 0 || startsWith(c.words, topic));
  const shown = listed.length > 0 ? listed : grammar.commands;
  const heads = shown.map((c) => [...c.words, ...c.positionals].join(' '));
  const width = Math.max(...heads.map((h) => h.length));
  const lines = [
    `Usage: ${grammar.program} <command> [options]`,
    '',
    'Commands:',
    ...shown.map((c, i) => `  ${heads[i].padEnd(width)}  ${c.summary}`),
    '',
    'Options for every command:',
    ...optionLines(grammar, grammar.globalOptions),
    '',
    `Run "${grammar.program} help <command>" for a command's options.`,
  ];
  if (grammar.epilogue) lines.push('', grammar.epilogue);
  return lines.join('\n') + '\n';
}
