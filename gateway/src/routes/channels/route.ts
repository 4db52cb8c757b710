/** Complaint channels (desktop, e-mail, phone, WhatsApp). */
import { optionsReply } from '@wbs/shared/api/reference';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { channelSchema } from '../../legacy/schemas.ts';
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
      const data = await request.legacy.reference('channels', {
        name: 'Channel.list',
        method: 'GET',
        path: '/channel/',
        data: v.array(channelSchema),
      });
      return { items: data.map((c) => presentOption(c.channelId, c.channelName)) };
    },
  );
}
