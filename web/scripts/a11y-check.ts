/**
 * axe-core (WCAG 2 A/AA) scan of the main public screens and states in headless Chromium.
 * Usage: pnpm exec node web/scripts/a11y-check.ts [baseUrl]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Page } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:8091';
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'wbs-axe-')), {
  executablePath: '/usr/bin/chromium',
  headless: true,
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
const page = context.pages()[0] ?? (await context.newPage());
let failures = 0;

async function scan(name: string, p: Page) {
  const result = await new AxeBuilder({ page: p })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  for (const v of result.violations) {
    failures += 1;
    console.log(`${name}: ${v.id} (${v.impact}) ${v.help}`);
    for (const node of v.nodes.slice(0, 3))
      console.log(`    ${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1] ?? ''}`);
  }
  console.log(`${name}: ${result.violations.length} violation(s)`);
}

await page.goto(base);
await page.getByRole('heading', { name: 'Whistleblowing System' }).waitFor();
await scan('landing', page);
await page.goto(`${base}/auth/login`);
await page.getByRole('button', { name: 'Masuk' }).last().click();
await page.getByText('Username wajib diisi').waitFor();
await scan('login with errors', page);
await page.goto(`${base}/case/create`);
await page.getByRole('button', { name: 'Next' }).click();
await page.getByText('Identitas Pelapor wajib diisi').waitFor();
await scan('wizard step 0 with errors', page);
await page.goto(`${base}/admin/checkcase`);
await page.getByLabel('Nomor Laporan').fill('WBS-00000042');
await page.getByLabel('Kata sandi', { exact: true }).fill('rahasia123');
await page.getByRole('button', { name: 'Cari Laporan' }).click();
await page.getByRole('heading', { name: /Detail Laporan/ }).waitFor();
await scan('tracking detail', page);
await page.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
await scan('tracking logs', page);
await page.goto(`${base}/auth/login`);
await page.getByLabel('Username').fill('admin2');
await page.getByLabel('Kata sandi', { exact: true }).fill('rahasia123');
await page.getByRole('button', { name: 'Masuk' }).last().click();
await page.waitForURL(`${base}/admin/dashboard`);
await page.getByRole('link', { name: 'Laporan', exact: true }).click();
await page.getByRole('cell', { name: 'WBS-00000042', exact: true }).waitFor();
await scan('case list', page);
await page
  .getByRole('row', { name: /WBS-00000042/ })
  .getByRole('button', { name: 'Buat Catatan' })
  .click();
await page.getByRole('dialog', { name: 'Buat Catatan Aktivitas' }).waitFor();
await scan('log dialog', page);
await context.close();
process.exit(failures ? 1 : 0);
