/**
 * Remembers the last answer by its request's key: the time–cost curve depends on the model, GPU, batch and
 * tokens only, and the searched "how many nodes" on those and the deadline, so editing the node count
 * (or, for the curve, the deadline) redraws them without searching every size again.
 * A failed call (the API unreachable) is forgotten, so the next update tries again. An answer still on its way when
 * another key is asked for, or when cleared, is stale: its signal aborts (in the page, its worker stops searching).
 */
export class LastAnswer<T> {
  #key: string | undefined;
  #answer: Promise<T> | undefined;
  #abort: AbortController | undefined;

  /** Whether `key`'s answer is already known or on its way (no search to wait for). */
  has(key: string): boolean {
    return this.#key === key && this.#answer !== undefined;
  }

  get(key: string, compute: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.#key === key && this.#answer) return this.#answer;
    this.#abort?.abort();
    this.#abort = new AbortController();
    const answer = compute(this.#abort.signal);
    this.#key = key;
    this.#answer = answer;
    answer.catch(() => {
      if (this.#answer === answer) this.#answer = undefined;
    });
    return answer;
  }

  /**
   * The answer on its way is no longer wanted (Auto turned off, input that cannot be estimated): its signal aborts and,
   * failing, it is forgotten. One already come stays known (its signal's abort reaches nothing).
   */
  stop(): void {
    this.#abort?.abort();
  }

  clear(): void {
    this.stop();
    this.#key = undefined;
    this.#answer = undefined;
  }
}
