/** Types for scripts/electron-runtime.mjs (plain JS so the shell scripts can run it without tsx). */
export function installedElectronBinary(root?: string, env?: NodeJS.ProcessEnv): string | null;
export function electronPackageVersion(root?: string): string | null;
