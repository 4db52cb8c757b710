/**
 * Loaded into a gateway started by a journey (`NODE_OPTIONS=--import <this file>`) when the journey
 * needs time to pass there, e.g. the ten minutes after which an action asks for the second factor
 * again. The journey writes a number of seconds to CLOCK_SHIFT_FILE; the process's wall clock (`Date`)
 * then runs that far ahead, and `<file>.ack` says so. Timers and `performance.now()` are untouched.
 * (A file, not a signal: the gateway's graceful shutdown takes the signals.) Test systems only.
 */
import { readFileSync, watchFile, writeFileSync } from 'node:fs';

const RealDate = Date;
let offsetMs = 0;

class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...(args as [string]));
  }

  static override now(): number {
    return RealDate.now() + offsetMs;
  }
}

globalThis.Date = ShiftedDate as DateConstructor;

const control = process.env.CLOCK_SHIFT_FILE;
if (control) {
  watchFile(control, { interval: 100, persistent: false }, () => {
    let seconds: number;
    try {
      seconds = Number(readFileSync(control, 'utf8'));
    } catch {
      return;
    }
    if (!Number.isFinite(seconds)) return;
    offsetMs = seconds * 1000;
    writeFileSync(`${control}.ack`, String(seconds));
  });
}
