/** Finds the seeded records the cases aim at, through the API as their rightful users. */
import { Failure, type Fixtures, json, type Tools, wholeYear } from './support.ts';

type Item = { id: number; number: string; companyId: number };
type Detail = {
  id: number;
  attachments: { id: number }[];
  logs: { id: number; attachmentName?: string | null }[];
};

async function search(t: Tools, as: string, filters: Record<string, unknown> = {}): Promise<Item[]> {
  const reply = await t.send({ path: '/api/v1/cases/search', json: wholeYear(filters), as });
  if (reply.status !== 200)
    throw new Failure(`case search as ${as}: HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
  return json<{ items: Item[] }>(reply).items;
}

async function caseByNumber(t: Tools, as: string, number: string, companyId?: number) {
  const found = (await search(t, as, { number, ...(companyId ? { companyId } : {}) })).find(
    (c) => c.number === number,
  );
  if (!found) throw new Failure(`${number} not found as ${as}`);
  const detail = json<Detail>(await t.send({ path: `/api/v1/cases/${found.id}`, as }));
  const attachmentId = detail.attachments[0]?.id;
  if (!attachmentId) throw new Failure(`${number} has no attachment`);
  const logId = detail.logs.find((l) => l.attachmentName)?.id ?? detail.logs[0]?.id ?? null;
  return { id: found.id, attachmentId, logId };
}

export async function findFixtures(t: Tools): Promise<Fixtures> {
  const company1Case = await caseByNumber(t, 'admin.kahuripan', 'WBS-10000002');
  const company2Case = await caseByNumber(t, 'admin.pakuan', 'WBS-10000003');
  const direksi = await search(t, 'admin.kahuripan', { caseLineId: 1 });
  const direksiCaseId = direksi[0]?.id;
  if (!direksiCaseId) throw new Failure('no company-1 case on Jalur Direksi');
  const own = await search(t, 'pelapor');
  const categories = json<{ items: { id: number }[] }>(await t.send({ path: '/api/v1/case-categories' }));
  const categoryId = categories.items[0]?.id;
  if (!categoryId) throw new Failure('no guest category');
  return {
    company1Case,
    company2Case,
    direksiCaseId,
    pelaporCaseId: own[0]?.id ?? null,
    pelaporCaseIds: own.map((c) => c.id),
    categoryId,
  };
}
