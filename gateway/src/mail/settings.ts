/**
 * The mail settings read from the environment (config.ts calls these): SMTP_URL, MAIL_FROM and
 * PUBLIC_URL. Each parser answers the settings or `{ problem }`, a text that completes a sentence
 * starting with the variable's name. A problem never echoes the value: SMTP_URL may hold a password.
 */
import { isIP } from 'node:net';

export type SmtpSettings = {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. */
  secure: boolean;
  /**
   * smtp:// to any host but loopback: the server must offer STARTTLS and the session is upgraded
   * before anything (credentials, addresses) is sent; a server without it is refused.
   */
  requireTls: boolean;
  /** smtp:// to loopback: plain SMTP, STARTTLS not even tried (a local relay's certificate names another host). */
  ignoreTls: boolean;
  auth: { user: string; pass: string } | null;
  /** PEM of the private CA the server's certificate is signed by (SMTP_CA_FILE); else the system's. */
  ca: string | undefined;
  /** The bound of one send, from the first connection attempt to the server's final answer. */
  timeoutMs: number;
};

export type MailSettings = {
  /** null: SMTP_URL is not set, so no mail is sent (`mailer().configured` is false). */
  smtp: SmtpSettings | null;
  /** The From of every mail (MAIL_FROM). */
  from: { name: string; address: string };
};

export type Problem = { problem: string };

const SMTP_EXAMPLE = 'such as smtps://user:password@mail.example.co.id:465 or smtp://mail.example.co.id:587';

/** Loopback by name or address: the only hosts plain SMTP may be spoken to. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(bare);
}

export function smtpServer(
  text: string,
  extra: { ca: string | undefined; timeoutMs: number },
): SmtpSettings | Problem {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `must be a URL ${SMTP_EXAMPLE}` };
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    return { problem: `must start with smtp:// or smtps:// (${SMTP_EXAMPLE})` };
  }
  if (url.hostname === '') return { problem: 'must name the SMTP server host' };
  if (
    (url.pathname !== '' && url.pathname !== '/') ||
    url.search !== '' ||
    url.hash !== '' ||
    /[?#]/.test(text)
  ) {
    return { problem: 'must not have a path, query or fragment' };
  }
  if ((url.username === '') !== (url.password === '')) {
    return { problem: 'must give both a user name and a password, or neither' };
  }
  let auth: SmtpSettings['auth'] = null;
  if (url.username !== '') {
    try {
      auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
    } catch {
      return { problem: 'has a user name or password that is not valid percent-encoding' };
    }
  }
  const secure = url.protocol === 'smtps:';
  const loopback = isLoopbackHost(url.hostname);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    requireTls: !secure && !loopback,
    ignoreTls: !secure && loopback,
    auth,
    ca: extra.ca,
    timeoutMs: extra.timeoutMs,
  };
}

/** A mailbox as RFC 5322 wants it (ASCII; an internationalised domain is given in punycode). */
const ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Whether `text` is one plain mailbox address (no name, no list, no line break), at most 254 characters. */
export function isMailAddress(text: string): boolean {
  return text.length <= 254 && ADDRESS.test(text);
}

export function mailFrom(text: string): MailSettings['from'] | Problem {
  const example =
    'must be an address such as no-reply@wbs.example.co.id or "WBS <no-reply@wbs.example.co.id>"';
  if (/[\p{Cc}\u2028\u2029]/u.test(text)) return { problem: 'must be one line without control characters' };
  const named = /^(.*?)\s*<([^<>]*)>$/.exec(text);
  const name = (named?.[1] ?? '').replace(/^"(.*)"$/, '$1').trim();
  const address = (named ? (named[2] ?? '') : text).trim();
  if (!isMailAddress(address)) return { problem: example };
  if (name.length > 64 || /[<>"\\]/.test(name)) {
    return { problem: 'must have a display name of at most 64 characters without <, >, " or \\' };
  }
  return { name, address };
}

/** PUBLIC_URL as the base of links: http(s), no credentials, query or fragment, no trailing slash. */
export function publicUrl(text: string): string | Problem {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'must be an absolute http(s) URL such as https://wbs.example.co.id' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: 'must be an absolute http(s) URL such as https://wbs.example.co.id' };
  }
  if (url.username !== '' || url.password !== '') return { problem: 'must not hold a user name or password' };
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(text)) {
    return { problem: 'must not have a query (?) or fragment (#)' };
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
