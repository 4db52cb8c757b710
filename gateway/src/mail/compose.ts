/**
 * The mails the product sends, as pure functions of what the caller hands in
 * (docs/product/notifications.md#e-mail). A mail is content-free: it says that something happened
 * and links to where a signed-in user (or a tracker with Pantau Laporan) reads it. It never holds a
 * report's text, a complaint number, a reporter's identity or a reported person's name; the only
 * text from the product's data is a company name, and only in handler mails.
 *
 * A mailbox is not a safe place: a reporter's may be read by a colleague, even by the reported
 * person, so a reporter's mails do not even say which report they are about.
 *
 * Names come from what an administrator typed: in a subject or a sentence they are one line, without
 * control, format (bidirectional overrides, zero-width) or line-separator characters, and of bounded
 * length; in HTML they are escaped. Links and Message-IDs come from the caller (a Message-ID is
 * deterministic, so a retried send is recognisable: `messageIdFor`).
 */
import { NOTICE_KIND_LABELS, type NoticeKind } from '@wbs/shared/notices';
import type { MailSettings } from './settings.ts';
import type { OutgoingMail } from './transport.ts';

/** The longest company name shown (in characters); a longer one ends in "…". */
export const NAME_MAX = 80;
/** The longest subject (in characters). */
export const SUBJECT_MAX = 150;
/** Lines of a digest; more items are summed up in one line. */
export const DIGEST_LINES_MAX = 50;

const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]+/gu;

/** `value` as one line fit for a header or a sentence, at most `max` characters. */
export function oneLine(value: string, max: number): string {
  const text = value.normalize('NFC').replace(UNSAFE, ' ').replace(/\s+/gu, ' ').trim();
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** A caller's link, checked: absolute http(s), nothing that could break a header or an attribute. */
function link(url: string, what: string): string {
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s<>"]/u.test(url)) throw new TypeError(`${what} is not a plain URL`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${what} is not an absolute URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new TypeError(`${what} is not http(s)`);
  return parsed.href;
}

const companyLine = (name: string) => oneLine(name, NAME_MAX) || 'perusahaan Anda';

function countText(count: number): string {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError('count must be a whole number from 1');
  return new Intl.NumberFormat('id-ID').format(count);
}

const MONTHS = [
  'Januari',
  'Februari',
  'Maret',
  'April',
  'Mei',
  'Juni',
  'Juli',
  'Agustus',
  'September',
  'Oktober',
  'November',
  'Desember',
];

/** 'YYYY-MM-DD' as "12 Januari 2027"; a day that does not exist is the caller's mistake. */
function dayText(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const [year, month, date] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const check = new Date(Date.UTC(year, month - 1, date));
  if (!match || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) {
    throw new RangeError('day must be YYYY-MM-DD');
  }
  return `${date} ${MONTHS[month - 1]} ${year}`;
}

/** WIB wall time 'YYYY-MM-DDTHH:mm:ss' as "12 Januari 2027 pukul 14.05 WIB". */
function momentText(at: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/.exec(at);
  if (!match || Number(match[2]) > 23 || Number(match[3]) > 59) {
    throw new RangeError('at must be WIB wall time YYYY-MM-DDTHH:mm:ss');
  }
  return `${dayText(match[1] ?? '')} pukul ${match[2]}.${match[3]} WIB`;
}

/** A paragraph of the plain text, or a link on a line of its own. */
type Part = { text: string } | { label: string; href: string };

const HANDLER_FOOTER =
  'Demi kerahasiaan pelapor, e-mail ini tidak memuat isi laporan, nomor pengaduan, maupun nama siapa pun. ' +
  'E-mail ini dikirim otomatis; mohon tidak membalasnya.';
const REPORTER_FOOTER =
  'E-mail ini tidak memuat isi laporan, nomor pengaduan, maupun kata sandi Anda. WBS tidak pernah meminta ' +
  'kata sandi lewat e-mail. E-mail ini dikirim otomatis; mohon tidak membalasnya.';

/** The mail's text and HTML from the same parts, so the two always say the same. */
function render(
  head: { to: string; messageId: string; subject: string; headers?: Record<string, string> },
  parts: Part[],
): OutgoingMail {
  const text = parts
    .map((part) => ('text' in part ? part.text : `${part.label}:\n${part.href}`))
    .join('\n\n');
  const body = parts
    .map((part) =>
      'text' in part
        ? `<p>${escapeHtml(part.text).replace(/\n/g, '<br>\n')}</p>`
        : `<p><a href="${escapeHtml(part.href)}">${escapeHtml(part.label)}</a></p>`,
    )
    .join('\n');
  const subject = oneLine(head.subject, SUBJECT_MAX);
  const html =
    '<!doctype html>\n<html lang="id">\n<head><meta charset="utf-8">' +
    `<title>${escapeHtml(subject)}</title></head>\n` +
    `<body style="font-family: sans-serif; line-height: 1.5; max-width: 40em">\n${body}\n</body>\n</html>\n`;
  return {
    to: head.to,
    messageId: head.messageId,
    subject,
    text: `${text}\n`,
    html,
    ...(head.headers ? { headers: head.headers } : {}),
  };
}

/** A deterministic Message-ID on the sender's domain: the same `key` (content-free, e.g. `notice.123`) gives the same id. */
export function messageIdFor(key: string, from: MailSettings['from']): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$/.test(key))
    throw new TypeError('key must be letters, digits, . _ -');
  return `<${key}@${from.address.slice(from.address.lastIndexOf('@') + 1)}>`;
}

/** A handler is told that `count` notices of one kind wait at one company. */
export function handlerNoticeMail(input: {
  to: string;
  messageId: string;
  kind: NoticeKind;
  companyName: string;
  count: number;
  signInUrl: string;
}): OutgoingMail {
  const label = NOTICE_KIND_LABELS[input.kind];
  const count = countText(input.count);
  const company = companyLine(input.companyName);
  return render(
    { to: input.to, messageId: input.messageId, subject: `WBS: ${label} (${count}) di ${company}` },
    [
      { text: 'Yth. Bapak/Ibu,' },
      { text: `Ada ${count} pemberitahuan baru di WBS untuk ${company}: ${label}.` },
      { label: 'Masuk ke WBS untuk melihatnya', href: link(input.signInUrl, 'signInUrl') },
      { text: HANDLER_FOOTER },
    ],
  );
}

/** A handler's daily digest: per company and kind, how many notices; a one-click unsubscribe (RFC 8058). */
export function handlerDigestMail(input: {
  to: string;
  messageId: string;
  day: string;
  items: { kind: NoticeKind; companyName: string; count: number }[];
  signInUrl: string;
  preferencesUrl: string;
  /** The one-click address mail programs POST to (List-Unsubscribe, RFC 8058). */
  unsubscribeUrl: string;
  /**
   * The page a reader opens from the mail's own stop link: a browser follows a link with GET, which
   * must change nothing (link scanners open every link), so the page asks before it posts.
   */
  unsubscribePageUrl: string;
}): OutgoingMail {
  if (input.items.length === 0) throw new RangeError('a digest needs at least one item');
  const day = dayText(input.day);
  const unsubscribe = link(input.unsubscribeUrl, 'unsubscribeUrl');
  const lines = input.items.map(
    (item) =>
      `• ${companyLine(item.companyName)}: ${NOTICE_KIND_LABELS[item.kind]} (${countText(item.count)})`,
  );
  const shown = lines.slice(0, DIGEST_LINES_MAX);
  if (lines.length > shown.length)
    shown.push(`• dan ${countText(lines.length - shown.length)} baris lainnya`);
  return render(
    {
      to: input.to,
      messageId: input.messageId,
      subject: `WBS: ringkasan pemberitahuan ${day}`,
      headers: {
        'List-Unsubscribe': `<${unsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    },
    [
      { text: 'Yth. Bapak/Ibu,' },
      { text: `Ringkasan pemberitahuan WBS untuk Anda, ${day}:` },
      { text: shown.join('\n') },
      { label: 'Masuk ke WBS untuk melihatnya', href: link(input.signInUrl, 'signInUrl') },
      { label: 'Atur e-mail pemberitahuan', href: link(input.preferencesUrl, 'preferencesUrl') },
      {
        label: 'Berhenti menerima ringkasan ini',
        href: link(input.unsubscribePageUrl, 'unsubscribePageUrl'),
      },
      { text: HANDLER_FOOTER },
    ],
  );
}

/** A sign-in from a device not seen before; what to do when it was not the user. */
export function securityNoticeMail(input: {
  to: string;
  messageId: string;
  at: string;
  signInUrl: string;
}): OutgoingMail {
  return render({ to: input.to, messageId: input.messageId, subject: 'WBS: masuk dari perangkat baru' }, [
    { text: 'Yth. Bapak/Ibu,' },
    {
      text:
        `Akun WBS Anda dipakai untuk masuk dari perangkat atau peramban baru pada ${momentText(input.at)}.\n` +
        'Bila itu Anda, tidak ada yang perlu dilakukan.',
    },
    {
      text:
        'Bila bukan Anda, segera masuk dan ganti kata sandi Anda (menu Ubah Password); mengganti kata sandi ' +
        'mengakhiri sesi di perangkat lain. Bila menu itu tidak ada pada akun Anda, hubungi administrator WBS ' +
        'untuk mengatur ulang kata sandi.',
    },
    { label: 'Masuk ke WBS', href: link(input.signInUrl, 'signInUrl') },
    {
      text: 'Pemberitahuan keamanan ini selalu dikirim dan tidak dapat dimatikan. E-mail ini dikirim otomatis; mohon tidak membalasnya.',
    },
  ]);
}

/**
 * Wrong second-factor codes were typed after the right password, several in a row: someone may hold
 * the password. Sent once per run of wrong codes, at its first burst (docs/product/second-factor.md).
 */
export function secondFactorFailuresMail(input: {
  to: string;
  messageId: string;
  at: string;
  signInUrl: string;
}): OutgoingMail {
  return render(
    { to: input.to, messageId: input.messageId, subject: 'WBS: kode verifikasi salah berulang kali' },
    [
      { text: 'Yth. Bapak/Ibu,' },
      {
        text:
          `Kata sandi akun WBS Anda dimasukkan dengan benar, lalu kode verifikasi dua langkah yang salah dimasukkan beberapa kali berturut-turut pada ${momentText(input.at)}.\n` +
          'Bila itu Anda yang salah ketik, tidak ada yang perlu dilakukan.',
      },
      {
        text:
          'Bila bukan Anda, orang lain mungkin mengetahui kata sandi Anda: segera masuk dan ganti kata sandi Anda ' +
          '(menu Ubah Password); mengganti kata sandi mengakhiri sesi di perangkat lain. Bila menu itu tidak ada ' +
          'pada akun Anda, hubungi administrator WBS untuk mengatur ulang kata sandi.',
      },
      {
        text:
          'Bila kode yang salah terus dimasukkan, kode aplikasi autentikator tidak diterima lagi; Anda tetap dapat ' +
          'masuk dengan kode pemulihan atau passkey, atau meminta pengelola akun Anda mereset faktor kedua.',
      },
      { label: 'Masuk ke WBS', href: link(input.signInUrl, 'signInUrl') },
      {
        text: 'Pemberitahuan keamanan ini selalu dikirim dan tidak dapat dimatikan. E-mail ini dikirim otomatis; mohon tidak membalasnya.',
      },
    ],
  );
}

/** A reporter confirms that this address may be told of replies; which report is never said. */
export function reporterConfirmationMail(input: {
  to: string;
  messageId: string;
  confirmUrl: string;
}): OutgoingMail {
  return render({ to: input.to, messageId: input.messageId, subject: 'WBS: konfirmasi alamat e-mail' }, [
    { text: 'Yth. Bapak/Ibu,' },
    {
      text:
        'Alamat e-mail ini dimasukkan di WBS untuk menerima kabar bila ada tanggapan baru. ' +
        'Bila itu Anda, konfirmasikan lewat tautan berikut.',
    },
    { label: 'Konfirmasi alamat e-mail', href: link(input.confirmUrl, 'confirmUrl') },
    {
      text: 'Bila bukan Anda, abaikan e-mail ini: tanpa konfirmasi, alamat ini tidak akan menerima e-mail lagi.',
    },
    { text: REPORTER_FOOTER },
  ]);
}

/** A reporter is told that a reply is waiting in Pantau Laporan; nothing more. */
export function reporterNoticeMail(input: {
  to: string;
  messageId: string;
  trackUrl: string;
  optOutUrl: string;
}): OutgoingMail {
  return render({ to: input.to, messageId: input.messageId, subject: 'WBS: ada tanggapan baru' }, [
    { text: 'Yth. Bapak/Ibu,' },
    {
      text:
        'Ada tanggapan baru untuk Anda di WBS. Buka Pantau Laporan, lalu masukkan nomor pengaduan dan kata ' +
        'sandi Anda untuk membacanya.',
    },
    { label: 'Buka Pantau Laporan', href: link(input.trackUrl, 'trackUrl') },
    { label: 'Berhenti menerima e-mail ini', href: link(input.optOutUrl, 'optOutUrl') },
    { text: REPORTER_FOOTER },
  ]);
}
