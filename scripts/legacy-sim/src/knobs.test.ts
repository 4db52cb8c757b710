import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LegacySim } from './index.ts';
import { call, login, startSim } from './test/helpers.ts';

let sim: LegacySim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.setKnobs({}));
const adminToken = async () => (await login(sim, 'admin')).token;

const knob = (body: unknown) =>
  fetch(`${sim.url}/__sim/knobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('test knobs', () => {
  it('latencyMs delays replies', async () => {
    await knob({ latencyMs: 120 });
    const t0 = Date.now();
    expect((await call(sim, 'GET', '/channel')).json.code).toBe(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
  });

  it('failWith500 answers HTTP 500 without an envelope', async () => {
    await knob({ failWith500: true });
    const reply = await call(sim, 'GET', '/channel');
    expect(reply.status).toBe(500);
    expect(typeof reply.json).toBe('string');
  });

  it('malformed answers 200 with a broken body', async () => {
    sim.setKnobs({ malformed: true });
    const res = await fetch(`${sim.apiUrl}/channel`);
    expect(res.status).toBe(200);
    await expect(res.clone().json()).rejects.toThrow();
  });

  it('hang never answers', async () => {
    sim.setKnobs({ hang: true });
    await expect(fetch(`${sim.apiUrl}/channel`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
  });

  it('down destroys the socket', async () => {
    sim.setKnobs({ down: true });
    await expect(fetch(`${sim.apiUrl}/channel`)).rejects.toThrow();
    sim.setKnobs({});
    expect((await call(sim, 'GET', '/channel')).json.code).toBe(1);
  });

  it('reset clears knobs; /__sim is 404 without testKnobs', async () => {
    await knob({ failWith500: true });
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
    expect((await call(sim, 'GET', '/channel')).status).toBe(200);
    const plain = await startSim({ testKnobs: false });
    expect(
      (
        await fetch(`${plain.url}/__sim/knobs`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${plain.url}/__sim/reset`, { method: 'POST' })).status).toBe(404);
    await plain.close();
  });

  it('adds generated reports to one company, listed like any other', async () => {
    const before = (
      await call(sim, 'POST', '/WBSCase/company/admin/3', { token: await adminToken(), body: { length: 1 } })
    ).json.recordsTotal as number;
    const res = await fetch(`${sim.url}/__sim/cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 300, companyId: 3, maxAgeDays: 30, seed: 5 }),
    });
    const ids = ((await res.json()) as { data: { caseIds: number[] } }).data.caseIds;
    expect(ids).toHaveLength(300);
    const table = await call(sim, 'POST', '/WBSCase/company/admin/3', {
      token: await adminToken(),
      body: { length: -1, order: [{ column: 'caseCreated', dir: 'asc' }] },
    });
    expect(table.json.recordsTotal).toBe(before + 300);
    const generated = (table.json.data as { caseId: number; caseCreated: string }[]).filter((row) =>
      ids.includes(row.caseId),
    );
    expect(generated).toHaveLength(300);
    const oldest = Date.now() - 31 * 86_400_000;
    for (const row of generated) expect(Date.parse(`${row.caseCreated}+07:00`)).toBeGreaterThan(oldest);
    const detail = await call(sim, 'GET', `/WBSCase/company/3/${ids[0]}`, { token: await adminToken() });
    expect(detail.json.code).toBe(1);
    const unknown = await fetch(`${sim.url}/__sim/cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, companyId: 999 }),
    });
    expect(unknown.status).toBe(400);
    await sim.reset();
  });

  it('unknown /api paths answer a 404 envelope', async () => {
    const reply = await call(sim, 'GET', '/NoSuchThing');
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ code: -1, message: ['Not Found'], data: null });
  });
});
