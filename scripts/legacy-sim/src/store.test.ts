import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEMP_MARK } from './store/atomic.ts';
import { addFile, call, caseForm, login, PNG, startSim } from './test/helpers.ts';
import { STORE_VERSION } from './types.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-sim-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function fileCase(sim: Awaited<ReturnType<typeof startSim>>) {
  const form = caseForm({ casePassword: 'Rahasia#123', caseConfirmPassword: 'Rahasia#123' });
  addFile(form, 'caseFile', 'bukti.png', PNG, 'image/png');
  return (await call(sim, 'POST', '/WBSCase/Whistleblower', { form })).json;
}

describe('persistence', () => {
  it('keeps data and files across a restart on the same dataDir', async () => {
    const dataDir = tempDir();
    const logs: string[] = [];
    const first = await startSim({ dataDir, log: (m) => logs.push(m) });
    expect(logs.join()).toContain('seeding');
    const created = await fileCase(first);
    const { token } = await login(first, 'admin');
    const partner = await call(first, 'POST', '/PartnerMaster', {
      token,
      body: {
        username: 'mitra9',
        email: 'm9@x.example',
        partnerName: 'Mitra Sembilan',
        partnerPhone: '021',
        partnerAddress: 'Jl',
        provinceId: 31,
        cityId: 3171,
      },
    });
    await first.close();

    const again: string[] = [];
    const second = await startSim({ dataDir, log: (m) => again.push(m) });
    expect(again).toEqual([]);
    const tracked = await call(second, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: created.data.caseNumber, password: 'Rahasia#123' },
    });
    expect(tracked.json.code).toBe(1);
    const admin = await login(second, 'admin');
    const res = await fetch(
      `${second.apiUrl}/WBSCase/DownloadAttachement/1/${tracked.json.data.attachments[0].attachmentId}`,
      { headers: { authorization: `Bearer ${admin.token}` } },
    );
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    expect(
      (await call(second, 'GET', `/PartnerMaster/${partner.json.data.partnerId}`, { token: admin.token }))
        .json.data.partnerName,
    ).toBe('Mitra Sembilan');
    const login9 = await call(second, 'POST', '/JwtAuth/Login', {
      body: { userName: 'mitra9', password: partner.json.message[1] },
    });
    expect(login9.json.code).toBe(1);
    await second.close();
  });

  it('a killed write (partial temp file) leaves the previous store readable', async () => {
    const dataDir = tempDir();
    const first = await startSim({ dataDir, log: () => {} });
    const created = await fileCase(first);
    await first.close();
    const storeFile = join(dataDir, 'store.json');
    const good = readFileSync(storeFile, 'utf8');
    // A crash mid-write leaves a truncated temp file; the real file is untouched by design.
    writeFileSync(
      join(dataDir, `store.json${TEMP_MARK}4242-deadbeef`),
      good.slice(0, Math.floor(good.length / 2)),
    );
    writeFileSync(join(dataDir, 'files', `x.bin${TEMP_MARK}4242-deadbeef`), 'partial');
    const logs: string[] = [];
    const second = await startSim({ dataDir, log: (m) => logs.push(m) });
    expect(logs).toEqual([]);
    const tracked = await call(second, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: created.data.caseNumber, password: 'Rahasia#123' },
    });
    expect(tracked.json.code).toBe(1);
    expect(readdirSync(dataDir).some((n) => n.includes(TEMP_MARK))).toBe(false);
    expect(readdirSync(join(dataDir, 'files')).some((n) => n.includes(TEMP_MARK))).toBe(false);
    await second.close();
  });

  it('a corrupt store file is reseeded (and logged)', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'store.json'), '{"version":1,"users":[');
    const logs: string[] = [];
    const sim = await startSim({ dataDir, log: (m) => logs.push(m) });
    expect(logs.join()).toMatch(/corrupt.*seeding/);
    expect((await call(sim, 'GET', '/CaseStatus')).json.data).toHaveLength(12);
    expect(JSON.parse(readFileSync(join(dataDir, 'store.json'), 'utf8')).version).toBe(STORE_VERSION);
    await sim.close();
  });

  it('a store of an earlier version (the old status ids) is reseeded', async () => {
    const dataDir = tempDir();
    const first = await startSim({ dataDir });
    await first.close();
    const file = join(dataDir, 'store.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), version: 1 }));
    const logs: string[] = [];
    const sim = await startSim({ dataDir, log: (m) => logs.push(m) });
    expect(logs.join()).toMatch(/unknown shape.*seeding/);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(STORE_VERSION);
    await sim.close();
  });

  it('serializes concurrent writes and ends with the last state', async () => {
    const dataDir = tempDir();
    const sim = await startSim({ dataDir, log: () => {} });
    const results = await Promise.all(Array.from({ length: 8 }, () => fileCase(sim)));
    await sim.close();
    const db = JSON.parse(readFileSync(join(dataDir, 'store.json'), 'utf8'));
    const numbers = new Set(db.cases.map((c: { caseNumber: string }) => c.caseNumber));
    for (const r of results) expect(numbers.has(r.data.caseNumber)).toBe(true);
  });

  it('reset goes back to the seed', async () => {
    const sim = await startSim();
    const created = await fileCase(sim);
    const reset = await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    const tracked = await call(sim, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: created.data.caseNumber, password: 'Rahasia#123' },
    });
    expect(tracked.json.code).toBe(0);
    await sim.close();
  });
});
