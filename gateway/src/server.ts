/**
 * Starts the gateway: validates the settings (a clear message and exit code 1 when wrong), listens,
 * and on SIGTERM/SIGINT drains: no new connection is accepted, a request arriving on an open
 * connection is answered 503 `Connection: close` (Fastify's `return503OnClosing`), every request in
 * flight completes, then the legacy pool and Redis are closed and the process exits 0. It exits 1
 * only when draining takes longer than 10 s or fails (close-with-grace).
 */
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

const DRAIN_LIMIT_MS = 10_000;

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = await buildApp({ config });

// Why this is needed: `server.close()` and `forceCloseConnections: 'idle'` close the keep-alive
// connections that are idle at that moment, once. A connection whose request is still running is not
// idle then, and once its reply is sent it stays open as keep-alive (72 s), holding the drain until
// the 10 s limit. So every reply sent while closing tells the client to close the connection, and
// every reply finished while closing closes the connections that became idle (streamed downloads
// whose headers left before the signal).
let draining = false;
app.addHook('onSend', async (_request, reply) => {
  if (draining) reply.header('connection', 'close');
});
app.addHook('onResponse', async () => {
  if (draining) app.server.closeIdleConnections();
});

closeWithGrace(
  {
    delay: DRAIN_LIMIT_MS,
    logger: {
      error: (message: unknown) =>
        message instanceof Error
          ? app.log.error({ err: message }, 'error while shutting down')
          : app.log.error(String(message)),
    },
  },
  async ({ signal, err }) => {
    draining = true;
    if (err) app.log.error({ err }, 'unexpected error; shutting down');
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    await app.close();
    app.log.info('shut down cleanly');
  },
);

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.fatal({ err: error }, 'could not start listening');
  process.exit(1);
}
