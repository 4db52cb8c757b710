/**
 * A weak mobile link between a browser and the gateway, for journeys and `pnpm bench weaklink`: a TCP
 * proxy on 127.0.0.1 that carries the browser's bytes upstream at a set rate (one shared budget, as one
 * phone's uplink), adds latency both ways, and can cut the link (every open connection dropped, new
 * ones refused) for a while. It counts the bytes that crossed upstream.
 *
 * Why not Chromium's DevTools network emulation alone: tried first, its upload throttling did not hold
 * back an XHR's request body here (a 1.5 MB upload finished before the cut at 256 KB/s), so neither the
 * cut nor the time would have been real. A proxy paces the TCP stream itself; the browser's own
 * progress then follows the bytes the link really took (give or take the sockets' buffers).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export type WeakLink = {
  port: number;
  /** Bytes the browser sent that crossed the link (upstream). */
  readonly upBytes: number;
  /** Changes the upstream rate (bytes per second). */
  setRate(bytesPerSecond: number): void;
  /** Changes the one-way delay. */
  setLatency(oneWayMs: number): void;
  /** Cuts the link: drops every connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  readonly down: boolean;
  close(): Promise<void>;
};

export async function startWeakLink(options: {
  targetPort: number;
  targetHost?: string;
  /** Upstream bytes per second. */
  upBytesPerSecond: number;
  /** One-way delay added to each direction (a round trip costs twice this). */
  oneWayLatencyMs: number;
}): Promise<WeakLink> {
  const sockets = new Set<Socket>();
  let down = false;
  let upBytes = 0;
  /** When the shared uplink is free again (ms, performance.now()). */
  let linkFreeAt = 0;
  const SLICE = 8 * 1024;
  let rate = options.upBytesPerSecond;
  let latency = options.oneWayLatencyMs;

  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(options.targetPort, options.targetHost ?? '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);

    // Upstream: each slice waits for the shared uplink, then for the latency; reading pauses until
    // the slice has gone out, so the browser is held back by TCP as a slow link holds it back.
    client.on('data', (chunk: Buffer) => {
      // Counted as it enters the link: bytes lost in a cut were still sent.
      upBytes += chunk.length;
      client.pause();
      let last = 0;
      for (let offset = 0; offset < chunk.length; offset += SLICE) {
        const slice = chunk.subarray(offset, offset + SLICE);
        const now = performance.now();
        linkFreeAt = Math.max(now, linkFreeAt) + (slice.length * 1000) / rate;
        last = linkFreeAt - now;
        setTimeout(() => {
          if (upstream.destroyed || down) return;
          upstream.write(slice);
        }, last + latency);
      }
      setTimeout(() => {
        if (!client.destroyed && !down) client.resume();
      }, last);
    });
    upstream.on('data', (chunk: Buffer) => {
      setTimeout(() => {
        if (!client.destroyed && !down) client.write(chunk);
      }, latency);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    get upBytes() {
      return upBytes;
    },
    get down() {
      return down;
    },
    setRate(bytesPerSecond: number) {
      rate = bytesPerSecond;
    },
    setLatency(oneWayMs: number) {
      latency = oneWayMs;
    },
    cut() {
      down = true;
      linkFreeAt = 0;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    restore() {
      down = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
