/**
 * /healthz: the process is alive. /readyz: the legacy API and the gateway's own store both answer
 * within a short timeout.
 */
import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { config: { policy: 'public' }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { policy: 'public' }, logLevel: 'warn' }, async (_request, reply) => {
    const [legacy, store] = await Promise.all([
      app.legacyClient.probe('/channel', 1_500),
      app.store.ping(1_500),
    ]);
    const status = !legacy ? 'legacy unreachable' : !store ? 'store unreachable' : 'ready';
    return reply.code(legacy && store ? 200 : 503).send({ status });
  });
}
