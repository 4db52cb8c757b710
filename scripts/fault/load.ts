/** A bounded background load: a few workers repeating requests and recording each outcome by time. */
export type Sample = { startedAt: number; endedAt: number; status: number | string; label: string };

export class Load {
  readonly samples: Sample[] = [];
  #running = true;
  readonly #workers: Promise<void>[] = [];

  constructor(
    workers: number,
    next: (worker: number, round: number) => { label: string; run: () => Promise<number> },
  ) {
    for (let w = 0; w < workers; w++) {
      this.#workers.push(
        (async () => {
          for (let round = 0; this.#running && round < 100_000; round++) {
            const startedAt = performance.now();
            let label = 'unplanned';
            let status: number | string;
            try {
              const planned = next(w, round);
              label = planned.label;
              status = await planned.run();
            } catch (error) {
              status = (error as { code?: string }).code ?? 'transport error';
            }
            this.samples.push({ startedAt, endedAt: performance.now(), status, label });
          }
        })(),
      );
    }
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#workers);
  }

  /** Samples started at or after `from` and ended by `to` (performance.now() times). */
  between(from: number, to: number): Sample[] {
    return this.samples.filter((s) => s.startedAt >= from && s.endedAt <= to);
  }
}
