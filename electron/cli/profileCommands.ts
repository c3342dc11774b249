/**
 * `profiles list|add|remove|use`: the same profiles (and keychain entries) the desktop app
 * uses. A key is read from stdin only, checked with GET /account before anything is saved,
 * and never printed: profiles are shown with the key's last four characters at most.
 */
import { AddProfileInputSchema } from '../../shared/contract';
import { registerSecret } from '../core/log';
import { UsageError } from './args';
import { PROGRAM, readStdin, text, validated, type CliCommand } from './context';
import { display, profileTable, toJson } from './format';
import { orphanHint, orphanLines } from './repairWords';
import { findProfile } from './session';

const ADD_EXAMPLE = `printf %s "$KEY" | ${PROGRAM} profiles add NAME --base-url URL`;

export const PROFILE_COMMANDS: CliCommand[] = [
  {
    words: ['profiles', 'list'],
    positionals: [],
    options: [],
    summary: 'List the profiles; "*" marks the active one.',
    async run({ io, json, open }) {
      const { handlers } = await open();
      const state = await handlers['profiles:list'](undefined);
      io.stdout.write(json ? toJson(state) : profileTable(state, PROGRAM));
      // Keys a killed command or a damaged file left without a profile are never kept unsaid.
      const { orphanedKeys } = await handlers['repairs:status'](undefined);
      if (orphanedKeys.length > 0) io.stderr.write(orphanHint(orphanedKeys.length));
    },
  },
  {
    words: ['profiles', 'add'],
    positionals: ['NAME'],
    options: ['base-url', 'allow-insecure-http'],
    required: ['base-url'],
    summary: 'Add a profile and make it active; the API key comes from stdin and is checked first.',
    async run({ io, positionals, options, json, open }) {
      const topic = ['profiles', 'add'];
      if (io.stdinIsTTY === true) {
        throw new UsageError(
          `profiles add reads the API key from stdin so that it never shows on screen or in the shell history; pipe it in: ${ADD_EXAMPLE}.`,
          topic,
        );
      }
      const apiKey = (await readStdin(io.stdin, 'API key')).trim();
      registerSecret(apiKey);
      if (apiKey === '')
        throw new UsageError(`No API key arrived on stdin. Pipe it in: ${ADD_EXAMPLE}.`, topic);
      if (/[\r\n]/.test(apiKey)) {
        throw new UsageError(
          'More than one line arrived on stdin; pipe in only the API key, on one line.',
          topic,
        );
      }
      const input = validated(
        AddProfileInputSchema,
        {
          name: positionals[0],
          baseUrl: text(options, 'base-url'),
          allowInsecureHttp: options['allow-insecure-http'] === true,
          apiKey,
          sessionOnly: false,
        },
        { name: 'NAME', baseUrl: '--base-url', apiKey: 'API key' },
      );
      const view = await (await open()).handlers['profiles:add'](input);
      const key = view.keyHint === null ? 'the key' : `the key …${display(view.keyHint)}`;
      io.stdout.write(
        json
          ? toJson(view)
          : `Added the profile "${display(view.name)}" (${display(view.baseUrl)}, ${key} in the system keychain); it is now the active profile.\n`,
      );
    },
  },
  {
    words: ['profiles', 'remove'],
    positionals: ['NAME'],
    options: ['yes'],
    summary: 'Remove a profile, its API key and its cached reports (confirm with --yes).',
    async run({ io, positionals, options, json, open }) {
      const name = positionals[0];
      if (options.yes !== true) {
        throw new UsageError(
          `Removing the profile "${name}" deletes its API key from the keychain and its cached reports; add --yes to confirm.`,
          ['profiles', 'remove'],
        );
      }
      const services = await open();
      const profile = findProfile(services, name);
      const wasActive = services.profiles.activeId() === profile.id;
      const state = await services.handlers['profiles:remove']({ id: profile.id });
      if (json) {
        io.stdout.write(toJson(state));
        return;
      }
      const next = wasActive ? state.profiles.find((p) => p.id === state.activeId) : undefined;
      io.stdout.write(
        `Removed the profile "${display(profile.name)}", its API key and its cached reports.\n` +
          (next ? `The active profile is now "${display(next.name)}".\n` : ''),
      );
    },
  },
  {
    words: ['profiles', 'orphans'],
    positionals: [],
    options: ['restore', 'remove', 'yes'],
    summary:
      'List keys in the keychain that no profile names; --restore brings their profiles back, --remove --yes deletes them.',
    async run({ io, options, json, open }) {
      const topic = ['profiles', 'orphans'];
      if (options.restore === true && options.remove === true) {
        throw new UsageError('Give either --restore or --remove, not both.', topic);
      }
      if (options.remove === true && options.yes !== true) {
        throw new UsageError(
          'Removing orphaned keys deletes them from the system keychain for good; add --yes to confirm.',
          topic,
        );
      }
      const { handlers } = await open();
      const before = await handlers['repairs:status'](undefined);
      const status =
        options.restore === true
          ? await handlers['repairs:restoreKeys'](undefined)
          : options.remove === true
            ? await handlers['repairs:removeKeys'](undefined)
            : before;
      if (json) {
        io.stdout.write(toJson({ orphanedKeys: status.orphanedKeys }));
        return;
      }
      const done = before.orphanedKeys.length - status.orphanedKeys.length;
      if (options.restore === true)
        io.stdout.write(`Restored ${done} ${done === 1 ? 'profile' : 'profiles'}.\n`);
      if (options.remove === true)
        io.stdout.write(`Removed ${done} ${done === 1 ? 'key' : 'keys'} from the system keychain.\n`);
      if (options.restore !== true && options.remove !== true)
        io.stdout.write(orphanLines(status.orphanedKeys));
      else if (status.orphanedKeys.length > 0) io.stdout.write(orphanLines(status.orphanedKeys));
    },
  },
  {
    words: ['profiles', 'reset'],
    positionals: [],
    options: ['yes'],
    summary:
      'Start a new, empty profile list over a damaged profiles file that has no backup (confirm with --yes).',
    async run({ io, options, json, open }) {
      if (options.yes !== true) {
        throw new UsageError(
          'A new, empty profile list replaces the damaged profiles file (a copy of it is kept); add --yes to confirm.',
          ['profiles', 'reset'],
        );
      }
      const { handlers } = await open();
      const { profilesDamaged } = await handlers['repairs:status'](undefined);
      const state = await handlers['profiles:startAfresh'](undefined);
      const kept =
        profilesDamaged && profilesDamaged.asideAs !== profilesDamaged.file
          ? ` (the damaged file is kept as ${display(profilesDamaged.asideAs)})`
          : '';
      io.stdout.write(
        json ? toJson(state) : `Started a new, empty profile list${kept}. Add a profile: ${ADD_EXAMPLE}\n`,
      );
    },
  },
  {
    words: ['profiles', 'use'],
    positionals: ['NAME'],
    options: [],
    summary: 'Make a profile the active one (in the desktop app too).',
    async run({ io, positionals, json, open }) {
      const services = await open();
      const profile = findProfile(services, positionals[0]);
      const state = await services.handlers['profiles:activate']({ id: profile.id });
      io.stdout.write(json ? toJson(state) : `The active profile is now "${display(profile.name)}".\n`);
    },
  },
];
