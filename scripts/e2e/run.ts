/**
 * Browser journeys: makes sure Debian's Chromium is there (installing it on a fresh machine of this
 * kind), builds the web app (unless `--built`: the gate built it already), then runs the journey suite
 * against the real system. Other arguments go to vitest (a journey's file name, `-t`).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureDebianTools } from '../support/debian.ts';

const root = join(import.meta.dirname, '..', '..');
const args = process.argv.slice(2).filter((a) => a !== '--');
const built = args.includes('--built');
const vitestArgs = args.filter((a) => a !== '--built');

ensureDebianTools(['chromium']);
if (!built) execFileSync('pnpm', ['--filter', '@wbs/web', 'build'], { cwd: root, stdio: 'inherit' });
try {
  execFileSync('pnpm', ['exec', 'vitest', 'run', '--config', 'scripts/e2e/vitest.config.ts', ...vitestArgs], {
    cwd: root,
    stdio: 'inherit',
  });
} catch {
  // vitest printed the failures; the stack of this wrapper adds nothing.
  process.exitCode = 1;
}
