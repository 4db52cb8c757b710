/**
 * POST /cases/{id}/contact-reveal: the e-mail and phone of a hidden reporter (anonymous report, or a
 * pelapor who hides its identity) in clear, for a handler allowed to write activity logs (policy
 * `case-logs:create`, spec §6), with a stated reason. The case is loaded in scope like every case
 * route (another scope's case is 404). Every reveal is an audit line `contact-revealed` naming the
 * user (audit()), the case id and the reason's length — never the reason's text (it may quote the
 * reporter) nor the revealed values. The reply is never cached (`cache-control: no-store` on /api).
 * A handler reveals a few contacts a day; `REVEAL_LIMITS` stops a script (or a stolen session) from
 * harvesting every reporter of a company before anyone reads the audit lines, and each hit of it is
 * an alert (warn line and `wbs_contact_reveal_limit_hits_total`, docs/adr/0051-reveal-limit-is-an-alert.md).
 */
import { idParams } from '@wbs/shared/api/common';
import {
  type ContactRevealRequest,
  contactRevealReply,
  contactRevealRequest,
} from '@wbs/shared/api/contact-reveal';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { type FloodRule, floodLimiter } from '../../policies/flood-limits.ts';
import { pelaporHidesIdentity } from '../../policies/reporter-privacy.ts';
import { isAnonymousCase, presentContact } from '../../presenters/cases.ts';
import { routeSchema } from '../../schema.ts';
import { recordIdentityRead } from '../identity-access/record.ts';

type Params = v.InferOutput<typeof idParams>;

/** Per handler and for the whole gateway, per 15 minutes (docs/product/privacy.md#contact-reveal). */
export const REVEAL_LIMITS: Omit<FloodRule, 'name'> = {
  maxPerClient: 20,
  maxGlobal: 500,
  windowSeconds: 900,
};

export default async function contactRevealRoutes(app: FastifyInstance) {
  const limits = await floodLimiter(app, {
    name: 'contact-reveals',
    ...REVEAL_LIMITS,
    // An alert, not a routine refusal: one warn line and a counter to page on (docs/deploy.md). The
    // line names the handler (who to look at) and nothing of a case or a reporter; no address or agent.
    onRefused(request, limit) {
      const user = request.session?.user;
      const which = limit === 'global' ? 'global' : 'per-user';
      request.log.warn(
        {
          alert: 'contact-reveal-limit',
          limit: which,
          userId: user?.id ?? null,
          userType: user?.userTypeId ?? null,
        },
        'contact reveal limit reached',
      );
      app.telemetry.contactRevealLimitHit(user?.userTypeId ?? null, which);
    },
  });
  app.post<{ Params: Params; Body: ContactRevealRequest }>(
    '/cases/:id/contact-reveal',
    {
      config: { policy: 'case-logs:create', stepUp: true },
      schema: routeSchema({
        summary: 'Tampilkan kontak pelapor yang disamarkan',
        description:
          'Email dan nomor telepon pelapor dalam bentuk asli, untuk pengguna yang boleh membuat catatan ' +
          'aktivitas. `reason` wajib: 10–500 karakter, berisi minimal 2 kata dengan total minimal 10 huruf ' +
          '(karakter tak terlihat tidak dihitung). Setiap permintaan dicatat (tanpa isi alasan ' +
          'dan tanpa kontak yang dibuka). Laporan di luar cakupan: 404.',
        tags: ['cases'],
        params: idParams,
        body: contactRevealRequest,
        response: { 200: contactRevealReply },
      }),
    },
    async (request, reply) => {
      await limits.consume(request, reply);
      const found = await loadCaseInScope(request.caller, request.params.id);
      const masked = isAnonymousCase(found) || (await pelaporHidesIdentity(request.caller, found));
      audit(request, 'contact-revealed', {
        resource: 'case',
        resourceId: found.caseId,
        reasonLength: request.body.reason.length,
        wasMasked: masked,
      });
      await recordIdentityRead(request, found, 'contact-reveal');
      return presentContact(found);
    },
  );
}
