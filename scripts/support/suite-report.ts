/**
 * The small runner the black-box suites (fault, attack, replicas) share: named checks printed one
 * line each (`ok`/`FAIL`, area, name, detail), figures printed as they are measured, a final
 * `N passed, N failed` line and the exit code.
 */
export type Checker = {
  /** Records one check; returns `ok` so callers can branch on it. */
  check(area: string, name: string, ok: boolean, detail?: string): boolean;
  figure(name: string, value: string | number): void;
};

export class SuiteReport implements Checker {
  passed = 0;
  failed = 0;
  readonly failures: string[] = [];

  check(area: string, name: string, ok: boolean, detail = ''): boolean {
    if (ok) this.passed++;
    else {
      this.failed++;
      this.failures.push(`${area} ${name}`);
    }
    const line = `${ok ? 'ok  ' : 'FAIL'}  ${area.padEnd(16)} ${name}${detail ? `  (${detail})` : ''}`;
    console.log(line);
    return ok;
  }

  figure(name: string, value: string | number): void {
    console.log(`      figure  ${name}: ${value}`);
  }

  /** Prints the summary line and returns the process exit code. */
  finish(title: string): number {
    console.log(`\n${title}: ${this.passed} passed, ${this.failed} failed`);
    if (this.failed > 0) console.log(`failed:\n  ${this.failures.join('\n  ')}`);
    return this.failed === 0 ? 0 : 1;
  }
}

/** Runs `body` and turns a thrown error into one failed check instead of ending the suite. */
export async function guarded(report: Checker, area: string, name: string, body: () => Promise<void>) {
  try {
    await body();
  } catch (error) {
    report.check(area, name, false, `threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}
