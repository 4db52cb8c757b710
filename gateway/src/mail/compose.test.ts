import { NOTICE_KIND_LABELS, NOTICE_KINDS, type NoticeKind } from '@wbs/shared/notices';
import fc from 'fast-check';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import {
  DIGEST_LINES_MAX,
  handlerDigestMail,
  handlerNoticeMail,
  messageIdFor,
  NAME_MAX,
  reporterConfirmationMail,
  reporterNoticeMail,
  SUBJECT_MAX,
  secondFactorFailuresMail,
  securityNoticeMail,
} from './compose.ts';
import { messageOptions, type OutgoingMail } from './transport.ts';

const FROM = { name: 'WBS', address: 'no-reply@wbs.invalid' };
const BASE = 'https://wbs.example.co.id';

/** What a user may type into a company name, weighted towards what breaks headers and HTML. */
const NASTY = [
  '\r',
  '\n',
  '\r\n',
  '\r\nBcc: korban@example.com',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u200d',
  '\0',
  '\t',
];
const typed = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({
    unit: fc.constantFrom(
      ...NASTY,
      '<',
      '>',
      '&',
      '"',
      "'",
      'é',
      'ß',
      '漢',
      '😀',
      ' ',
      'PT Air ',
      ':',
      '=?utf-8?',
    ),
    maxLength: 40,
  }),
);
const kind = fc.constantFrom(...NOTICE_KINDS);
const count = fc.integer({ min: 1, max: 2_000_000 });
/** A random token: when it turns up in a mail, the mail repeated an input it should not have. */
const token = fc.stringMatching(/^[a-z]{6}[0-9]{6}$/);

const UNSAFE_IN_HEADER = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
const ALLOWED_TAGS = new Set(['!doctype', 'html', 'head', 'meta', 'title', 'body', 'p', 'a', 'br']);

async function wire(mail: OutgoingMail) {
  const raw = await new MailComposer(messageOptions(mail, FROM)).compile().build();
  const parsed = await simpleParser(raw);
  // Unfolded (RFC 5322 2.2.3): a long header may be folded onto the next line.
  return { raw: raw.toString('utf8').replace(/\r\n(?=[ \t])/g, ''), parsed };
}

/** The header names of a message, lower case, in order (repeats included). */
const headerNames = (parsed: Awaited<ReturnType<typeof simpleParser>>) =>
  parsed.headerLines.map((line) => line.key);

const BASE_HEADERS = ['from', 'to', 'subject', 'message-id', 'date', 'mime-version', 'content-type'];

function expectOneLine(subject: string) {
  expect(subject).not.toMatch(UNSAFE_IN_HEADER);
  expect([...subject].length).toBeLessThanOrEqual(SUBJECT_MAX);
  expect(subject).toBe(subject.trim());
}

function expectOnlyPlainHtml(html: string) {
  const tags = [...html.matchAll(/<\/?([!a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => (m[1] ?? '').toLowerCase());
  expect(tags.filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
}

describe('handler notice mail', () => {
  it('any typed company name gives one subject line, escaped HTML and exactly the expected headers', async () => {
    await fc.assert(
      fc.asyncProperty(typed, kind, count, async (companyName, noticeKind, n) => {
        const mail = handlerNoticeMail({
          to: 'analis@example.co.id',
          messageId: '<notice.1@wbs.invalid>',
          kind: noticeKind,
          companyName,
          count: n,
          signInUrl: `${BASE}/auth/login`,
        });
        expectOneLine(mail.subject);
        expectOnlyPlainHtml(mail.html);
        expect(mail.headers).toBeUndefined();
        const { parsed } = await wire(mail);
        expect(headerNames(parsed).sort()).toEqual([...BASE_HEADERS].sort());
        expect(parsed.subject).toBe(mail.subject);
        expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : []).toEqual([
          { name: '', address: 'analis@example.co.id' },
        ]);
      }),
      { numRuns: 150 },
    );
  });

  it('says the count, the kind and the company, and links to sign-in; nothing else from its inputs', () => {
    fc.assert(
      fc.property(token, token, token, kind, count, (who, id, path, noticeKind, n) => {
        const mail = handlerNoticeMail({
          to: `${who}@example.co.id`,
          messageId: `<${id}@wbs.invalid>`,
          kind: noticeKind,
          companyName: 'Perumda Tirta Kahuripan',
          count: n,
          signInUrl: `${BASE}/${path}`,
        });
        const all = [mail.subject, mail.text, mail.html].join('\n');
        expect(all).not.toContain(who);
        expect(all).not.toContain(id);
        expect(mail.text).toContain(`${BASE}/${path}`);
        expect(mail.html).toContain(`href="${BASE}/${path}"`);
        expect(mail.subject).toContain('Perumda Tirta Kahuripan');
        expect(mail.text).toContain('Perumda Tirta Kahuripan');
        expect(mail.text).toContain(NOTICE_KIND_LABELS[noticeKind]);
        expect(mail.text).toContain(new Intl.NumberFormat('id-ID').format(n));
      }),
    );
  });

  it('escapes a company name in HTML and cuts a long one', () => {
    const mail = handlerNoticeMail({
      to: 'analis@example.co.id',
      messageId: '<n.2@wbs.invalid>',
      kind: 'new-report',
      companyName: `<script>alert("x")</script> & ${'Sangat Panjang '.repeat(20)}`,
      count: 1,
      signInUrl: `${BASE}/auth/login`,
    });
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sangat');
    expect(mail.html).not.toContain('<script>');
    const shown = /untuk (.*): Laporan baru\./.exec(mail.text)?.[1] ?? '';
    expect([...shown].length).toBe(NAME_MAX);
    expect(shown.endsWith('…')).toBe(true);
  });

  it('a name that is nothing but control characters reads "perusahaan Anda"', () => {
    const mail = handlerNoticeMail({
      to: 'analis@example.co.id',
      messageId: '<n.3@wbs.invalid>',
      kind: 'ack-overdue',
      companyName: '\r\n\u202e\t',
      count: 3,
      signInUrl: `${BASE}/auth/login`,
    });
    expect(mail.subject).toBe('WBS: Tanggapan awal terlambat (3) di perusahaan Anda');
    expect(mail.text).toContain(
      'Ada 3 pemberitahuan baru di WBS untuk perusahaan Anda: Tanggapan awal terlambat.',
    );
  });

  it('refuses a count that is not a whole number from 1, and a link that is not plain http(s)', () => {
    const base = {
      to: 'analis@example.co.id',
      messageId: '<n.4@wbs.invalid>',
      kind: 'new-report' as NoticeKind,
      companyName: 'PT A',
      count: 1,
      signInUrl: `${BASE}/auth/login`,
    };
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => handlerNoticeMail({ ...base, count: bad })).toThrow(RangeError);
    }
    for (const bad of [
      'javascript:alert(1)',
      '/auth/login',
      `${BASE}/a\r\nBcc: x@y.id`,
      `${BASE}/a b`,
      `${BASE}/"><x`,
    ]) {
      expect(() => handlerNoticeMail({ ...base, signInUrl: bad })).toThrow(TypeError);
    }
  });
});

describe('handler digest mail', () => {
  const digest = (overrides: Partial<Parameters<typeof handlerDigestMail>[0]> = {}) =>
    handlerDigestMail({
      to: 'analis@example.co.id',
      messageId: '<digest.9.2027-01-12@wbs.invalid>',
      day: '2027-01-12',
      items: [
        { kind: 'new-report', companyName: 'PT Air Bersih', count: 2 },
        { kind: 'feedback-overdue', companyName: 'Perumda Tirta', count: 1 },
      ],
      signInUrl: `${BASE}/auth/login`,
      preferencesUrl: `${BASE}/admin/notifikasi`,
      unsubscribeUrl: `${BASE}/api/v1/mail/unsubscribe?t=tok123`,
      unsubscribePageUrl: `${BASE}/notifikasi/ringkasan#tok123`,
      ...overrides,
    });

  it('lists company, kind and count per line, and offers a one-click unsubscribe (RFC 8058)', async () => {
    const mail = digest();
    expect(mail.subject).toBe('WBS: ringkasan pemberitahuan 12 Januari 2027');
    expect(mail.text).toContain(
      '• PT Air Bersih: Laporan baru (2)\n• Perumda Tirta: Umpan balik terlambat (1)',
    );
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${BASE}/api/v1/mail/unsubscribe?t=tok123>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail.text).toContain(`${BASE}/admin/notifikasi`);
    const { raw, parsed } = await wire(mail);
    expect(headerNames(parsed).sort()).toEqual(
      [...BASE_HEADERS, 'list-unsubscribe', 'list-unsubscribe-post'].sort(),
    );
    expect(raw).toContain(`List-Unsubscribe: <${BASE}/api/v1/mail/unsubscribe?t=tok123>\r\n`);
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n');
  });

  it('any typed company names keep the headers intact and the HTML plain', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind, companyName: typed, count }), { minLength: 1, maxLength: 6 }),
        async (items) => {
          const mail = digest({ items });
          expectOneLine(mail.subject);
          expectOnlyPlainHtml(mail.html);
          const { parsed } = await wire(mail);
          expect(headerNames(parsed).sort()).toEqual(
            [...BASE_HEADERS, 'list-unsubscribe', 'list-unsubscribe-post'].sort(),
          );
          // Every item is one line of the list: a name never adds a line of its own.
          const list = mail.text.split('\n').filter((line) => line.startsWith('• '));
          expect(list).toHaveLength(items.length);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('sums up what does not fit, and refuses an empty digest or a day that does not exist', () => {
    const items = Array.from({ length: DIGEST_LINES_MAX + 7 }, (_, i) => ({
      kind: 'new-report' as NoticeKind,
      companyName: `PT ${i}`,
      count: 1,
    }));
    const mail = digest({ items });
    expect(mail.text.split('\n').filter((line) => line.startsWith('• '))).toHaveLength(DIGEST_LINES_MAX + 1);
    expect(mail.text).toContain('• dan 7 baris lainnya');
    expect(() => digest({ items: [] })).toThrow(RangeError);
    for (const day of ['2027-02-30', '2027-13-01', '12-01-2027', '2027-1-2']) {
      expect(() => digest({ day })).toThrow(RangeError);
    }
    expect(() => digest({ unsubscribeUrl: 'mailto:x@y.id' })).toThrow(TypeError);
  });
});

describe('security notice mail', () => {
  it('says when, in WIB, and what to do when it was not you', () => {
    const mail = securityNoticeMail({
      to: 'admin@example.co.id',
      messageId: '<device.5@wbs.invalid>',
      at: '2027-01-12T14:05:09',
      signInUrl: `${BASE}/auth/login`,
    });
    expect(mail.subject).toBe('WBS: masuk dari perangkat baru');
    expect(mail.text).toContain('pada 12 Januari 2027 pukul 14.05 WIB');
    expect(mail.text).toContain('ganti kata sandi');
    expect(mail.text).toContain(`${BASE}/auth/login`);
    expect(mail.text).not.toContain('admin@example.co.id');
    expectOnlyPlainHtml(mail.html);
    for (const at of ['2027-01-12 14:05', '2027-01-12T24:00:00', '2027-02-29T10:00:00', 'kemarin']) {
      expect(() => securityNoticeMail({ ...mail, at, signInUrl: `${BASE}/auth/login` })).toThrow(RangeError);
    }
  });
});

describe('wrong second-factor codes mail', () => {
  it('says when, in WIB, that the password may be known, and how to get in when the app is refused', () => {
    const mail = secondFactorFailuresMail({
      to: 'analis@example.co.id',
      messageId: '<codes.7@wbs.invalid>',
      at: '2027-01-12T14:05:09',
      signInUrl: `${BASE}/auth/login`,
    });
    expect(mail.subject).toBe('WBS: kode verifikasi salah berulang kali');
    expect(mail.text).toContain('pada 12 Januari 2027 pukul 14.05 WIB');
    expect(mail.text).toContain('ganti kata sandi');
    expect(mail.text).toContain('kode pemulihan atau passkey');
    expect(mail.text).toContain(`${BASE}/auth/login`);
    expect(mail.text).not.toContain('analis@example.co.id');
    expectOnlyPlainHtml(mail.html);
    for (const at of ['2027-01-12 14:05', '2027-01-12T24:00:00', 'kemarin']) {
      expect(() => secondFactorFailuresMail({ ...mail, at, signInUrl: `${BASE}/auth/login` })).toThrow(
        RangeError,
      );
    }
  });
});

describe('reporter mails', () => {
  /** The fixed words of a mail: its text with the links taken out. */
  const words = (mail: OutgoingMail, links: string[]) =>
    links.reduce((text, href) => text.replaceAll(href, ''), [mail.subject, mail.text, mail.html].join('\n'));

  it('say nothing about which report: no input shows but the links', () => {
    fc.assert(
      fc.property(token, token, token, token, (who, id, confirm, opt) => {
        const to = `${who}@example.co.id`;
        const messageId = `<${id}@wbs.invalid>`;
        const confirmation = reporterConfirmationMail({
          to,
          messageId,
          confirmUrl: `${BASE}/konfirmasi?t=${confirm}`,
        });
        const notice = reporterNoticeMail({
          to,
          messageId,
          trackUrl: `${BASE}/tracking`,
          optOutUrl: `${BASE}/berhenti?t=${opt}`,
        });
        for (const [mail, links] of [
          [confirmation, [`${BASE}/konfirmasi?t=${confirm}`]],
          [notice, [`${BASE}/tracking`, `${BASE}/berhenti?t=${opt}`]],
        ] as const) {
          const text = words(mail, [...links]);
          for (const input of [who, id, confirm, opt]) expect(text).not.toContain(input);
          for (const href of links) expect(mail.html).toContain(`href="${href}"`);
          // No number of any kind: not a complaint number, not a count, not a date.
          expect(text.replace(/<[^>]*>/g, '')).not.toMatch(/\d/);
          expectOnlyPlainHtml(mail.html);
        }
        expect(confirmation.subject).toBe('WBS: konfirmasi alamat e-mail');
        expect(notice.subject).toBe('WBS: ada tanggapan baru');
        expect(notice.text).toContain('Pantau Laporan');
      }),
    );
  });

  it('have only the base headers on the wire', async () => {
    const { parsed } = await wire(
      reporterNoticeMail({
        to: 'pelapor@example.co.id',
        messageId: '<r.1@wbs.invalid>',
        trackUrl: `${BASE}/tracking`,
        optOutUrl: `${BASE}/berhenti?t=1`,
      }),
    );
    expect(headerNames(parsed).sort()).toEqual([...BASE_HEADERS].sort());
  });
});

describe('messageIdFor', () => {
  it('is the same for the same key, on the sender domain, and takes only plain keys', () => {
    expect(messageIdFor('notice.42.3', FROM)).toBe('<notice.42.3@wbs.invalid>');
    expect(messageIdFor('notice.42.3', FROM)).toBe(messageIdFor('notice.42.3', FROM));
    for (const bad of ['', 'a b', 'a@b', 'a\r\nb', '<a>', '.a'])
      expect(() => messageIdFor(bad, FROM)).toThrow(TypeError);
  });
});
