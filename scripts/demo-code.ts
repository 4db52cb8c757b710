/**
 * `pnpm demo:code`: the current second-factor code of the demo accounts that `pnpm start` runs with
 * (the TOTP secret in .data/dev-secrets.json), for a newcomer without an authenticator app at hand.
 * Development only: a deployment has no such secret.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import { repoRoot } from './system.ts';

const file = join(repoRoot, '.data', 'dev-secrets.json');
const secret = existsSync(file)
  ? (JSON.parse(readFileSync(file, 'utf8')) as { demoTotpSecret?: string }).demoTotpSecret
  : undefined;
if (!secret) {
  console.error('No demo second factor yet: run `pnpm start` first.');
  process.exit(1);
}
const now = Math.floor(Date.now() / 1000);
console.log(`${await generate({ secret, epoch: now })}  (valid for ${30 - (now % 30)} more seconds)`);
