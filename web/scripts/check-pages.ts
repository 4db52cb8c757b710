/**
 * Quick look at the built app in headless Chromium (not the journey suite): walks the public pages,
 * the wizard, tracking and the case list against a running gateway (or scripts/mock-gateway.ts),
 * saves screenshots and fails on console errors or requests to other hosts.
 * Usage: pnpm exec node web/scripts/check-pages.ts [baseUrl] [outDir]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:8091';
const out = process.argv[3] ?? '/tmp/wbs-shots';
const origin = new URL(base).origin;
const problems: string[] = [];

const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'wbs-chrome-')), {
  executablePath: '/usr/bin/chromium',
  headless: true,
  acceptDownloads: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
  viewport: { width: 1280, height: 900 },
});
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
const page = context.pages()[0] ?? (await context.newPage());
page.on('console', (m) => {
  // the signed-out session probe answers 401 by contract; the browser logs that as a failed resource
  if (m.type() === 'error' && !/status of (401|422|503)/.test(m.text()))
    problems.push(`console: ${m.text()}`);
});
page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
page.on('request', (r) => {
  if (!r.url().startsWith(origin) && !r.url().startsWith('blob:') && !r.url().startsWith('data:'))
    problems.push(`third-party request: ${r.url()}`);
});
const shot = async (p: Page, name: string) =>
  p.screenshot({ path: join(out, `${name}.png`), fullPage: true });
const step = (name: string) => console.log(`- ${name}`);

try {
  step('landing');
  await page.goto(base);
  await page.getByRole('heading', { name: 'Whistleblowing System' }).waitFor();
  await shot(page, '01-landing');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, '02-landing-phone');
  await page.getByRole('button', { name: 'Menu' }).click();
  await shot(page, '03-landing-phone-menu');
  await page.setViewportSize({ width: 1280, height: 900 });

  step('wizard: validation of step 0');
  await page.goto(`${base}/case/create`);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Identitas Pelapor wajib diisi').waitFor();
  await shot(page, '04-wizard-step0-errors');
  await page.getByRole('radio', { name: 'Pribadi' }).check({ force: true });
  await page.getByLabel('Nama', { exact: false }).first().fill('Budi Santoso');
  await page.getByLabel('Alamat', { exact: false }).first().fill('Jl. Merdeka 1');
  await page.getByLabel('Provinsi').selectOption({ label: 'DKI Jakarta' });
  await page.getByLabel('Kota').selectOption({ label: 'Jakarta Pusat' });
  await page.getByLabel('Kecamatan').selectOption({ label: 'Kecamatan Satu' });
  await page.getByLabel('Email').fill('budi@example.com');
  await page.getByLabel('Nomor Telepon').fill('+628123456789');
  await page.getByRole('button', { name: 'Next' }).click();
  step('wizard: step 1');
  await page.getByRole('heading', { name: 'Komunikasi' }).waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Cara Komunikasi wajib pilih minimal 1').waitFor();
  await page.getByRole('checkbox', { name: 'Tatap Muka' }).check({ force: true });
  await page.getByLabel('Waktu Komunikasi').fill('Hari kerja');
  await page.getByRole('button', { name: 'Next' }).click();
  step('wizard: step 2');
  await page.getByRole('heading', { name: 'Laporan Dugaan Pelanggaran' }).waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Mohon isi kejadian apa yang ingin dilaporkan').waitFor();
  await shot(page, '05-wizard-step2-errors');
  await page.getByLabel('Kategori Pengaduan').selectOption({ label: 'Gratifikasi' });
  await page.getByLabel(/^1\. /).fill('Penerimaan hadiah dari vendor');
  await page.getByLabel(/^2\. /).fill('Kantor pusat');
  await page.getByLabel(/^3\. /).fill('Oktober 2026');
  await page.getByLabel(/^4\. /).fill('X, Manajer');
  await page.getByLabel(/^5\. /).fill('Keuangan');
  await page.getByLabel(/^6\. /).fill('Pengadaan');
  await page.getByLabel(/^7\. /).fill('Voucher belanja');
  await page.getByRole('button', { name: 'Next' }).click();
  step('wizard: step 3');
  await page.getByRole('heading', { name: 'Bukti Pendukung', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Bukti Pendukung wajib diisi').waitFor();
  await page
    .getByLabel('Bukti Pendukung', { exact: false })
    .first()
    .setInputFiles({ name: 'bukti.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(2_000_000, 1) });
  await page
    .getByLabel('Lampiran Lainnya')
    .setInputFiles([{ name: 'bukti.pdf', mimeType: 'application/pdf', buffer: Buffer.from('x') }]);
  await page.getByText('Lampiran bukti.pdf telah dipilih').waitFor();
  await page.getByRole('button', { name: 'Tambah Pihak Terkait' }).click();
  await page.getByLabel('Kata sandi pengaduan', { exact: true }).fill('rahasia123');
  await page.getByLabel('Konfirmasi kata sandi pengaduan').fill('rahasia123');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Nama pihak terkait wajib diisi di baris 1').waitFor();
  await page.getByLabel('Nama pihak terkait baris 1').fill('Y');
  await page.getByLabel('Posisi pihak terkait baris 1').fill('Staf');
  await shot(page, '06-wizard-step3');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('alertdialog', { name: 'Simpan Pengaduan' }).waitFor();
  await shot(page, '07-wizard-confirm');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await page.getByRole('alertdialog', { name: 'Pengaduan Berhasil Dibuat' }).waitFor();
  await page.getByTestId('case-number').click();
  await page.getByText('Nomor Pengaduan berhasil di salin').waitFor();
  await shot(page, '08-wizard-success');
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Unduh Nomor Pengaduan' }).click(),
  ]);
  const pdfPath = join(out, pdf.suggestedFilename());
  await pdf.saveAs(pdfPath);
  console.log(`  pdf saved: ${pdfPath}`);
  await page.getByRole('button', { name: 'Tutup' }).click();
  await page.waitForURL(`${base}/`);

  step('wizard: anonymous, failed submission keeps everything');
  await page.goto(`${base}/case/create`);
  await page.getByRole('checkbox', { name: 'Tanpa Identitas' }).check({ force: true });
  if (await page.getByLabel('Nama').count()) problems.push('anonymous mode still shows the name field');
  await page.getByRole('radio', { name: 'Instansi' }).check({ force: true });
  await page.getByLabel('Email').fill('anon@example.com');
  await page.getByLabel('Nomor Telepon').fill('0812');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('checkbox', { name: 'Surat' }).check({ force: true });
  await page.getByLabel('Waktu Komunikasi').fill('Kapan saja');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Kategori Pengaduan').selectOption({ label: 'Suap' });
  for (const [n, value] of [
    [1, 'GAGAL'],
    [2, 'a'],
    [3, 'b'],
    [4, 'c'],
    [5, 'd'],
    [6, 'e'],
    [7, 'f'],
  ] as const) {
    await page.getByLabel(new RegExp(`^${n}\\. `)).fill(value);
  }
  await page.getByRole('radio', { name: 'Tidak', exact: true }).check({ force: true });
  await page.getByRole('button', { name: 'Next' }).click();
  await page
    .getByLabel('Bukti Pendukung', { exact: true })
    .setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(1000, 1) });
  await page.getByLabel('Kata sandi pengaduan', { exact: true }).fill('rahasia123');
  await page.getByLabel('Konfirmasi kata sandi pengaduan').fill('rahasia123');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Simpan' }).click();
  await page.getByText('Layanan sedang tidak dapat dihubungi').waitFor();
  if ((await page.getByText('foto.jpg').count()) !== 1)
    problems.push('evidence file lost after a failed submission');
  await page.getByRole('button', { name: 'Previous' }).click();
  if ((await page.getByLabel(/^1\. /).inputValue()) !== 'GAGAL')
    problems.push('answers lost after a failed submission');
  await shot(page, '08b-wizard-failed-kept');

  step('tracking');
  await page.goto(`${base}/admin/checkcase`);
  await page.getByRole('button', { name: 'Cari Laporan' }).click();
  await page.getByText('Nomor Pengaduan wajib diisi').waitFor();
  await page.getByLabel('Nomor Laporan').fill('WBS-00000042');
  await page.getByLabel('Kata sandi', { exact: true }).fill('salah12345');
  await page.getByRole('button', { name: 'Cari Laporan' }).click();
  await page.getByText('Nomor Pengaduan atau kata sandi tidak sesuai').waitFor();
  await page.getByLabel('Kata sandi', { exact: true }).fill('rahasia123');
  await page.getByRole('button', { name: 'Cari Laporan' }).click();
  await page.getByRole('heading', { name: 'Detail Laporan WBS-00000042' }).waitFor();
  await shot(page, '09-tracking-detail');
  await page.getByRole('tab', { name: 'Catatan Aktivitas' }).click();
  await page.getByText('Text disembunyikan demi keamanan').first().waitFor();
  await shot(page, '10-tracking-logs');
  if (page.url().includes('WBS-')) problems.push('complaint number in URL');
  await page.getByRole('button', { name: 'Kembali' }).click();
  await page.getByLabel('Nomor Laporan').waitFor();

  step('login + case list');
  await page.goto(`${base}/auth/login`);
  await page.getByRole('button', { name: 'Masuk' }).last().click();
  await page.getByText('Username wajib diisi').waitFor();
  await page.getByLabel('Username').fill('admin2');
  await page.getByLabel('Kata sandi', { exact: true }).fill('rahasia123');
  await page.getByRole('button', { name: 'Masuk' }).last().click();
  await page.waitForURL(`${base}/admin/dashboard`);
  await page.getByRole('link', { name: 'Laporan', exact: true }).click();
  await page.getByRole('cell', { name: 'WBS-00000042', exact: true }).waitFor();
  await shot(page, '11-case-list');
  await page
    .getByRole('row', { name: /WBS-00000042/ })
    .getByRole('button', { name: 'Buat Catatan' })
    .click();
  await page.getByRole('dialog', { name: 'Buat Catatan Aktivitas' }).waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Simpan' }).click();
  await page.getByText('Catatan Aktivitas wajib diisi').waitFor();
  await shot(page, '12-case-log');
  await page.getByRole('button', { name: 'Batal' }).click();
  await page
    .getByRole('row', { name: /WBS-00000042/ })
    .getByRole('button', { name: 'Lihat' })
    .click();
  await page.getByRole('heading', { name: /Detail Laporan/ }).waitFor();
  await shot(page, '13-case-detail');
  await page.getByRole('button', { name: /Admin Perusahaan/ }).click();
  await page.getByRole('menuitem', { name: 'Keluar' }).click();
  await page.getByText('Berhasil Keluar').waitFor();
  await page.waitForURL(`${base}/`);
  const login = async (username: string, target: string) => {
    await page.goto(`${base}/auth/login`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Kata sandi', { exact: true }).fill('rahasia123');
    await page.getByRole('button', { name: 'Masuk' }).last().click();
    await page.waitForURL(`${base}${target}`);
  };
  const logout = async () => {
    await page.goto(`${base}/auth/logout`);
    await page.waitForURL(`${base}/`);
  };

  step('type 1: partners');
  await login('admin1', '/admin/partner');
  await page.getByRole('button', { name: 'Tambah Partner' }).click();
  await page.getByRole('heading', { name: 'Partner Baru' }).waitFor();
  await page.getByRole('button', { name: 'Simpan' }).click();
  await page.getByText('Name wajib diisi', { exact: true }).waitFor();
  const partnerName = `Partner ${Date.now() % 100000}`;
  await page.getByLabel('Nama').fill(partnerName);
  await page.getByLabel('No. Telepon').fill('021555');
  await page.getByLabel('Username').fill('partner2');
  await page.getByLabel('Email').fill('p2@x.id');
  await page.getByLabel('Alamat').fill('Jl. C');
  await page.getByLabel('Provinsi').selectOption({ label: 'Jawa Barat' });
  await page.getByLabel('Kota').selectOption({ label: 'Kota Bandung' });
  await shot(page, '14-partner-form');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await page
    .getByRole('alertdialog', { name: 'Simpan Partner' })
    .getByRole('button', { name: 'Simpan' })
    .click();
  await page.getByRole('cell', { name: partnerName }).waitFor();
  await page.getByRole('row', { name: partnerName }).getByRole('button', { name: 'Lihat' }).click();
  await page.getByRole('heading', { name: 'Lihat Partner' }).waitFor();
  await page.getByRole('button', { name: 'Kembali' }).click();
  await page.getByRole('link', { name: 'Perusahaan' }).click();
  await page.getByRole('cell', { name: 'PT Air Bersih' }).waitFor();
  await shot(page, '15-company-list');
  await logout();

  step('type 3: partner staff');
  await login('partner3', '/admin/dashboard');
  await page.getByRole('link', { name: 'Analis' }).click();
  await page.getByRole('row', { name: /Sari/ }).getByRole('button', { name: 'Lihat' }).click();
  await page.getByRole('heading', { name: 'Lihat Staff' }).waitFor();
  await page.getByLabel('Password').waitFor();
  await shot(page, '16-staff-view');
  await page.getByRole('button', { name: 'Kembali' }).click();
  await page.getByRole('link', { name: 'Laporan', exact: true }).click();
  await page.getByRole('cell', { name: 'Silahkan Pilih Perusahaan' }).waitFor();
  await page.getByLabel('Perusahaan').selectOption({ label: 'PT Air Bersih' });
  await page.getByRole('cell', { name: 'WBS-00000042', exact: true }).waitFor();
  await logout();

  step('type 6: cases and profile');
  await login('pelapor6', '/admin/case');
  await page.getByRole('cell', { name: 'WBS-00000042', exact: true }).waitFor();
  if (await page.getByRole('columnheader', { name: 'Jalur Otorisasi' }).count())
    problems.push('type 6 sees Jalur Otorisasi');
  await page.getByRole('button', { name: /Pelapor/ }).click();
  await page.getByRole('menuitem', { name: 'Profil' }).click();
  await page.getByLabel('Nama Pengguna').fill('');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await page.getByText('Username wajib diisi').waitFor();
  await page.getByLabel('Nama Pengguna').fill('Pelapor Baru');
  await page.getByRole('button', { name: 'Simpan' }).click();
  await page
    .getByRole('alertdialog', { name: 'Simpan Profil' })
    .getByRole('button', { name: 'Simpan' })
    .click();
  await page.getByText('Profil berhasil disimpan').waitFor();
  await shot(page, '17-profile');
  await page.goto(`${base}/admin/partner`);
  await page.waitForURL(`${base}/admin/case`);
  await logout();
} catch (error) {
  await shot(page, 'zz-failure').catch(() => undefined);
  console.error(error);
  await context.close();
  process.exit(1);
}
await context.close();
writeFileSync(join(out, 'problems.txt'), problems.join('\n'));
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`ok, screenshots in ${out}`);
