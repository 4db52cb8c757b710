/** Debian Chromium driven by playwright-core, with the flags this machine kind needs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export type Browser = { context: BrowserContext; page: Page; close(): Promise<void> };

/** A fresh profile per journey: no cookies or storage leak between users. */
export async function openBrowser(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'wbs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    acceptDownloads: true,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale: 'id-ID',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Requests to any host other than the system under test (reporter protection: no third parties). */
export function recordForeignRequests(page: Page, baseUrl: string): string[] {
  const own = new URL(baseUrl).host;
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.host !== own) foreign.push(request.url());
  });
  return foreign;
}

/** Serious or critical axe violations on the current page, as readable lines. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
