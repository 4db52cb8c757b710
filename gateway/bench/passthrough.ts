/**
 * The floor benchmark's yardstick: a bare @fastify/reply-from passthrough to the upstream (UPSTREAM_URL),
 * on PORT, loopback, logger off. What a gateway that does nothing per request would cost.
 */
import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';

const upstream = process.env.UPSTREAM_URL;
if (!upstream) throw new Error('UPSTREAM_URL is required');
const app = Fastify({ logger: false });
await app.register(replyFrom, { base: new URL(upstream).origin });
app.all('/*', (request, reply) => reply.from(request.url));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
// Exits on SIGTERM through process.exit, so a --cpu-prof profile is written (BENCH_PROFILE_DIR).
process.on('SIGTERM', () => process.exit(0));
