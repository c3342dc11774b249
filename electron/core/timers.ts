/**
 * setTimeout and clearTimeout as a value the core's long-lived parts take (the update checks,
 * the offline scheduler), so tests can drive them by hand.
 */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real timers; a pending one never keeps a process alive (the CLI, the preview, the tests). */
export const UNREF_TIMERS: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
