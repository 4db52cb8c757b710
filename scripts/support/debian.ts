/**
 * The Debian packages the suites need beyond what a fresh machine of this kind has: installed when
 * missing (as root), all in one apt-get run, so suites running side by side never race for dpkg's lock
 * (the gate installs them all in its first stage).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const DEBIAN_TOOLS = {
  chromium: { path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium' },
  nginx: { path: '/usr/sbin/nginx', pkg: 'nginx-light' },
  faketime: { path: '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', pkg: 'faketime' },
} as const;

export type DebianTool = keyof typeof DEBIAN_TOOLS;

export function ensureDebianTools(tools: readonly DebianTool[]): void {
  const missing = tools.map((t) => DEBIAN_TOOLS[t]).filter((t) => !existsSync(t.path));
  if (missing.length === 0) return;
  const packages = missing.map((t) => t.pkg);
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${missing.map((t) => t.path).join(', ')} missing: install Debian's ${packages.join(' ')} (apt-get install ${packages.join(' ')}).`,
    );
  }
  console.log(`Installing ${packages.join(', ')} from Debian packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
}
