/**
 * The operator's way back in (docs/deploy.md#second-factor), and the demo accounts' development secret
 * (DEMO_TOTP_SECRET): both through real stores and the real gateway.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { openEmbedded } from '../store/database.ts';
import { auditRecord } from '../store/schema.ts';
import { buildTestApp, demoAccount, TEST_KEY, TEST_SECRET, type TestApp } from '../test/helpers.ts';
import { enrolTotp, passwordSignIn, totpCode } from '../test/second-factor.ts';
import { runSecondFactorReset } from './operator.ts';

const DEMO_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('pnpm second-factor:reset', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wbs-2fa-reset-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('removes a locked-out administrator’s factors, audited, and the account enrols again', async () => {
    const env = { STORE_DATA_DIR: dir, SECOND_FACTOR_TYPES: '1,2,3,4,5', PUBLIC_URL: 'http://localhost' };
    let t: TestApp = await buildTestApp(env);
    try {
      const { agent } = await passwordSignIn(t.app, 'admin', demoAccount('admin').password);
      await enrolTotp(agent);
      expect(
        (await passwordSignIn(t.app, 'admin', demoAccount('admin').password)).reply.secondFactor.status,
      ).toBe('verify');
    } finally {
      await t.close(); // the embedded store opens in one process at a time
    }
    const lines: string[] = [];
    expect(await runSecondFactorReset({ STORE_DATA_DIR: dir }, 'Admin', (l) => lines.push(l))).toBe(0);
    expect(lines.join('\n')).toMatch(/direset/);
    expect(await runSecondFactorReset({ STORE_DATA_DIR: dir }, 'admin', (l) => lines.push(l))).toBe(1);
    expect(await runSecondFactorReset({ STORE_DATA_DIR: dir }, undefined, (l) => lines.push(l))).toBe(2);

    const database = await openEmbedded(dir);
    try {
      const records = await database.db.select().from(auditRecord);
      const reset = records.find((r) => r.event === 'second-factor-reset');
      expect(reset).toBeDefined();
      expect(JSON.stringify(reset)).toContain('operator');
    } finally {
      await database.close();
    }
    t = await buildTestApp(env);
    try {
      expect(
        (await passwordSignIn(t.app, 'admin', demoAccount('admin').password)).reply.secondFactor.status,
      ).toBe('enrol');
    } finally {
      await t.close();
    }
  });
});

describe('DEMO_TOTP_SECRET (development only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SECOND_FACTOR_TYPES: '1,2,3,4,5', DEMO_TOTP_SECRET: DEMO_SECRET });
  });
  afterAll(async () => t.close());

  it('gives a demo account without a factor the printed secret: it signs in with that secret’s code', async () => {
    const { agent, reply } = await passwordSignIn(
      t.app,
      'admin.kahuripan',
      demoAccount('admin.kahuripan').password,
    );
    expect(reply.secondFactor).toMatchObject({ status: 'verify', methods: ['totp'] });
    const res = await agent.call('POST', '/session/second-factor', {
      method: 'totp',
      code: await totpCode(DEMO_SECRET),
    });
    expect(res.statusCode, res.body).toBe(200);
    // Accounts that need no factor are left alone.
    expect(
      (await passwordSignIn(t.app, 'pelapor', demoAccount('pelapor').password)).reply.secondFactor.status,
    ).toBe('done');
  });

  it('is refused beside a PostgreSQL server, and must be base32', () => {
    const base = { SESSION_SECRET: TEST_SECRET, SESSION_ENCRYPTION_KEY: TEST_KEY };
    expect(() =>
      loadConfig({
        ...base,
        DEMO_TOTP_SECRET: DEMO_SECRET,
        DATABASE_URL: 'postgres://localhost/wbs',
        STORE_ENCRYPTION_KEYS: `k1:${TEST_KEY}`,
      }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DEMO_TOTP_SECRET: 'not base32!' })).toThrow(/base32/);
  });
});
