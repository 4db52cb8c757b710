/**
 * Development stand-in for the gateway contract (docs/api-contract.md), for looking at the built app
 * in a browser before the real gateway runs: serves web/dist and a canned /api/v1.
 * Usage: pnpm exec node web/scripts/mock-gateway.ts [port]   (default 8091)
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';

const port = Number(process.argv[2] ?? 8091);
const dist = join(import.meta.dirname, '..', 'dist');
const P = 'https://wbs.example/problems/';

type User = Record<string, unknown> & { userTypeId: number; username: string };
const USERS: Record<string, User> = {
  admin2: {
    id: 2,
    username: 'admin2',
    email: 'a@x.id',
    displayName: 'Admin Perusahaan',
    userTypeId: 2,
    userTypeName: 'Admin Perusahaan',
    role: 2,
    partnerId: null,
    companyId: 1,
    caseLineId: null,
    whistleblowerId: null,
    staffId: null,
  },
  partner3: {
    id: 3,
    username: 'partner3',
    email: 'p@x.id',
    displayName: 'Partner Satu',
    userTypeId: 3,
    userTypeName: 'Partner',
    role: 2,
    partnerId: 1,
    companyId: null,
    caseLineId: null,
    whistleblowerId: null,
    staffId: null,
  },
  pelapor6: {
    id: 6,
    username: 'pelapor6',
    email: 'w@x.id',
    displayName: 'Pelapor',
    userTypeId: 6,
    userTypeName: 'Pelapor',
    role: 2,
    partnerId: null,
    companyId: 1,
    caseLineId: null,
    whistleblowerId: 9,
    staffId: null,
  },
};
USERS.admin1 = {
  ...USERS.admin2,
  id: 1,
  username: 'admin1',
  displayName: 'Administrator',
  userTypeId: 1,
  userTypeName: 'Administrator',
  companyId: null,
};
let pendingChange: string | null = null;

const tables: Record<string, Record<string, unknown>[]> = {
  '/partners': [
    {
      id: 1,
      code: 'P01',
      name: 'Partner Satu',
      phone: '0211',
      address: 'Jl. A',
      provinceId: 31,
      provinceName: 'DKI Jakarta',
      cityId: 3171,
      cityName: 'Jakarta Pusat',
      username: 'partner3',
      email: 'p@x.id',
    },
  ],
  '/companies': [
    {
      id: 1,
      code: 'C01',
      name: 'PT Air Bersih',
      phone: '0212',
      address: 'Jl. B',
      provinceId: 31,
      provinceName: 'DKI Jakarta',
      cityId: 3171,
      cityName: 'Jakarta Pusat',
      partnerId: null,
      partnerName: null,
      username: 'admin2',
      email: 'a@x.id',
    },
  ],
  '/partner-staff': [
    {
      id: 1,
      fullName: 'Sari',
      username: 'sari',
      email: 's@x.id',
      roleId: 1,
      roleName: 'Admin',
      initialPassword: true,
      password: 'Awal1234',
    },
  ],
  '/analysts': [
    {
      id: 1,
      fullName: 'Andi',
      username: 'andi',
      email: 'andi@x.id',
      roleId: 2,
      roleName: 'Staff',
      initialPassword: false,
      password: null,
      caseLineId: 1,
      caseLineName: 'Jalur SPI',
    },
  ],
};
let profile = { fullName: 'Pelapor Enam', hideIdentity: false };

async function crud(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const m = req.method ?? 'GET';
  const [bare = '', query = ''] = path.split('?');
  for (const [root, rows] of Object.entries(tables)) {
    if (bare === `${root}/options`)
      return send(res, 200, items(rows.map((r) => ({ id: r.id, name: r.name }))));
    if (bare === root && m === 'GET') {
      const q = new URLSearchParams(query);
      const page = Number(q.get('page') ?? 1);
      const size = Number(q.get('pageSize') ?? 10);
      return send(res, 200, {
        items: rows.slice((page - 1) * size, page * size),
        total: rows.length,
        page,
        pageSize: size,
      });
    }
    if (bare === root && m === 'POST') {
      const input = JSON.parse((await body(req)).toString() || '{}');
      rows.push({
        ...input,
        id: rows.length + 1,
        code: `X${rows.length + 1}`,
        initialPassword: true,
        password: 'Awal1234',
      });
      return send(res, 201, { message: 'Data berhasil disimpan' });
    }
    const r = new RegExp(`^${root}/(\\d+)(/password-reset)?$`).exec(bare);
    if (r) {
      const row = rows.find((x) => x.id === Number(r[1]));
      if (!row) return problem(res, 404, 'not-found');
      if (r[2]) return send(res, 200, { message: 'Password berhasil direset' });
      if (m === 'GET') return send(res, 200, row);
      if (m === 'PUT') {
        Object.assign(row, JSON.parse((await body(req)).toString() || '{}'));
        return send(res, 200, { message: 'Data berhasil diubah' });
      }
      if (m === 'DELETE') {
        rows.splice(rows.indexOf(row), 1);
        return send(res, 200, { message: 'Data berhasil dihapus' });
      }
    }
  }
  if (bare === '/profile' && m === 'GET') return send(res, 200, profile);
  if (bare === '/profile' && m === 'PUT') {
    profile = JSON.parse((await body(req)).toString() || '{}');
    return send(res, 200, { message: 'Profil berhasil disimpan' });
  }
  if (bare === '/user-roles')
    return send(
      res,
      200,
      items([
        { id: 1, name: 'Admin' },
        { id: 2, name: 'Staff' },
      ]),
    );
  if (bare === '/case-category-groups') return send(res, 200, items([{ id: 1, name: 'Korupsi' }]));
  return false;
}

const statuses = [
  { id: 1, name: 'Baru', order: 1 },
  { id: 11, name: 'Verifikasi', order: 1.5 },
  { id: 2, name: 'Diproses', order: 2 },
  { id: 3, name: 'Investigasi', order: 3 },
  { id: 12, name: 'Ditolak', order: 3.2 },
  { id: 5, name: 'Selesai', order: 5 },
];
const detail = (noteHidden: boolean) => ({
  id: 42,
  number: 'WBS-00000042',
  createdAt: '2026-11-20T09:30:00',
  companyId: 1,
  companyName: 'PT Air Bersih',
  categoryId: 3,
  categoryName: 'Gratifikasi',
  caseLineId: 1,
  caseLineName: 'Jalur SPI',
  channelName: 'Desktop',
  status: { id: 2, name: 'Diproses', order: 2 },
  reporter: {
    anonymous: false,
    type: 1,
    name: 'Budi Santoso',
    department: 'Keuangan',
    email: 'budi@example.com',
    phone: '08123456789',
    address: 'Jl. Merdeka 1',
    provinceName: 'DKI Jakarta',
    cityName: 'Jakarta Pusat',
    districtName: 'Gambir',
  },
  communication: { types: [0, 2], time: 'Hari kerja 09.00–17.00' },
  report: {
    what: 'Penerimaan hadiah dari vendor',
    where: 'Kantor pusat',
    when: 'Oktober 2026',
    perpetrator: 'X, Manajer Pengadaan',
    directorate: 'Keuangan',
    division: 'Pengadaan',
    how: 'Vendor memberikan voucher',
    involved: '',
    financialLoss: 'Rp 50 juta',
    occurredBefore: '',
    reportedToBefore: '',
    perpetratorResponse: '',
    repeatReason: '',
    identificationReason: 'Melihat langsung',
    needsProtection: true,
    protectionReason: 'Takut dimutasi',
  },
  evidenceLink: 'https://example.com/bukti',
  attachments: [{ id: 1, name: 'bukti.pdf' }],
  allegedlyInvolved: [{ name: 'Y', position: 'Staf', description: 'Unit Pengadaan' }],
  logs: [
    {
      id: 1,
      createdAt: '2026-11-20T09:30:00',
      statusName: 'Baru',
      message: noteHidden ? '**********' : 'Laporan diterima',
      noteHidden,
      createdBy: noteHidden ? null : 'sistem',
      attachmentName: null,
    },
    {
      id: 2,
      createdAt: '2026-11-21T10:00:00',
      statusName: 'Diproses',
      message: noteHidden ? '**********' : 'Diteruskan ke SPI',
      noteHidden,
      createdBy: noteHidden ? null : 'admin2',
      attachmentName: noteHidden ? null : 'memo.pdf',
    },
  ],
  noteHidden,
});

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  const problem = status >= 400;
  res.writeHead(status, {
    'content-type': problem ? 'application/problem+json' : 'application/json',
    ...headers,
  });
  res.end(body === undefined ? undefined : JSON.stringify(body));
  return true as const;
}
const problem = (res: ServerResponse, status: number, type: string, extra: Record<string, unknown> = {}) =>
  send(res, status, {
    type: P + type,
    title: type,
    status,
    detail: (extra.detail as string) ?? type,
    ...extra,
  });

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
const sessionUser = (req: IncomingMessage) => {
  const name = /mock_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  return name ? USERS[name] : undefined;
};
const items = (list: unknown[]) => ({ items: list });

async function api(req: IncomingMessage, res: ServerResponse, path: string) {
  const m = req.method ?? 'GET';
  const user = sessionUser(req);
  if (path === '/session' && m === 'GET')
    return user ? send(res, 200, { user }) : problem(res, 401, 'unauthorized');
  if (path === '/session' && m === 'POST') {
    const { username, password } = JSON.parse((await body(req)).toString() || '{}');
    if (username === 'initial') {
      pendingChange = 'admin2';
      return send(res, 200, { passwordChangeRequired: true });
    }
    if (!USERS[username] || password !== 'rahasia123')
      return problem(res, 422, 'legacy-warning', {
        severity: 'warning',
        messages: ['Username atau kata sandi salah'],
      });
    return send(
      res,
      200,
      { user: USERS[username] },
      { 'set-cookie': `mock_session=${username}; Path=/; HttpOnly; SameSite=Strict` },
    );
  }
  if (path === '/session' && m === 'DELETE') {
    res.writeHead(204, { 'set-cookie': 'mock_session=; Path=/; Max-Age=0' });
    return res.end();
  }
  if (path === '/password' && m === 'PUT') {
    const name = user?.username ?? pendingChange;
    if (!name) return problem(res, 401, 'unauthorized');
    pendingChange = null;
    return send(
      res,
      200,
      { message: 'Kata sandi berhasil diubah', user: USERS[name] },
      { 'set-cookie': `mock_session=${name}; Path=/; HttpOnly` },
    );
  }
  if (path === '/password/forgot')
    return send(res, 200, {
      message: 'Jika email terdaftar, tautan untuk mengatur ulang kata sandi telah dikirim',
    });
  if (path === '/regions/provinces')
    return send(
      res,
      200,
      items([
        { id: 31, name: 'DKI Jakarta' },
        { id: 32, name: 'Jawa Barat' },
      ]),
    );
  let r = /^\/regions\/provinces\/(\d+)\/cities$/.exec(path);
  if (r)
    return send(
      res,
      200,
      items(r[1] === '31' ? [{ id: 3171, name: 'Jakarta Pusat' }] : [{ id: 3273, name: 'Kota Bandung' }]),
    );
  r = /^\/regions\/cities\/(\d+)\/districts$/.exec(path);
  if (r)
    return send(
      res,
      200,
      items([
        { id: Number(r[1]) * 100 + 1, name: 'Kecamatan Satu' },
        { id: Number(r[1]) * 100 + 2, name: 'Kecamatan Dua' },
      ]),
    );
  if (path === '/channels')
    return send(
      res,
      200,
      items([
        { id: 1, name: 'Desktop' },
        { id: 2, name: 'Email' },
        { id: 3, name: 'Telepon' },
        { id: 4, name: 'WhatsApp' },
      ]),
    );
  if (path === '/case-lines')
    return send(
      res,
      200,
      items([
        { id: 1, name: 'Jalur SPI' },
        { id: 2, name: 'Jalur Direksi' },
      ]),
    );
  if (path === '/case-statuses') return send(res, 200, items(statuses));
  if (path.startsWith('/case-categories'))
    return send(
      res,
      200,
      items([
        { id: 3, name: 'Gratifikasi', groupId: 1, groupName: 'Korupsi' },
        { id: 4, name: 'Suap', groupId: 1, groupName: 'Korupsi' },
        { id: 5, name: 'Pelanggaran Kode Etik', groupId: null, groupName: null },
      ]),
    );
  if (path === '/companies/options')
    return send(
      res,
      200,
      items([
        { id: 1, name: 'PT Air Bersih' },
        { id: 2, name: 'PT Tirta' },
      ]),
    );
  if (path === '/cases' && m === 'POST') {
    const raw = await body(req);
    const key = req.headers['idempotency-key'];
    console.log(`POST /cases ${raw.length} bytes, Idempotency-Key ${key}`);
    if (raw.includes(Buffer.from('name="what"\r\n\r\nGAGAL')))
      return problem(res, 503, 'legacy-unavailable', {
        detail: 'Layanan sedang tidak dapat dihubungi, silakan coba beberapa saat lagi',
      });
    return send(res, 201, { message: 'Pengaduan berhasil disimpan', caseNumber: 'WBS-00000042' });
  }
  if (path === '/tracking' && m === 'POST') {
    const { caseNumber, password } = JSON.parse((await body(req)).toString() || '{}');
    if (caseNumber === 'WBS-00000042' && password === 'rahasia123') return send(res, 200, detail(true));
    return problem(res, 422, 'legacy-warning', {
      severity: 'warning',
      messages: ['Nomor Pengaduan atau kata sandi tidak sesuai'],
    });
  }
  if (!user)
    return problem(res, 401, 'unauthorized', { detail: 'Sesi Anda telah berakhir, silakan masuk kembali' });
  if (await crud(req, res, path)) return;
  if (path.startsWith('/cases?') || path === '/cases') {
    const list = Array.from({ length: 23 }, (_, i) => ({
      id: 42 + i,
      number: `WBS-${String(42 + i).padStart(8, '0')}`,
      createdAt: `2026-11-${String(1 + (i % 20)).padStart(2, '0')}T08:00:00`,
      companyId: 1,
      companyName: 'PT Air Bersih',
      categoryName: i % 2 ? 'Suap' : 'Gratifikasi',
      caseLineName: 'Jalur SPI',
      status: statuses[i % statuses.length],
    }));
    const q = new URLSearchParams(path.split('?')[1]);
    const page = Number(q.get('page') ?? 1);
    const size = Number(q.get('pageSize') ?? 10);
    return send(res, 200, {
      items: list.slice((page - 1) * size, page * size),
      total: list.length,
      page,
      pageSize: size,
    });
  }
  r = /^\/cases\/(\d+)$/.exec(path);
  if (r) return send(res, 200, { ...detail(user.userTypeId === 6), id: Number(r[1]) });
  if (/^\/cases\/\d+\/logs$/.test(path) && m === 'POST') {
    await body(req);
    return send(res, 200, { message: 'Catatan aktivitas berhasil disimpan' });
  }
  return problem(res, 404, 'not-found');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/api/v1/')) {
    void api(req, res, url.slice('/api/v1'.length)).catch((e) =>
      problem(res, 500, 'internal', { detail: String(e) }),
    );
    return;
  }
  let file = join(dist, normalize(url.split('?')[0] ?? '/'));
  try {
    if (!statSync(file).isFile()) file = join(dist, 'index.html');
  } catch {
    file = join(dist, 'index.html');
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
}).listen(port, '127.0.0.1', () => console.log(`mock gateway on http://127.0.0.1:${port}`));
