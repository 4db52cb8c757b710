/**
 * Group commit of one process's writes: one write of a kind is in flight at a time; items submitted
 * meanwhile wait and go together, in submission order, into the next one (at most `maxRun` each).
 * Each caller's promise settles only when the write holding its item has committed, with that
 * item's result, or has failed: then every item of that write is refused with its error.
 *
 * Why: a write per item pays a commit (a WAL flush), round trips and, for the audit chain, a wait for
 * the head's row lock each time; under parallel requests those queued behind one another.
 */
type Waiting<T, R> = { item: T; resolve(result: R): void; reject(error: unknown): void };

export class GroupCommit<T, R> {
  readonly #write: (items: T[]) => Promise<R[]>;
  readonly #maxRun: number;
  #queue: Waiting<T, R>[] = [];
  #inFlight: Promise<void> | null = null;

  /** `write` stores `items` as one unit and answers one result per item, in their order. */
  constructor(write: (items: T[]) => Promise<R[]>, maxRun: number) {
    this.#write = write;
    this.#maxRun = maxRun;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#inFlight ??= this.#drain();
    });
  }

  async #drain(): Promise<void> {
    // Started from submit(): let the items submitted in the same tick join the first run.
    await Promise.resolve();
    while (this.#queue.length > 0) {
      const run = this.#queue.splice(0, this.#maxRun);
      let results: R[];
      try {
        results = await this.#write(run.map((waiting) => waiting.item));
      } catch (error) {
        for (const waiting of run) waiting.reject(error);
        continue;
      }
      for (const [i, waiting] of run.entries()) waiting.resolve(results[i] as R);
    }
    this.#inFlight = null;
  }
}
