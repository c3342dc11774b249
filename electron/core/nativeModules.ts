/**
 * Recognises a native module (keytar, better-sqlite3) built for the other runtime. One
 * node_modules holds one build: `npm start` builds them for Electron, the tests and the CLI for
 * Node. Loading the wrong one throws an error naming the .node file ("was compiled against a
 * different Node.js version using NODE_MODULE_VERSION …"), which would otherwise surface as "could
 * not open its data" or "the keychain could not be used" and send the user the wrong way.
 */
import { appError, type AppError } from '../../shared/errors';

const NATIVE_FILES: { name: string; file: RegExp }[] = [
  { name: 'better-sqlite3', file: /better[-_]sqlite3/ },
  { name: 'keytar', file: /keytar/ },
];

const WRONG_BUILD =
  /NODE_MODULE_VERSION|compiled against a different Node\.js version|Module did not self-register|invalid ELF header|wrong ELF class|not a valid Win32 application|incompatible architecture|undefined symbol/;

export type NativeRuntime = 'electron' | 'node';

/** The error for a wrong-runtime build (what to run instead), or null when `thrown` is something else. */
export function nativeModuleFailure(
  thrown: unknown,
  runtime: NativeRuntime = process.versions.electron ? 'electron' : 'node',
): AppError | null {
  if (!(thrown instanceof Error) || !WRONG_BUILD.test(thrown.message)) return null;
  const module = NATIVE_FILES.find(({ file }) => file.test(`${thrown.message}\n${thrown.stack ?? ''}`));
  if (!module) return null;
  return appError('native.wrong_build', { module: module.name, runtime });
}

/** The same, as its one English sentence (the CLI's, the logs'). */
export function nativeModuleFailureMessage(thrown: unknown, runtime?: NativeRuntime): string | null {
  return nativeModuleFailure(thrown, runtime)?.message ?? null;
}
