/** Types for scripts/screenshotPictures.mjs (plain JS: the launcher runs it with node). */
export interface SpecSource {
  file: string;
  source: string;
}
export function picturesShown(markdown: string): string[];
export function specsTaking(pictures: string[], specs: SpecSource[]): { files: string[]; untaken: string[] };
export function e2eSpecs(root?: string): SpecSource[];
export function runCommand(argv: string[], cwd: string, log?: (line: string) => void): number;
export function regenerate(options?: {
  root?: string;
  env?: NodeJS.ProcessEnv;
  run?: (argv: string[], cwd: string) => number;
  log?: (line: string) => void;
  error?: (line: string) => void;
}): number;
