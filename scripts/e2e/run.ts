/**
 * Browser journeys: makes sure Debian's Chromium is there (installing it on a fresh machine of this
 * kind), builds the web app, then runs the journey suite against the real system.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_PATH } from '../support/browser.ts';

const root = join(import.meta.dirname, '..', '..');

function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install Debian's chromium package (apt-get install chromium).`,
    );
  }
  console.log('Installing Chromium from Debian packages…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

ensureChromium();
execFileSync('pnpm', ['--filter', '@wbs/web', 'build'], { cwd: root, stdio: 'inherit' });
execFileSync('pnpm', ['exec', 'vitest', 'run', '--config', 'scripts/e2e/vitest.config.ts'], {
  cwd: root,
  stdio: 'inherit',
});
