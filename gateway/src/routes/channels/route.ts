/** Complaint channels (desktop, e-mail, phone, WhatsApp). */
import { optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import { channels } from '../../legacy/reference.ts';
import { presentOption } from '../../presenters/master.ts';
import { routeSchema } from '../../schema.ts';

export default async function channelRoutes(app: FastifyInstance) {
  app.get(
    '/channels',
    {
      config: { policy: 'reference:read' },
      schema: routeSchema({
        summary: 'Saluran pengaduan',
        tags: ['reference'],
        response: { 200: optionsReply },
      }),
    },
    async (request) => {
      const data = await channels(request.legacy);
      return { items: data.map((c) => presentOption(c.channelId, c.channelName)) };
    },
  );
}
