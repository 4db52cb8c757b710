/** The signed-in whistleblower's profile (type 6): name and "hide my identity". */
import { messageReply } from '@wbs/shared/api/common';
import { profileReply, profileRequest } from '@wbs/shared/api/profile';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { reporterProfile, saveReporterProfile } from '../../legacy/accounts.ts';
import { routeSchema } from '../../schema.ts';

const tags = ['profile'];

function own(request: FastifyRequest) {
  const user = request.session?.user;
  if (!user?.whistleblowerId || !user.companyId) throw new ApiProblem('forbidden');
  return { whistleblowerId: user.whistleblowerId, whistleblowerCompanyId: user.companyId };
}

export default async function profileRoutes(app: FastifyInstance) {
  app.get(
    '/profile',
    {
      config: { policy: 'profile:manage' },
      schema: routeSchema({ summary: 'Profil pelapor', tags, response: { 200: profileReply } }),
    },
    async (request) => {
      const data = await reporterProfile(request.legacy, own(request));
      return {
        fullName: data.whistleblowerFullName ?? '',
        hideIdentity: data.whistleblowerIsAnonymousBool === true,
      };
    },
  );

  app.put<{ Body: v.InferOutput<typeof profileRequest> }>(
    '/profile',
    {
      config: { policy: 'profile:manage' },
      schema: routeSchema({
        summary: 'Simpan profil pelapor',
        description:
          '`hideIdentity: true` (Sembunyikan identitas): on every case of this pelapor, handlers get no name, ' +
          'department, address or region and a masked e-mail and phone (docs/product/privacy.md#identity-and-privacy).',
        tags,
        body: profileRequest,
        response: { 200: messageReply },
      }),
    },
    async (request, reply) => {
      const messages = await saveReporterProfile(request.legacy, own(request), request.body);
      // The top bar reads the name from the session: it shows the new one at the next GET /session.
      app.sessions.refresh(request, reply, { displayName: request.body.fullName });
      return { message: messages[0] ?? '' };
    },
  );
}
