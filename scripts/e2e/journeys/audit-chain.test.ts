/**
 * Journey: a company admin signs in and opens a case; their actions are in the store's
 * hash-chained audit trail, which `pnpm audit:verify`'s check finds intact — and, after one record is
 * altered in the database behind the gateway's back, names that record; restored, intact again.
 */
import { describe, expect, inject, it } from 'vitest';
import { runAuditVerify } from '../../../gateway/src/audit/verify.ts';
import { queryTestDatabase } from '../../../gateway/src/test/databases.ts';
import { apiGet, apiSignIn, signIn, useJourney } from './support.ts';

const journey = useJourney('audit-chain');
const storeUrl = inject('storeUrl');

const verify = async () => {
  const lines: string[] = [];
  const code = await runAuditVerify({ DATABASE_URL: storeUrl }, (line) => lines.push(line));
  return { code, text: lines.join('\n') };
};

describe('an audit trail no one can quietly edit', () => {
  it('records staff actions, verifies, and names the record altered in the database', async () => {
    const staff = await journey.actor('admin-kahuripan');
    await signIn(staff.page, 'admin.kahuripan', 'Perusahaan#2026!');
    const session = await apiSignIn('admin.kahuripan', 'Perusahaan#2026!');
    await apiGet('/cases/2', session);

    const mine = await queryTestDatabase<{ seq: string; event: string; body: string }>(
      storeUrl,
      `select seq, event, body from audit_record where actor_user_type = 2 and actor_company_id = 1
       order by seq`,
    );
    const events = mine.map((r) => r.event);
    expect(events).toContain('sign-in');
    expect(events).toContain('case-read');

    expect(await verify()).toMatchObject({
      code: 0,
      text: expect.stringMatching(/^Rantai jejak audit utuh/),
    });

    // This journey's read of case 2 (earlier journeys' reads of other cases are in the trail too).
    const target = mine.find((r) => r.event === 'case-read' && /"resourceId":2[,}]/.test(r.body));
    if (!target) throw new Error('no case-read record');
    await queryTestDatabase(storeUrl, 'update audit_record set body = $1 where seq = $2', [
      target.body.replace('"resourceId":2', '"resourceId":3'),
      target.seq,
    ]);
    try {
      const broken = await verify();
      expect(broken.code).toBe(1);
      expect(broken.text).toContain(`RUSAK pada catatan #${target.seq}`);
    } finally {
      await queryTestDatabase(storeUrl, 'update audit_record set body = $1 where seq = $2', [
        target.body,
        target.seq,
      ]);
    }
    expect((await verify()).code).toBe(0);
  });
});
