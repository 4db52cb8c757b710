import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegacySim } from './index.ts';
import { demoAccounts } from './seed/demo-accounts.ts';
import { call, login, signJwt, startSim } from './test/helpers.ts';

let sim: LegacySim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const SUB_OBJECTS: Record<number, string> = {
  2: 'companyWbsUser',
  3: 'partnerWbsUser',
  4: 'companyStaffWbsUser',
  5: 'partnerStaffWbsUser',
  6: 'whistleblowerWbsUser',
};
const RECORD_KEYS = [
  'wbsUserId',
  'wbsUserName',
  'wbsUserEmail',
  'wbsUserUserTypeId',
  'wbsUserUserType',
  'wbsUserRole',
  'wbsUserInitPassword',
  'partnerId',
  'partnerStaffPartnerId',
  'companyId',
  'companyStaffCompanyId',
  'companyStaffId',
  'partnerStaffId',
  'companyStaffCaseLineId',
  'whistleblowerId',
  'whistleblowerCompanyId',
];

describe('login', () => {
  it.each(demoAccounts.map((a) => [a.username, a] as const))(
    'logs in %s with the shape of its user type',
    async (_, a) => {
      const reply = await call(sim, 'POST', '/JwtAuth/Login', {
        body: { userName: a.username, password: a.password },
      });
      expect(reply.status).toBe(200);
      expect(reply.json.code).toBe(1);
      expect(Array.isArray(reply.json.message)).toBe(true);
      const data = reply.json.data;
      const key = SUB_OBJECTS[a.userTypeId];
      const record = key ? data[key] : data.wbsUser;
      if (key) expect(Object.keys(data)).toEqual([key]);
      else expect(typeof data.token).toBe('string');
      const token: string = key ? record.token : data.token;
      expect(token.split('.')).toHaveLength(3);
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      expect(claims.sub).toBe(String(record.wbsUserId));
      expect(claims.userTypeId).toBe(a.userTypeId);
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
      for (const k of RECORD_KEYS) expect(record).toHaveProperty(k);
      expect(record.wbsUserUserTypeId).toBe(a.userTypeId);
      expect(record.wbsUserRole).toBe(a.role);
      expect(record.wbsUserInitPassword).toBe(a.initPassword ? 1 : 0);
      expect(record.wbsUserUserType.userTypeName).toBeTruthy();
    },
  );

  it('covers the six user types, both roles for types 4 and 5, and an initial-password user', () => {
    expect(new Set(demoAccounts.map((a) => a.userTypeId))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    for (const type of [4, 5])
      expect(new Set(demoAccounts.filter((a) => a.userTypeId === type).map((a) => a.role))).toEqual(
        new Set([1, 2]),
      );
    expect(demoAccounts.some((a) => a.initPassword)).toBe(true);
  });

  it('answers a wrong password or unknown user with code 0 at HTTP 200', async () => {
    for (const body of [
      { userName: 'admin', password: 'wrong-password' },
      { userName: 'nobody', password: 'whatever1' },
    ]) {
      const reply = await call(sim, 'POST', '/JwtAuth/Login', { body });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ code: 0, message: ['Username atau kata sandi salah'], data: null });
    }
  });

  it('matches paths case-insensitively and tolerates trailing slashes', async () => {
    const a = demoAccounts[0]!;
    const reply = await call(sim, 'POST', '/jwtauth/LOGIN/', {
      body: { userName: a.username, password: a.password },
    });
    expect(reply.json.code).toBe(1);
    expect((await call(sim, 'GET', '/unit/getdirectorate/')).json.code).toBe(1);
    expect((await call(sim, 'GET', '/CHANNEL/')).json.data).toHaveLength(4);
  });
});

describe('401 behaviour', () => {
  const UNAUTHORIZED = { code: -1, message: ['Unauthorized'], data: null };

  it('refuses no token, a bad token, a foreign-secret token and an expired token', async () => {
    const admin = await login(sim, 'admin');
    const expired = signJwt({
      sub: String(admin.user.wbsUserId),
      userTypeId: 1,
      jti: 'x',
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    const foreign = signJwt(
      { sub: '1', userTypeId: 1, jti: 'y', exp: Math.floor(Date.now() / 1000) + 600 },
      'other-secret',
    );
    for (const token of [null, 'not-a-jwt', expired, foreign]) {
      const reply = await call(sim, 'GET', '/PartnerMaster', { token });
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual(UNAUTHORIZED);
    }
    expect((await call(sim, 'GET', '/PartnerMaster', { token: admin.token })).status).toBe(200);
  });

  it('revokes the token at logout', async () => {
    const { token } = await login(sim, 'admin');
    const out = await call(sim, 'POST', '/JwtAuth/Logout', { token, headers: { UserId: '1' } });
    expect(out.json.code).toBe(1);
    const after = await call(sim, 'GET', '/UserRole', { token });
    expect(after.status).toBe(401);
    expect(after.json).toEqual(UNAUTHORIZED);
  });

  it('lets an initial-password user call only ChangePassword and Logout', async () => {
    const { token, user } = await login(sim, 'analis.baru');
    expect(user.wbsUserInitPassword).toBe(1);
    expect((await call(sim, 'GET', '/UserRole', { token })).status).toBe(401);
    expect((await call(sim, 'GET', '/CaseLine', { token })).status).toBe(401);
    const short = await call(sim, 'PUT', '/User/ChangePassword', {
      token,
      body: {
        oldPassword: 'Awal#2026!',
        newPassword: 'short',
        confirmNewPassword: 'short',
        userId: user.wbsUserId,
      },
    });
    expect(short.json.code).toBe(0);
    expect(short.json.message).toContain('Kata sandi baru minimal 8 karakter.');
    const mismatch = await call(sim, 'PUT', '/User/ChangePassword', {
      token,
      body: {
        oldPassword: 'Awal#2026!',
        newPassword: 'Baru#20261',
        confirmNewPassword: 'Baru#20262',
        userId: user.wbsUserId,
      },
    });
    expect(mismatch.json.message).toContain('Konfirmasi kata sandi baru tidak sama');
    const wrongOld = await call(sim, 'PUT', '/User/ChangePassword', {
      token,
      body: {
        oldPassword: 'nope-nope',
        newPassword: 'Baru#20261',
        confirmNewPassword: 'Baru#20261',
        userId: user.wbsUserId,
      },
    });
    expect(wrongOld.json.code).toBe(0);
    const changed = await call(sim, 'PUT', '/User/ChangePassword', {
      token,
      body: {
        oldPassword: 'Awal#2026!',
        newPassword: 'Baru#20261',
        confirmNewPassword: 'Baru#20261',
        userId: user.wbsUserId,
      },
    });
    expect(changed.json.code).toBe(1);
    expect((await call(sim, 'GET', '/UserRole', { token })).status).toBe(200);
    const relog = await call(sim, 'POST', '/JwtAuth/Login', {
      body: { userName: 'analis.baru', password: 'Baru#20261' },
    });
    expect(relog.json.data.companyStaffWbsUser.wbsUserInitPassword).toBe(0);
    await sim.reset();
  });

  it('leaves the public calls open', async () => {
    for (const path of [
      '/Province',
      '/city/32',
      '/district/3201',
      '/unit/getdirectorate',
      '/unit/getdivision/1',
      '/channel',
      '/CaseStatus',
      '/CaseStatus/1',
      '/CaseStatus/Open',
      '/CaseStatus/Open/1',
    ]) {
      const reply = await call(sim, 'GET', path);
      expect(reply.status, path).toBe(200);
      expect(reply.json.code, path).toBe(1);
    }
  });
});

describe('users', () => {
  it('ForgotPassword leaks unknown e-mails like the legacy', async () => {
    const known = await call(sim, 'PUT', '/User/ForgotPassword', { body: { email: 'admin@wbs.example.id' } });
    expect(known.json).toEqual({
      code: 1,
      message: ['Silakan periksa email Anda untuk mengatur ulang kata sandi'],
      data: null,
    });
    const unknown = await call(sim, 'PUT', '/User/ForgotPassword', { body: { email: 'x@y.example' } });
    expect(unknown.json).toEqual({ code: 0, message: ['Email tidak terdaftar'], data: null });
  });

  it('ResetPassword sets an initial password shown in the staff detail', async () => {
    const { token } = await login(sim, 'holding');
    const detail = await call(sim, 'POST', '/PartnerStaffMaster/Detail', {
      token,
      body: { partnerStaffId: 2, partnerId: 1 },
    });
    const userId = detail.json.data.partnerStaffWbsUser.wbsUserId;
    expect(detail.json.data.partnerStaffWbsUser.wbsUserPassword).toBeNull();
    const reset = await call(sim, 'PUT', `/User/ResetPassword/${userId}`, { token });
    expect(reset.json.code).toBe(1);
    const again = await call(sim, 'POST', '/PartnerStaffMaster/Detail', {
      token,
      body: { partnerStaffId: 2, partnerId: 1 },
    });
    expect(again.json.data.partnerStaffWbsUser.wbsUserInitPassword).toBe(1);
    const password = again.json.data.partnerStaffWbsUser.wbsUserPassword;
    expect(password).toBe(reset.json.message[1]);
    const relog = await call(sim, 'POST', '/JwtAuth/Login', {
      body: { userName: 'staff.holding2', password },
    });
    expect(relog.json.data.partnerStaffWbsUser.wbsUserInitPassword).toBe(1);
    await sim.reset();
  });

  it('UserRole and WhistleblowerMaster', async () => {
    const { token, user } = await login(sim, 'pelapor');
    expect((await call(sim, 'GET', '/UserRole', { token })).json.data).toEqual([
      { id: 1, text: 'Supervisor' },
      { id: 2, text: 'Staff' },
    ]);
    const ids = {
      whistleblowerId: user.whistleblowerId,
      whistleblowerCompanyId: user.whistleblowerCompanyId,
    };
    const detail = await call(sim, 'POST', '/WhistleblowerMaster/Detail', { token, body: ids });
    expect(detail.json.data).toMatchObject({
      whistleblowerFullName: 'Rahmat Hidayat',
      whistleblowerIsAnonymousBool: false,
    });
    const empty = await call(sim, 'PUT', '/WhistleblowerMaster', {
      token,
      body: { ...ids, whistleblowerFullName: '', isAnonymous: true },
    });
    expect(empty.json).toEqual({ code: 0, message: ['Username wajib diisi'], data: null });
    const saved = await call(sim, 'PUT', '/WhistleblowerMaster', {
      token,
      body: { ...ids, whistleblowerFullName: 'R. Hidayat', isAnonymous: true },
    });
    expect(saved.json.code).toBe(1);
    const after = await call(sim, 'POST', '/WhistleblowerMaster/Detail', { token, body: ids });
    expect(after.json.data).toMatchObject({
      whistleblowerFullName: 'R. Hidayat',
      whistleblowerIsAnonymousBool: true,
    });
  });

  it('does not enforce scopes: a whistleblower token reads partner data', async () => {
    const { token } = await login(sim, 'pelapor');
    expect((await call(sim, 'GET', '/PartnerMaster/1', { token })).json.code).toBe(1);
  });
});
