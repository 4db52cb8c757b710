/**
 * Passing a legacy file reply through to the browser as a download: streamed (never buffered), with a
 * content type from the legacy (or application/octet-stream), an RFC 6266 `content-disposition` whose
 * file name we choose, and headers that keep a browser from ever rendering it.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifySchema } from 'fastify';
import type { Dispatcher } from 'undici';
import { type RouteSchemaInput, routeSchema } from '../../schema.ts';
import { MIME } from '../../uploads/mime.ts';
import { cleanFileName } from '../../uploads/policy.ts';

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const FALLBACK_TYPE = 'application/octet-stream';

/** The media type of a legacy `content-type` (parameters other than charset dropped). */
export function safeContentType(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return FALLBACK_TYPE;
  const [type = '', ...params] = value.split(';').map((p) => p.trim());
  if (!MEDIA_TYPE.test(type)) return FALLBACK_TYPE;
  const charset = params.find((p) => /^charset=[\w.-]{1,40}$/i.test(p));
  return charset ? `${type.toLowerCase()}; ${charset.toLowerCase()}` : type.toLowerCase();
}

/** The upload policy's cleaning (last path segment, no control characters, 200 at most), or `fallback`. */
function cleanName(name: string, fallback: string): string {
  const cleaned = cleanFileName(name);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? fallback : cleaned;
}

/** RFC 5987 `value-chars`: percent-encode everything but attr-chars. */
const rfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded` (RFC 6266). */
export function contentDisposition(name: string, fallback = 'lampiran'): string {
  const clean = cleanName(name, fallback);
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(clean)}`;
}

/** The `filename` of a legacy `content-disposition` (either form), or null. */
export function legacyFileName(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(value);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall back to the plain parameter
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(value)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(value)?.[1] ?? null;
}

/** Sends the legacy reply's body as a download named `name`. */
export function sendDownload(reply: FastifyReply, upstream: Dispatcher.ResponseData, name: string) {
  const length = upstream.headers['content-length'];
  const size = Array.isArray(length) ? length[0] : length;
  return sendFile(reply, upstream.body, {
    name,
    contentType: safeContentType(upstream.headers['content-type']),
    size: size && /^\d{1,15}$/.test(size) ? size : undefined,
  });
}

/** Sends `body` as a download (headers that keep a browser from ever rendering it). */
export function sendFile(
  reply: FastifyReply,
  body: Readable,
  file: { name: string; contentType: string; size?: string | undefined },
) {
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'no-store');
  if (file.size) reply.header('content-length', file.size);
  return reply.send(body);
}

/** What an attachment is served as: the types an upload may have (stored by the legacy as sent), or the fallback. */
const ATTACHMENT_MEDIA_TYPES = [...new Set([...Object.values(MIME), FALLBACK_TYPE])].sort();

/** The route schema of a download: the usual problems, and a binary 200. */
export function downloadSchema(
  input: Omit<RouteSchemaInput, 'response'>,
  mediaTypes: string[] = ATTACHMENT_MEDIA_TYPES,
): FastifySchema {
  const schema = routeSchema({ ...input, response: {} });
  const response = schema.response as Record<string, unknown>;
  const binary = { schema: { type: 'string', format: 'binary' } };
  response[200] = {
    description: 'Berkas (attachment)',
    content: Object.fromEntries(mediaTypes.map((type) => [type, binary])),
  };
  return schema;
}
