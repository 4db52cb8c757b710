import { availableParallelism } from 'node:os';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const valid = {
  SESSION_SECRET: 's'.repeat(32),
  SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

describe('config', () => {
  it('applies the defaults', () => {
    const config = loadConfig(valid);
    expect(config).toMatchObject({
      legacyApiUrl: 'http://127.0.0.1:8081/api',
      port: 8080,
      cookieSecure: 'auto',
      docsEnabled: false,
      logLevel: 'info',
      trustProxy: false,
      legacyTimeoutMs: 10_000,
    });
    expect(config.sessionEncryptionKey.length).toBe(32);
  });

  it('runs one process unless Redis and PostgreSQL are shared, then one worker per core', () => {
    expect(loadConfig(valid).workers).toBe(1);
    expect(loadConfig({ ...valid, REDIS_URL: 'redis://127.0.0.1:6379' }).workers).toBe(1);
    const shared = {
      ...valid,
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATABASE_URL: 'postgres://db/wbs',
      STORE_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
    };
    expect(loadConfig(shared).workers).toBe(availableParallelism());
    expect(loadConfig({ ...shared, GATEWAY_WORKERS: '3' }).workers).toBe(3);
    expect(() => loadConfig({ ...valid, GATEWAY_WORKERS: '2' })).toThrow(
      /GATEWAY_WORKERS above 1 needs REDIS_URL/,
    );
    expect(loadConfig({ ...valid, GATEWAY_WORKERS: '1' }).workers).toBe(1);
    for (const bad of ['0', 'abc', '-1', '1000']) {
      expect(() => loadConfig({ ...valid, GATEWAY_WORKERS: bad })).toThrow(/GATEWAY_WORKERS/);
    }
    expect(loadConfig(valid).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig(valid).referenceCacheSeconds).toBe(60);
  });

  it('lists every problem with the variable name and never echoes a secret', () => {
    try {
      loadConfig({
        SESSION_SECRET: 'short-secret',
        SESSION_ENCRYPTION_KEY: 'abcd',
        PORT: 'x',
        DOCS_ENABLED: 'maybe',
      });
      throw new Error('expected ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('SESSION_SECRET must be at least 32 characters');
      expect(message).toContain('SESSION_ENCRYPTION_KEY must be 32 bytes');
      expect(message).toContain('PORT must be a whole number');
      expect(message).toContain('DOCS_ENABLED must be true or false');
      expect(message).not.toContain('short-secret');
    }
  });

  it('reads TRUST_PROXY as boolean or address/CIDR list', () => {
    expect(loadConfig({ ...valid, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...valid, TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ ...valid, TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
    expect(loadConfig({ ...valid, TRUST_PROXY: '10.1.0.0/16,::1,loopback' }).trustProxy).toBe(
      '10.1.0.0/16,::1,loopback',
    );
  });

  it.each(['1', '2', '10'])(
    'refuses the hop count TRUST_PROXY=%s (Fastify 5 ignores X-Forwarded-* for it)',
    (hops) => {
      expect(() => loadConfig({ ...valid, TRUST_PROXY: hops })).toThrow(/hop count/);
    },
  );

  it.each(['10.0.0.300', '10.0.0.0/33', 'proxy.internal', '10.0.0.1,,', '::1/129'])(
    'refuses the malformed TRUST_PROXY=%s',
    (value) => {
      expect(() => loadConfig({ ...valid, TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );

  it('a named proxy is trusted for X-Forwarded-For/Proto/Host', async () => {
    const app = Fastify({ trustProxy: loadConfig({ ...valid, TRUST_PROXY: '127.0.0.1' }).trustProxy });
    app.get('/', async (request) => ({ ip: request.ip, protocol: request.protocol, host: request.host }));
    const res = await app.inject({
      url: '/',
      remoteAddress: '127.0.0.1',
      headers: {
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'wbs.example',
      },
    });
    expect(res.json()).toEqual({ ip: '203.0.113.9', protocol: 'https', host: 'wbs.example' });
    await app.close();
  });
});
