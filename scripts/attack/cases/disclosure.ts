/**
 * Disclosure: no stack trace, internal address, file path or version in error replies or headers,
 * whatever fails (the gateway, or the legacy behind it).
 */
import { setKnobs } from '../../support/legacy-sim.ts';
import { type AttackCase, assertNoInternals, expect, type Reply, type Tools, wholeYear } from '../support.ts';

const noInternals = (name: string, make: (t: Tools) => Promise<Reply>, status?: number[]): AttackCase => ({
  area: 'disclosure',
  name,
  async run(t) {
    const reply = await make(t);
    if (status) expect(status.includes(reply.status), `answered ${reply.status}`);
    assertNoInternals(reply, t.simUrl);
    expect(!reply.headers.server && !reply.headers['x-powered-by'], 'a Server or X-Powered-By header');
  },
});

const underKnob = (knobs: Record<string, unknown>) => async (t: Tools) => {
  await setKnobs(t.simUrl, knobs);
  try {
    return await t.send({ path: '/api/v1/cases/search', json: wholeYear(), as: 'admin.kahuripan' });
  } finally {
    await setKnobs(t.simUrl, {});
  }
};

export const disclosureCases: AttackCase[] = [
  noInternals('unknown API route', (t) => t.send({ path: '/api/v1/no-such-thing' }), [404]),
  noInternals(
    'unknown API route with a session',
    (t) => t.send({ path: '/api/v1/admin/debug', as: 'admin' }),
    [404],
  ),
  noInternals(
    'malformed JSON',
    (t) => t.send({ path: '/api/v1/session', body: '{', headers: { 'content-type': 'application/json' } }),
    [400],
  ),
  noInternals(
    'unsupported content type',
    (t) => t.send({ path: '/api/v1/session', body: '<x/>', headers: { 'content-type': 'application/xml' } }),
    [415, 400],
  ),
  noInternals(
    'wrong method',
    (t) => t.send({ method: 'PATCH', path: '/api/v1/session', json: {} }),
    [404, 405],
  ),
  noInternals(
    'validation failure',
    (t) => t.send({ path: '/api/v1/cases/search', json: { from: 'kemarin' }, as: 'admin.kahuripan' }),
    [400],
  ),
  noInternals('legacy down', underKnob({ down: true }), [503]),
  noInternals('legacy answers HTTP 500 with its exception', underKnob({ failWith500: true }), [502]),
  noInternals('legacy answers malformed JSON', underKnob({ malformed: true }), [502]),
  noInternals('a multipart body cut short', (t) =>
    t.send({
      path: '/api/v1/cases',
      body: '--x\r\ncontent-disposition: form-data; name="evidence"; filename="a.pdf"\r\n\r\n%PDF',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    }),
  ),
  noInternals(
    'a multipart body without boundary',
    (t) => t.send({ path: '/api/v1/cases', body: 'xx', headers: { 'content-type': 'multipart/form-data' } }),
    [400, 406, 415],
  ),
  {
    area: 'disclosure',
    name: 'API replies carry nosniff, no-store and no framing',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/channels' });
      expect(reply.headers['x-content-type-options'] === 'nosniff', 'no nosniff');
      expect(
        /no-store/.test(reply.headers['cache-control'] ?? ''),
        `cache-control ${reply.headers['cache-control']}`,
      );
      expect(
        reply.headers['x-frame-options'] === 'DENY' ||
          /frame-ancestors 'none'/.test(reply.headers['content-security-policy'] ?? ''),
        'framing allowed',
      );
    },
  },
  {
    area: 'disclosure',
    name: 'a forgot-password request for an unknown e-mail answers like a known one',
    async run(t) {
      const unknown = await t.send({
        path: '/api/v1/password/forgot',
        json: { email: 'tidak.ada@example.com' },
      });
      const session = await t.send({ path: '/api/v1/session', as: 'admin.pakuan' });
      const email = (JSON.parse(session.text) as { user?: { email?: string } }).user?.email;
      expect(email, 'admin.pakuan has no e-mail');
      const known = await t.send({ path: '/api/v1/password/forgot', json: { email } });
      expect(
        unknown.status === known.status && unknown.text === known.text,
        `${unknown.status} ${unknown.text.slice(0, 80)} vs ${known.status} ${known.text.slice(0, 80)}`,
      );
    },
  },
];
