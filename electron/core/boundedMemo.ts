/**
 * Answers remembered by key, at most `max` of them: a full memory starts afresh, so what is
 * remembered is bounded (a hostile service cannot grow it) and an answer is never wrong, only
 * worked out again. The checked base URLs and the verdicts on field names use it.
 */
export class BoundedMemo<K, V> {
  private readonly answers = new Map<K, V>();

  constructor(private readonly max: number) {}

  /** How many answers are remembered now. */
  get size(): number {
    return this.answers.size;
  }

  /** The answer for `key`: remembered, or worked out by `find` (once, while remembered). */
  get(key: K, find: (key: K) => V): V {
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = find(key);
      if (this.answers.size >= this.max) this.answers.clear();
      this.answers.set(key, answer);
    }
    return answer;
  }
}
