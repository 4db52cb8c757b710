/**
 * Starts the gateway: validates the settings (a clear message and exit code 1 when wrong), listens,
 * and on SIGTERM/SIGINT drains: no new connection is accepted, a request arriving on an open
 * connection is answered 503 `Connection: close` (Fastify's `return503OnClosing`), every request in
 * flight completes, then the legacy pool and Redis are closed and the process exits 0. It exits 1
 * only when draining takes longer than 10 s or fails (close-with-grace).
 *
 * Every core (GATEWAY_WORKERS, docs/adr/0026-gateway-workers.md): with more than one worker this process is
 * a node:cluster
 * primary that forks the workers (each one the gateway above, sharing the port), replaces a worker
 * that dies, and on SIGTERM/SIGINT passes the signal on and exits 0 once every worker has drained
 * and exited 0. Prometheus metrics are served on their own listener (METRICS_HOST:METRICS_PORT,
 * loopback by default), by the primary as the sum over the workers.
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { ClusterRegistry, type Registry } from '@prometheus-io/client';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { batchedStdout } from './log-batch.ts';

const DRAIN_LIMIT_MS = 10_000;
/** More worker deaths than this within a minute: something is wrong with every start; give up. */
const MAX_RESTARTS_PER_MINUTE = 10;

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

/** The Prometheus text on its own listener; never the public port. */
function serveMetrics(metrics: () => Promise<{ text: string; type: string }>): Server | null {
  if (config.metrics.port === 0) return null;
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics().then(
      ({ text, type }) => response.writeHead(200, { 'content-type': type }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  server.listen(config.metrics.port, config.metrics.host);
  return server;
}

async function runPrimary(): Promise<void> {
  const log = pino({ level: config.logLevel });
  const aggregator = new ClusterRegistry();
  const metricsServer = serveMetrics(async () => ({
    text: await aggregator.clusterMetrics(),
    type: aggregator.contentType,
  }));
  metricsServer?.on('error', (err) => log.error({ err }, 'metrics listener failed'));

  let stopping = false;
  const deaths: number[] = [];
  const fork = () => cluster.fork();
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && deaths[0]! < now - 60_000) deaths.shift();
    log.error({ workerPid: worker.process.pid, code, signal }, 'gateway worker died');
    if (deaths.length > MAX_RESTARTS_PER_MINUTE) {
      log.fatal('gateway workers keep dying; stopping');
      process.exit(1);
    }
    fork();
  });
  for (let i = 0; i < config.workers; i++) fork();
  log.info({ workers: config.workers, port: config.port }, 'gateway primary started');

  closeWithGrace({ delay: DRAIN_LIMIT_MS + 2_000 }, async ({ signal, err }) => {
    stopping = true;
    if (err) log.error({ err }, 'unexpected error in the primary; shutting down');
    log.info({ signal }, 'shutting down: draining every worker');
    metricsServer?.close();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const codes = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<number | null>((resolve) => {
            if (worker.process.exitCode !== null) return resolve(worker.process.exitCode);
            worker.once('exit', (code) => resolve(code));
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    if (codes.some((code) => code !== 0))
      throw new Error(`a worker did not drain cleanly: ${codes.join(', ')}`);
    log.info('shut down cleanly');
  });
}

async function runGateway(): Promise<void> {
  // Loaded here, not at the top: a cluster primary never builds the app and stays small.
  const { buildApp } = await import('./app.ts');
  const logStream = batchedStdout();
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, logStream });
  } catch (error) {
    // A store that cannot be opened or migrated, a key ring that does not fit it: one clear line.
    console.error(`gateway could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  let metricsServer: Server | null = null;
  if (cluster.isWorker) {
    // The primary asks each worker for its figures and serves the sum.
    new ClusterRegistry();
    ClusterRegistry.setRegistries(app.telemetry.registry as Registry);
  } else {
    const registry = app.telemetry.registry;
    metricsServer = serveMetrics(async () => ({
      text: await registry.metrics(),
      type: registry.contentType,
    }));
    metricsServer?.on('error', (err) => app.log.error({ err }, 'metrics listener failed'));
  }

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

  // A worker drains on the primary's SIGTERM; a terminal's Ctrl-C reaches the whole process group,
  // so a worker leaves SIGINT to the primary (a second signal would end its drain early).
  if (cluster.isWorker) process.on('SIGINT', () => undefined);
  const grace = closeWithGrace(
    {
      delay: DRAIN_LIMIT_MS,
      skip: cluster.isWorker ? ['SIGINT'] : [],
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
      metricsServer?.close();
      await app.close();
      app.log.info('shut down cleanly');
    },
  );

  // The primary is gone (killed outright): no one would ever stop this worker.
  if (cluster.isWorker) process.once('disconnect', () => draining || grace.close());

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    app.log.fatal({ err: error }, 'could not start listening');
    process.exit(1);
  }
}

if (config.workers > 1 && cluster.isPrimary) await runPrimary();
else await runGateway();
