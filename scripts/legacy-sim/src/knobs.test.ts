import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LegacySim } from './index.ts';
import { call, startSim } from './test/helpers.ts';

let sim: LegacySim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.setKnobs({}));

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

  it('unknown /api paths answer a 404 envelope', async () => {
    const reply = await call(sim, 'GET', '/NoSuchThing');
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ code: -1, message: ['Not Found'], data: null });
  });
});
