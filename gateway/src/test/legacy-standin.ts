/**
 * A small stand-in of the legacy WBS API for the gateway's tests, used only while
 * `@wbs/legacy-sim` (scripts/legacy-sim) is not available. Same factory shape as legacy-sim:
 * `{ url, close, setKnobs, reset }` and `demoAccounts`. Real HTTP on loopback, in memory.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Knobs = { down?: boolean; hang?: boolean; malformed?: boolean; status500?: boolean };

export const DEMO_PASSWORD = 'Password123!';
export const demoAccounts = [
  { userTypeId: 1, username: 'admin', password: DEMO_PASSWORD },
  { userTypeId: 2, username: 'companyadmin', password: DEMO_PASSWORD },
  { userTypeId: 3, username: 'partner', password: DEMO_PASSWORD },
  { userTypeId: 4, username: 'analyst', password: DEMO_PASSWORD },
  { userTypeId: 5, username: 'partnerstaff', password: DEMO_PASSWORD },
  { userTypeId: 6, username: 'pelapor', password: DEMO_PASSWORD },
] as const;

type UserRow = {
  wbsUserId: number;
  wbsUserName: string;
  wbsUserEmail: string;
  password: string;
  wbsUserUserTypeId: number;
  wbsUserRole: number;
  wbsUserInitPassword: number;
  partnerId: number;
  partnerStaffPartnerId: number;
  companyId: number;
  companyStaffCompanyId: number;
  whistleblowerId: number;
  whistleblowerCompanyId: number;
  partnerStaffId?: number;
  companyStaffId?: number;
  companyStaffCaseLineId?: number;
};

const TYPE_NAMES = [
  '',
  'Administrator',
  'Admin Perusahaan',
  'Partner',
  'Staff Perusahaan',
  'Staff Partner',
  'Pelapor',
];
const SUB_OBJECT = [
  '',
  '',
  'companyWbsUser',
  'partnerWbsUser',
  'companyStaffWbsUser',
  'partnerStaffWbsUser',
  'whistleblowerWbsUser',
];

function seed() {
  const base = {
    wbsUserRole: 2,
    wbsUserInitPassword: 0,
    partnerId: 0,
    partnerStaffPartnerId: 0,
    companyId: 0,
    companyStaffCompanyId: 0,
    whistleblowerId: 0,
    whistleblowerCompanyId: 0,
    password: DEMO_PASSWORD,
  };
  const users: UserRow[] = [
    { ...base, wbsUserId: 1, wbsUserName: 'admin', wbsUserEmail: 'admin@wbs.test', wbsUserUserTypeId: 1 },
    {
      ...base,
      wbsUserId: 2,
      wbsUserName: 'companyadmin',
      wbsUserEmail: 'ca@wbs.test',
      wbsUserUserTypeId: 2,
      companyId: 1,
    },
    {
      ...base,
      wbsUserId: 3,
      wbsUserName: 'partner',
      wbsUserEmail: 'p@wbs.test',
      wbsUserUserTypeId: 3,
      partnerId: 1,
    },
    {
      ...base,
      wbsUserId: 4,
      wbsUserName: 'analyst',
      wbsUserEmail: 'an@wbs.test',
      wbsUserUserTypeId: 4,
      wbsUserRole: 1,
      companyStaffCompanyId: 1,
      companyStaffId: 1,
      companyStaffCaseLineId: 1,
    },
    {
      ...base,
      wbsUserId: 5,
      wbsUserName: 'partnerstaff',
      wbsUserEmail: 'ps@wbs.test',
      wbsUserUserTypeId: 5,
      partnerStaffPartnerId: 1,
      partnerStaffId: 1,
    },
    {
      ...base,
      wbsUserId: 6,
      wbsUserName: 'pelapor',
      wbsUserEmail: 'wb@wbs.test',
      wbsUserUserTypeId: 6,
      whistleblowerId: 1,
      whistleblowerCompanyId: 1,
    },
    {
      ...base,
      wbsUserId: 7,
      wbsUserName: 'newstaff',
      wbsUserEmail: 'new@wbs.test',
      wbsUserUserTypeId: 5,
      partnerStaffPartnerId: 1,
      partnerStaffId: 2,
      wbsUserInitPassword: 1,
      password: 'Initial123',
    },
    {
      ...base,
      wbsUserId: 8,
      wbsUserName: 'otherstaff',
      wbsUserEmail: 'os@wbs.test',
      wbsUserUserTypeId: 5,
      partnerStaffPartnerId: 2,
      partnerStaffId: 3,
    },
    {
      ...base,
      wbsUserId: 9,
      wbsUserName: 'otheranalyst',
      wbsUserEmail: 'oa@wbs.test',
      wbsUserUserTypeId: 4,
      companyStaffCompanyId: 3,
      companyStaffId: 2,
      companyStaffCaseLineId: 1,
    },
  ];
  const partners = [
    {
      partnerId: 1,
      partnerCode: 'P001',
      partnerName: 'Partner Satu',
      partnerPhone: '0211',
      partnerAddress: 'Jl. Satu',
      partnerProvinceId: 31,
      partnerCityId: 3171,
      partnerProvince: { provinceName: 'DKI Jakarta' },
      partnerCity: { cityName: 'Jakarta Selatan' },
      partnerWbsUser: { wbsUserName: 'partner', wbsUserEmail: 'p@wbs.test' },
    },
    {
      partnerId: 2,
      partnerCode: 'P002',
      partnerName: 'Partner Dua',
      partnerPhone: '0212',
      partnerAddress: 'Jl. Dua',
      partnerProvinceId: 31,
      partnerCityId: 3171,
      partnerProvince: { provinceName: 'DKI Jakarta' },
      partnerCity: { cityName: 'Jakarta Selatan' },
      partnerWbsUser: null,
    },
  ];
  const companies = [1, 2, 3].map((id) => ({
    companyId: id,
    companyCode: `C00${id}`,
    companyName: `Perusahaan ${id}`,
    companyPhone: '021',
    companyAddress: 'Jl.',
    companyProvinceId: 31,
    companyCityId: 3171,
    companyProvince: { provinceName: 'DKI Jakarta' },
    companyCity: { cityName: 'Jakarta Selatan' },
    companyPartnerId: id === 3 ? 2 : 1,
    companyPartner: { partnerName: id === 3 ? 'Partner Dua' : 'Partner Satu' },
    companyWbsUser: null,
  }));
  return { users, partners, companies, nextId: 100 };
}

const fakeJwt = (userId: number, ttlSeconds: number) => {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: String(userId), exp: Math.floor(Date.now() / 1000) + ttlSeconds, n: Math.random() })}.sig`;
};

export async function createLegacyStandIn(options: { tokenTtlSeconds?: number } = {}) {
  let db = seed();
  let knobs: Knobs = {};
  const tokens = new Map<string, number>();
  const ok = (data: unknown, message: string[] = ['Berhasil']) => ({ code: 1, message, data });
  const fail = (message: string) => ({ code: -1, message: [message], data: null });

  const userRecord = (u: UserRow) => {
    const { password: _p, ...rest } = u;
    return { ...rest, wbsUserUserType: { userTypeName: TYPE_NAMES[u.wbsUserUserTypeId] } };
  };
  const staffRow = (u: UserRow) => ({
    partnerStaffId: u.partnerStaffId,
    partnerStaffPartnerId: u.partnerStaffPartnerId,
    partnerStaffFullName: `Staff ${u.wbsUserName}`,
    partnerStaffWbsUser: {
      wbsUserId: u.wbsUserId,
      wbsUserName: u.wbsUserName,
      wbsUserEmail: u.wbsUserEmail,
      wbsUserRole: u.wbsUserRole,
      wbsUserRoleText: 'User',
      wbsUserPassword: u.wbsUserInitPassword ? u.password : null,
      wbsUserInitPassword: u.wbsUserInitPassword,
    },
  });
  const analystRow = (u: UserRow) => ({
    companyStaffId: u.companyStaffId,
    companyStaffCompanyId: u.companyStaffCompanyId,
    companyStaffFullName: `Analis ${u.wbsUserName}`,
    companyStaffCaseLineId: u.companyStaffCaseLineId,
    companyStaffCaseLine: { caseLineName: 'Jalur 1' },
    companyStaffWbsUser: {
      wbsUserId: u.wbsUserId,
      wbsUserName: u.wbsUserName,
      wbsUserEmail: u.wbsUserEmail,
      wbsUserRole: u.wbsUserRole,
      wbsUserRoleText: 'User',
      wbsUserPassword: null,
      wbsUserInitPassword: u.wbsUserInitPassword,
    },
  });
  const table = (rows: unknown[], q: URLSearchParams) => {
    const start = Number(q.get('start') ?? 0);
    const length = Number(q.get('length') ?? 10);
    return {
      code: 1,
      message: [],
      data: rows.slice(start, start + length),
      draw: 1,
      recordsTotal: rows.length,
      recordsFiltered: rows.length,
    };
  };

  async function handle(
    method: string,
    path: string,
    q: URLSearchParams,
    body: Record<string, unknown>,
    auth: number | null,
  ): Promise<[number, unknown]> {
    const need = () => auth !== null;
    if (method === 'POST' && path === '/JwtAuth/Login') {
      const u = db.users.find((x) => x.wbsUserName === body.userName && x.password === body.password);
      if (!u) return [200, fail('Username atau password salah')];
      const token = fakeJwt(u.wbsUserId, options.tokenTtlSeconds ?? 3600);
      tokens.set(token, u.wbsUserId);
      if (u.wbsUserUserTypeId === 1) return [200, ok({ token, wbsUser: userRecord(u) })];
      return [200, ok({ [SUB_OBJECT[u.wbsUserUserTypeId]!]: { ...userRecord(u), token } })];
    }
    if (method === 'PUT' && path === '/User/ForgotPassword') {
      return db.users.some((u) => u.wbsUserEmail === body.email)
        ? [200, ok(null, ['Email terkirim'])]
        : [200, fail('Email tidak terdaftar')];
    }
    if (method === 'GET' && path === '/channel/')
      return [200, ok([{ channelId: 1, channelName: 'Desktop' }])];
    if (method === 'GET' && path === '/Province')
      return [200, ok([{ provinceId: 31, provinceName: 'DKI Jakarta' }])];
    if (method === 'GET' && /^\/city\/\d+$/.test(path))
      return [200, ok([{ cityId: 3171, cityName: 'Jakarta Selatan' }])];
    if (method === 'GET' && /^\/district\/\d+$/.test(path))
      return [200, ok([{ districtId: 317101, districtName: 'Kebayoran Baru' }])];
    if (method === 'GET' && path === '/unit/getdirectorate/')
      return [200, ok([{ id: 1, name: 'Direktorat Umum' }])];
    if (method === 'GET' && /^\/unit\/getdivision\/\d+$/.test(path))
      return [200, ok([{ id: 1, name: 'Divisi SDM' }])];
    if (method === 'GET' && path === '/CaseStatus')
      return [
        200,
        ok([
          { caseStatusId: 2, caseStatusName: 'Proses', caseStatusOrder: 2 },
          { caseStatusId: 1, caseStatusName: 'Baru', caseStatusOrder: 1 },
        ]),
      ];
    if (method === 'POST' && path === '/CaseCategory/GetAll')
      return [
        200,
        ok([
          {
            caseCategoryId: 1,
            caseCategoryName: 'Korupsi',
            caseCategoryCaseCategoryGroupId: 0,
            caseCategoryGroup: null,
          },
        ]),
      ];
    if (method === 'POST' && path === '/CaseCategoryGroup/GetAll') return [200, ok([])];
    if (!need()) return [401, { message: 'Unauthorized' }];
    const me = db.users.find((u) => u.wbsUserId === auth)!;
    if (method === 'POST' && path === '/JwtAuth/Logout') return [200, ok(null, ['Logged Out'])];
    if (method === 'PUT' && path === '/User/ChangePassword') {
      if (body.oldPassword !== me.password) return [200, fail('Kata sandi lama salah')];
      me.password = String(body.newPassword);
      me.wbsUserInitPassword = 0;
      return [200, ok(null, ['Kata sandi berhasil diubah'])];
    }
    const reset = path.match(/^\/User\/ResetPassword\/(\d+)$/);
    if (method === 'PUT' && reset) {
      const u = db.users.find((x) => x.wbsUserId === Number(reset[1]));
      if (!u) return [200, fail('User tidak ditemukan')];
      u.wbsUserInitPassword = 1;
      u.password = 'Reset12345';
      return [200, ok(null, ['Password berhasil direset'])];
    }
    if (method === 'GET' && path === '/PartnerMaster') return [200, table(db.partners, q)];
    if (method === 'GET' && path === '/PartnerMaster/Dropdown')
      return [200, ok(db.partners.map((p) => ({ partnerId: p.partnerId, partnerName: p.partnerName })))];
    const pm = path.match(/^\/PartnerMaster\/(\d+)$/);
    if (method === 'GET' && pm) {
      const p = db.partners.find((x) => x.partnerId === Number(pm[1]));
      return p ? [200, ok(p)] : [200, fail('Data tidak ditemukan')];
    }
    if (method === 'POST' && path === '/PartnerMaster') {
      const id = db.nextId++;
      db.partners.push({
        ...db.partners[0]!,
        partnerId: id,
        partnerCode: `P${id}`,
        partnerName: String(body.partnerName),
      });
      return [200, ok(null, ['Partner berhasil disimpan'])];
    }
    if (method === 'GET' && path === '/CompanyMaster') return [200, table(db.companies, q)];
    const cd = path.match(/^\/CompanyMaster\/Dropdown\/(\d+)$/);
    if (method === 'GET' && cd) {
      const pid = Number(cd[1]);
      return [
        200,
        ok(
          db.companies
            .filter((c) => pid === 0 || c.companyPartnerId === pid)
            .map((c) => ({ companyId: c.companyId, companyName: c.companyName })),
        ),
      ];
    }
    const ps = path.match(/^\/PartnerStaffMaster\/(\d+)$/);
    if (method === 'GET' && ps)
      return [
        200,
        table(
          db.users.filter((u) => u.partnerStaffId && u.partnerStaffPartnerId === Number(ps[1])).map(staffRow),
          q,
        ),
      ];
    if (method === 'POST' && path === '/PartnerStaffMaster/Detail') {
      // Like many legacy APIs, it does not check partnerId: the gateway must.
      const u = db.users.find((x) => x.partnerStaffId === body.partnerStaffId);
      return u ? [200, ok(staffRow(u))] : [200, fail('Data tidak ditemukan')];
    }
    if (method === 'DELETE' && path === '/PartnerStaffMaster') {
      db.users = db.users.filter((x) => x.partnerStaffId !== body.partnerStaffId);
      return [200, ok(null, ['Staff berhasil dihapus'])];
    }
    if (method === 'POST' && path === '/CompanyStaffMaster/GetAll')
      return [
        200,
        table(
          db.users
            .filter((u) => u.companyStaffId && u.companyStaffCompanyId === body.companyId)
            .map(analystRow),
          q,
        ),
      ];
    if (method === 'POST' && path === '/CompanyStaffMaster/detail') {
      const u = db.users.find((x) => x.companyStaffId === body.companyStaffId);
      return u ? [200, ok(analystRow(u))] : [200, fail('Data tidak ditemukan')];
    }
    if (method === 'POST' && path === '/WhistleblowerMaster/Detail')
      return [
        200,
        ok({
          whistleblowerId: 1,
          whistleblowerFullName: 'Pelapor Satu',
          whistleblowerIsAnonymousBool: false,
        }),
      ];
    return [404, { message: 'Not Found' }];
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (knobs.down) return req.socket.destroy();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (knobs.hang) return; // never answers
      if (knobs.status500) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('System.NullReferenceException at Wbs.Api');
        return;
      }
      if (knobs.malformed) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":1,"message":[');
        return;
      }
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname.replace(/^\/api/, '');
      const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      const auth = tokens.get(bearer) ?? null;
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        body = {};
      }
      const [status, payload] = await handle(req.method ?? 'GET', path, url.searchParams, body, auth);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    setKnobs(next: Knobs) {
      knobs = { ...next };
    },
    reset() {
      db = seed();
      knobs = {};
      tokens.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
