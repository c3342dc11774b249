/** Types for scripts/launcher.mjs (plain JS for old Nodes: npm runs it with whichever Node is first on PATH). */
import type { EventEmitter } from 'node:events';
import type { StdioOptions } from 'node:child_process';

export interface RequiredNode {
  major: number;
  minor: number;
  patch: number;
  text: string;
}
export interface Step {
  argv: string[];
  env: Record<string, string>;
}
export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}
export interface StepOptions {
  stdio?: StdioOptions;
  error?: (line: string) => void;
  /** Where SIGINT, SIGTERM and SIGHUP arrive (this process unless given). */
  signals?: Pick<EventEmitter, 'on' | 'removeListener'>;
}
export type NodeChoice = { node: string; headers: string | null; error?: undefined } | { error: string };
export const NODE_DIR_ENV: string;
export function installNodeCommand(cwd?: string): string;
export function requiredNode(packageJson?: { engines?: { node?: string } }): RequiredNode;
export function isSupportedNode(version: string, required?: RequiredNode): boolean;
export function projectNodeDir(env?: NodeJS.ProcessEnv): string;
export function installedProjectNode(
  dir?: string,
  required?: RequiredNode,
): { binary: string; packageDir: string; version: string } | null;
export function nodeTooOldMessage(
  found: string,
  execPath: string,
  required?: RequiredNode,
  platform?: NodeJS.Platform,
): string;
export function chooseNode(options?: {
  version?: string;
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}): NodeChoice;
export function npmCommand(node: string, env?: NodeJS.ProcessEnv): string[];
export function stepEnv(
  node: string,
  env?: NodeJS.ProcessEnv,
  extra?: Record<string, string>,
): NodeJS.ProcessEnv;
export function taskSteps(
  task: string,
  args: string[],
  options: { node: string; headers?: string | null; env?: NodeJS.ProcessEnv },
): Step[] | null;
export function runStep(argv: string[], env: NodeJS.ProcessEnv, options?: StepOptions): Promise<StepResult>;
export function runSteps(
  steps: Step[],
  node: string,
  env?: NodeJS.ProcessEnv,
  options?: StepOptions,
): Promise<StepResult>;
export function exitLike(
  result: StepResult,
  proc?: {
    pid: number;
    kill(pid: number, signal: NodeJS.Signals): unknown;
    exit(code: number | null): unknown;
  },
): void;
export function launch(
  argv: string[],
  deps?: {
    choose?: () => NodeChoice;
    run?: (steps: Step[], node: string) => Promise<StepResult>;
    error?: (line: string) => void;
  },
): Promise<StepResult>;
