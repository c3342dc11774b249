/**
 * A native module built for the other runtime gets its own message (not "could not open its
 * data" nor "the keychain could not be used"). A second runtime's ABI cannot be produced here
 * (no Electron), so the NODE_MODULE_VERSION text is Node's own wording; the loader failure below
 * is a real dlopen.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nativeModuleFailureMessage } from '../../../electron/core/nativeModules';
import { KeytarKeyStore } from '../../../electron/core/keys/keyStore';
import { AppFailure } from '../../../shared/errors';

// The error Node throws for a build of another ABI (src/node_binding.cc), with the .node path.
const wrongAbi = new Error(
  "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
    'was compiled against a different Node.js version using\nNODE_MODULE_VERSION 137. This version of Node.js requires\n' +
    'NODE_MODULE_VERSION 140. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).',
);

describe('nativeModuleFailureMessage', () => {
  it('names the module and the command, for each runtime', () => {
    expect(nativeModuleFailureMessage(wrongAbi, 'electron')).toMatch(
      /^The better-sqlite3 module was built for another runtime .*node scripts\/native-modules\.mjs electron/,
    );
    expect(nativeModuleFailureMessage(wrongAbi, 'node')).toMatch(
      /^The better-sqlite3 module was built for another runtime .*node scripts\/native-modules\.mjs node/,
    );
  });

  it('recognises the text the real loader uses', () => {
    // A real dlopen of a file that is not a library of this platform.
    const result = spawnSync(
      process.execPath,
      [
        '-e',
        "process.dlopen({ exports: {} }, require('path').resolve('package.json').replace('package.json', 'node_modules/keytar/package.json'))",
      ],
      { encoding: 'utf8' },
    );
    const line = result.stderr.split('\n').find((l) => /Error/.test(l)) ?? '';
    expect(line).toMatch(/invalid ELF header|not a valid Win32 application|slice is not valid mach-o/);
    expect(nativeModuleFailureMessage(new Error(line), 'node')).toMatch(
      /^The keytar module was built for another runtime/,
    );
  });

  it('leaves other errors alone', () => {
    expect(
      nativeModuleFailureMessage(new Error('SQLITE_CANTOPEN: unable to open database file'), 'electron'),
    ).toBeNull();
    expect(
      nativeModuleFailureMessage(new Error('NODE_MODULE_VERSION 137 in some-other.node'), 'node'),
    ).toBeNull();
    expect(nativeModuleFailureMessage('text', 'node')).toBeNull();
  });
});

describe('KeytarKeyStore', () => {
  it('says "built for another runtime" for a keytar of the wrong ABI, not "keychain unavailable"', async () => {
    const store = new KeytarKeyStore({
      loadKeytar: () =>
        Promise.reject(new Error(wrongAbi.message.replace(/better-sqlite3|better_sqlite3/g, 'keytar'))),
    });
    const failure = await store.get('account').catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(AppFailure);
    expect((failure as AppFailure).error).toMatchObject({ kind: 'internal' });
    expect((failure as AppFailure).error.message).toMatch(/^The keytar module was built for another runtime/);
  });
});
