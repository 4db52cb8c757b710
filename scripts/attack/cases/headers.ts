/**
 * Headers every reply carries: HSTS when the request arrived over https (through the trusted proxy),
 * a Permissions-Policy, and Cross-Origin-Opener-Policy `same-origin`.
 */
import { type AttackCase, expect } from '../support.ts';

export const headerCases: AttackCase[] = [
  {
    area: 'headers',
    name: 'Strict-Transport-Security behind https',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/channels', headers: { 'x-forwarded-proto': 'https' } });
      expect(
        /max-age=\d{6,}/.test(reply.headers['strict-transport-security'] ?? ''),
        `HSTS: ${reply.headers['strict-transport-security'] ?? 'none'}`,
      );
    },
  },
  {
    area: 'headers',
    name: 'Permissions-Policy is sent',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/channels' });
      expect(reply.headers['permissions-policy'], 'no Permissions-Policy');
    },
  },
  {
    area: 'headers',
    name: 'Cross-Origin-Opener-Policy is same-origin',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/channels' });
      expect(
        reply.headers['cross-origin-opener-policy'] === 'same-origin',
        `COOP: ${reply.headers['cross-origin-opener-policy'] ?? 'none'}`,
      );
    },
  },
];
