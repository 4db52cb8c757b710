/** /healthz: the process is alive. /readyz: the legacy API answers within a short timeout. */
import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { config: { policy: 'public' }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { policy: 'public' }, logLevel: 'warn' }, async (_request, reply) => {
    const ready = await app.legacyClient.probe('/channel', 1_500);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'legacy unreachable' });
  });
}
