/**
 * The HTTP conventions every route shares (docs/adr/0021-http-conventions.md): 201 + Location, 404,
 * 405 + Allow, Retry-After, X-Request-Id, and a problem `detail` that names the reason.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, signInAs, type TestApp } from './test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
beforeEach(async () => t.legacy.reset());
afterAll(async () => t.close());

describe('HTTP conventions', () => {
  it('creating a record answers 201 with its id and a Location that reads it back', async () => {
    const cookie = await signInAs(t.app, 1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partners',
      headers: browser(cookie),
      payload: {
        name: 'Partner Lokasi',
        username: 'p-lokasi',
        email: 'lokasi@x.co',
        phone: '021',
        address: 'A',
        provinceId: 31,
        cityId: 3171,
      },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(id).toEqual(expect.any(Number));
    expect(created.headers.location).toBe(`/api/v1/partners/${id}`);
    const read = await t.app.inject({
      method: 'GET',
      url: created.headers.location as string,
      headers: browser(cookie),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().name).toBe('Partner Lokasi');
  });

  it('a missing partner or company is 404 not-found, not a legacy 422', async () => {
    const cookie = await signInAs(t.app, 1);
    for (const url of ['/api/v1/partners/999999', '/api/v1/companies/999999']) {
      const res = await t.app.inject({ method: 'GET', url, headers: browser(cookie) });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().type).toMatch(/\/not-found$/);
    }
  });

  it('a known path with a wrong method is 405 with Allow; an unknown path stays 404', async () => {
    const cookie = await signInAs(t.app, 1);
    const wrong = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/partners/1',
      headers: browser(cookie),
    });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(String(wrong.headers.allow).split(', ')).toEqual(expect.arrayContaining(['DELETE', 'GET', 'PUT']));
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/v1/no-such-thing',
      headers: browser(cookie),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('every 503 carries Retry-After', async () => {
    t.legacy.setKnobs({ down: true });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/regions/provinces' });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps a valid incoming X-Request-Id, echoes it and sends it to the legacy; replaces an unsafe one', async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/v1/regions/provinces',
      headers: { 'x-request-id': 'trace-0123456789abcdef' },
    });
    expect(kept.headers['x-request-id']).toBe('trace-0123456789abcdef');
    const legacyLine = t.logs.find((line) => line.legacyCall && line.reqId === 'trace-0123456789abcdef');
    expect(legacyLine).toBeDefined();
    for (const unsafe of [
      'short',
      'x'.repeat(129),
      'has space in it',
      'inject\r\nx: y',
      '<script>alert(1)</script>',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/regions/provinces',
        headers: { 'x-request-id': unsafe },
      });
      expect(res.headers['x-request-id']).not.toBe(unsafe);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("a refused body's problem names the reason in its detail, not only that the data is invalid", async () => {
    const send = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload,
        headers: { origin: 'http://localhost' },
      });
    const one = await send({ username: 'admin' });
    expect(one.statusCode).toBe(400);
    expect(one.json()).toMatchObject({
      title: 'Data yang dikirim tidak valid',
      detail: 'Kata sandi wajib diisi',
      errors: { password: 'Kata sandi wajib diisi' },
    });
    const both = await send({});
    expect(both.json().detail).toBe('Terdapat 2 isian yang tidak valid: username, password');
  });

  it('a multipart body without a boundary is a 400, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      payload: 'xx',
      headers: { 'content-type': 'multipart/form-data', origin: 'http://localhost' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toMatch(/\/bad-request$/);
  });
});
