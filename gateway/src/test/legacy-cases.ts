/**
 * Changing cases at legacy-sim directly, as other channels do (the legacy's own screens, an import),
 * never through the gateway: for tests of what the gateway learns on its own (the case-index watcher).
 * Calls go to the in-process sim app (`inject`), signed in as the type-1 `admin`.
 */
import type { TestApp } from './helpers.ts';
import { demoAccount } from './helpers.ts';

type Envelope<T> = { code: number; message: string[]; data: T };

export type LegacyCaseState = {
  caseId: number;
  caseNumber: string;
  caseCreated: string;
  caseCompanyId: number;
  caseCaseLineId: number | null;
  caseCaseCategoryId: number | null;
  caseCaseStatusId: number | null;
};

export type LegacyDesk = {
  /** Files a report at the legacy; answers its id. */
  file(
    companyId: number,
    options?: {
      categoryId?: number;
      channelId?: number;
      anonymous?: boolean;
      /** The reporter's province and city (default 32 / 3201; null: none named). */
      provinceId?: number | null;
      cityId?: number | null;
    },
  ): Promise<number>;
  /** An activity-log entry with a status (and a line, or null to keep it). */
  log(companyId: number, caseId: number, statusId: number, lineId: number | null): Promise<void>;
  /** A new category (the legacy's case edit). */
  recategorise(companyId: number, caseId: number, categoryId: number): Promise<void>;
  /** Every row of a company's table, as the administrator reads it. */
  table(companyId: number): Promise<LegacyCaseState[]>;
  /** Category ids of a company. */
  categories(companyId: number): Promise<number[]>;
  /** A case's activity log: each entry's status and time (WIB wall time). */
  logs(companyId: number, caseId: number): Promise<{ statusId: number | null; at: string | null }[]>;
};

export function legacyDesk(t: TestApp): LegacyDesk {
  let token: string | null = null;
  const send = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<T> => {
    if (!token) {
      const login = await t.legacy.app.inject({
        method: 'POST',
        url: '/api/JwtAuth/Login',
        payload: { userName: 'admin', password: demoAccount('admin').password },
      });
      token = (login.json() as Envelope<{ token: string }>).data.token;
    }
    const res = await t.legacy.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    const body = res.json() as Envelope<T> & { data: T };
    if (res.statusCode !== 200 || body.code !== 1) {
      throw new Error(`legacy ${method} ${url}: ${res.statusCode} ${body.message?.join(' ')}`);
    }
    return body as T;
  };
  const categories = async (companyId: number) => {
    const { data } = await send<Envelope<{ caseCategoryId: number }[]>>('POST', '/CaseCategory/GetAll', {
      companyId,
    });
    return data.map((c) => c.caseCategoryId);
  };
  return {
    async file(companyId, options = {}) {
      const categoryId = options.categoryId ?? (await categories(companyId))[0]!;
      const anonymous = options.anonymous ?? true;
      const { data } = await send<Envelope<{ caseId: number }>>('POST', '/WBSCase', {
        caseCompanyId: companyId,
        caseCaseCategoryId: categoryId,
        caseChannelId: options.channelId ?? 3,
        caseWhistleblowerIsAnonym: anonymous ? 1 : 0,
        caseWhistleblowerType: 1,
        caseWhistleblowerName: anonymous ? '' : 'Pelapor Uji',
        caseWhistleblowerAddress: anonymous ? '' : 'Jl. Uji 1',
        caseWhistleblowerProvinceId: options.provinceId === undefined ? 32 : options.provinceId,
        caseWhistleblowerCityId: options.cityId === undefined ? 3201 : options.cityId,
        // The city's first district (legacy-sim's ids: the city's id and two digits).
        caseWhistleblowerDistrictId: (options.cityId === undefined ? 3201 : (options.cityId ?? 0)) * 100 + 1,
        caseWhistleblowerEmail: 'uji@example.id',
        caseWhistleblowerContactNum: '+6281200000',
        caseWhistleblowerCommunicationType: '0',
        caseWhistleblowerCommunicationTime: 'Pagi',
        caseWhat: 'Uji pengawas indeks',
        caseWhere: 'Kantor',
        caseWhen: 'Kemarin',
        caseWhoPerpetratorAndPosition: 'X, Staf',
        caseWhatDirectorate: 'Umum',
        caseWhatDivision: 'Umum',
        caseHow: 'Begitu',
      });
      return data.caseId;
    },
    async log(companyId, caseId, statusId, lineId) {
      await send('POST', '/WBSCase/CaseLog', {
        caseId,
        caseCompanyId: companyId,
        messageLog: 'Catatan dari layar legacy',
        caseCaseLineId: lineId === null ? 'null' : lineId,
        caseCaseStatusId: statusId,
      });
    },
    async recategorise(companyId, caseId, categoryId) {
      await send('PUT', '/WBSCase', { caseId, caseCompanyId: companyId, caseCaseCategoryId: categoryId });
    },
    async table(companyId) {
      const { data } = await send<Envelope<LegacyCaseState[]>>(
        'POST',
        `/WBSCase/company/admin/${companyId}`,
        {
          start: 0,
          length: -1,
        },
      );
      return data;
    },
    categories,
    async logs(companyId, caseId) {
      type Log = { caseLogCaseStatusId: number | null; caseLogCreated: string | null };
      const { data } = await send<Envelope<{ caselogs: Log[] }>>(
        'GET',
        `/WBSCase/company/${companyId}/${caseId}`,
      );
      return data.caselogs.map((log) => ({ statusId: log.caseLogCaseStatusId, at: log.caseLogCreated }));
    },
  };
}
