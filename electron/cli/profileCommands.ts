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
import { findProfile } from './session';

const ADD_EXAMPLE = `printf %s "$KEY" | ${PROGRAM} profiles add NAME --base-url URL`;

export const PROFILE_COMMANDS: CliCommand[] = [
  {
    words: ['profiles', 'list'],
    positionals: [],
    options: [],
    summary: 'List the profiles; "*" marks the active one.',
    async run({ io, json, open }) {
      const state = await (await open()).handlers['profiles:list'](undefined);
      io.stdout.write(json ? toJson(state) : profileTable(state, PROGRAM));
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
