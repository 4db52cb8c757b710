/**
 * The gateway's own log (its stdout, captured for the whole run, at debug level): after every other
 * case has run, no line holds a client address, a user agent, a complaint number, a password, a
 * cookie, a TOTP secret or recovery code, or an anonymous reporter's identity. These cases run last.
 */
import { ADDRESS_PREFIX, type AttackCase, expect, SUBJECTS, USER_AGENT } from '../support.ts';
import { secondFactorSecrets } from './second-factor.ts';

const noLine = (name: string, pattern: RegExp | ((line: string) => boolean)): AttackCase => ({
  area: 'logs',
  name,
  async run(t) {
    expect(t.logs.length > 100, `only ${t.logs.length} log lines were captured`);
    const test = typeof pattern === 'function' ? pattern : (line: string) => pattern.test(line);
    const hits = t.logs.filter(test);
    expect(hits.length === 0, `${hits.length} lines, e.g. ${hits[0]?.slice(0, 200)}`);
  },
});

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const logCases: AttackCase[] = [
  noLine('no client address', new RegExp(literal(ADDRESS_PREFIX))),
  noLine('no user agent', new RegExp(literal(USER_AGENT.slice(-15)))),
  noLine('no complaint number', /WBS-\d{8}/),
  noLine(
    'no password of any demo account',
    (line) => SUBJECTS.some((s) => line.includes(s.password)) || line.includes('Rahasia#Pelapor-2026'),
  ),
  noLine('no session cookie or token', /wbs_session=|eyJ[\w-]{10,}\.[\w-]{10,}/),
  noLine('no TOTP secret, recovery code or password of the second-factor cases', (line) =>
    secondFactorSecrets.some((secret) => line.includes(secret)),
  ),
  noLine(
    'no anonymous reporter identity',
    /Nama Rahasia Pelapor Anonim|Bagian Rahasia Sekali|pelapor\.uji@example\.com|\+6281234567890/,
  ),
  // Every address the reporter-notice cases sent ends in .bom-uji.id (cases/reporter-notices.ts).
  noLine('no reporter notice address', /bom-uji\.id/i),
  noLine(
    'no stack trace in a log line of a refused request',
    (line) => /"level":(30|40)/.test(line) && /\bat \w+ \(/.test(line),
  ),
];
