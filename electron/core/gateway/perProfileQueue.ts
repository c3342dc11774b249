/**
 * Runs one profile's changes one after another (a key stored while the same profile is being
 * removed or moved would otherwise interleave their keychain and file writes). Other
 * profiles' changes are not held up. A failure ends only its own turn.
 */
export class PerProfileQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(profileId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(profileId) ?? Promise.resolve();
    const turn = before.then(work);
    const tail = turn.catch(() => undefined);
    this.tails.set(profileId, tail);
    // The last turn clears its entry, so the map holds only profiles with work pending.
    void tail.then(() => {
      if (this.tails.get(profileId) === tail) this.tails.delete(profileId);
    });
    return turn;
  }

  /** Profiles with changes running or waiting (for tests and diagnostics). */
  get pending(): number {
    return this.tails.size;
  }
}
