/** Test helpers: a sim on a random port, JSON calls, logins. */
import { createHmac } from 'node:crypto';
import { createLegacySim, type LegacySim, type LegacySimOptions } from '../index.ts';
import { demoAccounts } from '../seed/demo-accounts.ts';

export const JWT_SECRET = 'test-secret-for-legacy-sim-0123456789';

export async function startSim(options: LegacySimOptions = {}): Promise<LegacySim> {
  return createLegacySim({ dataDir: null, jwtSecret: JWT_SECRET, testKnobs: true, ...options });
}

// biome-ignore lint/suspicious/noExplicitAny: test replies are inspected loosely
export type Json = any;
export type Reply = { status: number; json: Json; headers: Headers };

export async function call(
  sim: LegacySim,
  method: string,
  path: string,
  options: { body?: unknown; token?: string | null; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${sim.apiUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

export function account(username: string) {
  const found = demoAccounts.find((a) => a.username === username);
  if (!found) throw new Error(`no demo account ${username}`);
  return found;
}

/** Logs in a demo account and returns its token and user record. */
export async function login(sim: LegacySim, username: string): Promise<{ token: string; user: Json }> {
  const reply = await call(sim, 'POST', '/JwtAuth/Login', {
    body: { userName: username, password: account(username).password },
  });
  if (reply.json.code !== 1) throw new Error(`login ${username} failed: ${JSON.stringify(reply.json)}`);
  const data = reply.json.data;
  if (data.token) return { token: data.token, user: data.wbsUser };
  const sub = Object.values(data)[0] as Json;
  const { token, ...user } = sub;
  return { token, user };
}

/** An HS256 JWT signed with the test secret (for expired-token tests). */
export function signJwt(claims: Record<string, unknown>, secret = JWT_SECRET): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Valid wizard fields (identified reporter) as multipart text parts. */
export function caseForm(overrides: Record<string, string> = {}): FormData {
  const fields: Record<string, string> = {
    caseAnonym: '0',
    caseWhistleblowerIsAnonym: '0',
    caseCompanyId: '1',
    caseChannelId: '1',
    caseCaseStatusId: '1',
    caseCaseCategoryId: '1',
    caseCaseCategoryGroupId: '1',
    caseWhistleblowerName: 'Andi Saksi',
    caseWhistleblowerDept: 'Divisi Distribusi',
    caseWhistleblowerEmail: 'andi@mail.example.id',
    caseWhistleblowerContactNum: '+6281234567',
    caseWhistleblowerAddress: 'Jl. Mawar No. 1',
    caseWhistleblowerProvinceId: '32',
    caseWhistleblowerCityId: '3201',
    caseWhistleblowerDistrictId: '320101',
    caseWhistleblowerType: '1',
    caseWhistleblowerCommunicationType: '0,2',
    caseWhistleblowerCommunicationTime: 'Pagi',
    caseWhat: 'Pengadaan pipa di atas harga pasar',
    caseWhen: 'Januari',
    caseWhere: 'Kantor Pusat',
    caseWhoPerpetratorAndPosition: 'Budi, Kepala Seksi',
    caseWhatDirectorate: 'Direktorat Teknik',
    caseWhatDivision: 'Divisi Distribusi',
    caseHow: 'Harga dinaikkan',
    caseIsReporterNeedProtection: '1',
    caseEvidenceLink: '',
    allegedlyinvolveds: JSON.stringify([
      {
        allegedlyInvolvedName: 'Budi',
        allegedlyInvolvedPosition: 'Kepala Seksi',
        allegedlyInvolvedDescription: 'Pengadaan',
      },
    ]),
    ...overrides,
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export function addFile(
  form: FormData,
  field: string,
  name: string,
  bytes: Uint8Array,
  type = 'application/octet-stream',
) {
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
}
