/** Types for scripts/native-modules.mjs (plain JS: npm start and setup.sh run it without tsx). */
import type { execFileSync, spawnSync } from 'node:child_process';

export type NativeTarget = 'node' | 'electron';
export type Probe = { ok: true } | { ok: false; reason: string };
export interface ToolDeps {
  platform?: NodeJS.Platform;
  exec?: typeof execFileSync;
  spawn?: typeof spawnSync;
  /** Where npm/npx run; the project folder unless given. */
  cwd?: string;
}
export interface EnsureDeps extends ToolDeps {
  electronBinary?: string | null;
  probe?: (target: NativeTarget, deps: EnsureDeps) => Probe;
  log?: (line: string) => void;
  error?: (line: string) => void;
  /** The Node the modules are checked for (this process's unless given): an unsupported one is refused. */
  nodeVersion?: string;
  execPath?: string;
}
export const NATIVE_MODULES: string[];
export function runTool(command: string, args: string[], deps?: ToolDeps): void;
export function rebuildCommand(target: NativeTarget): { command: string; args: string[] };
export function probeNativeModules(target: NativeTarget, deps?: EnsureDeps): Probe;
export function ensureNativeModules(target: NativeTarget, deps?: EnsureDeps): number;
