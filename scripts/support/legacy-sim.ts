/**
 * legacy-sim seen from outside: the cases it has persisted (to count what really reached the legacy)
 * and its test knobs (slow or failing answers).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';

export type StoredCase = { caseId: number; caseNumber: string; caseWhat: string; attachmentCount: number };

/** The cases legacy-sim has persisted (its store.json), waiting until two reads agree. */
export async function legacyCases(simDataDir: string): Promise<StoredCase[]> {
  const read = async () => {
    const text = await readFile(join(simDataDir, 'store.json'), 'utf8');
    type Raw = {
      caseId: number;
      caseNumber: string;
      fields?: { caseWhat?: string };
      attachments?: unknown[];
    };
    return (JSON.parse(text) as { cases: Raw[] }).cases.map((c) => ({
      caseId: c.caseId,
      caseNumber: c.caseNumber,
      caseWhat: c.fields?.caseWhat ?? '',
      attachmentCount: c.attachments?.length ?? 0,
    }));
  };
  let previous = -1;
  for (let attempt = 0; attempt < 40; attempt++) {
    const cases = await read().catch(() => null);
    if (cases && cases.length === previous) return cases;
    previous = cases?.length ?? -1;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('legacy-sim store.json did not settle');
}

/** The legacy user id of the account with `email` (legacy-sim's store.json), or null. */
export async function legacyUserIdOf(simDataDir: string, email: string): Promise<number | null> {
  const text = await readFile(join(simDataDir, 'store.json'), 'utf8');
  type Raw = { wbsUserId: number; wbsUserEmail: string };
  const users = (JSON.parse(text) as { users?: Raw[] }).users ?? [];
  return users.find((u) => u.wbsUserEmail === email)?.wbsUserId ?? null;
}

/** Sets legacy-sim's test knobs (LEGACY_SIM_TEST_KNOBS=1). */
export async function setKnobs(simUrl: string, knobs: Record<string, unknown>): Promise<void> {
  const reply = await request(`${simUrl}/__sim/knobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(knobs),
  });
  await reply.body.text();
  if (reply.statusCode !== 200) throw new Error(`knobs: HTTP ${reply.statusCode}`);
}
