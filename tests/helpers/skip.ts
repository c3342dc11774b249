/**
 * The condition for a skipped test, saying why on stderr when it holds, so every run's output
 * shows what did not run and a reader can check the reason.
 */
export function skipWhen(condition: boolean, reason: string): boolean {
  if (condition) console.warn(`skipped: ${reason}`);
  return condition;
}
