/**
 * Test helpers of the resumable uploads (routes/uploads): a tus client in `fastify.inject` calls,
 * speaking the protocol by hand so tests can cut, resume and misbehave exactly.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export const TUS = { 'tus-resumable': '1.0.0' };

export const tusMetadata = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, value]) => `${k} ${Buffer.from(value).toString('base64')}`)
    .join(',');

export async function openDraft(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/upload-drafts' });
  if (res.statusCode !== 201) throw new Error(`draft: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

/** Opens a draft at one of the other forms' routes (Tambah Bukti, activity log); the reply as it is. */
export function openDraftAt(
  app: FastifyInstance,
  url: string,
  options: { headers?: Record<string, string>; payload?: Record<string, unknown> } = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { origin: 'http://localhost', ...options.headers },
    ...(options.payload ? { payload: options.payload } : {}),
  });
}

/** `extra`: more headers (a signed-in caller's cookie and origin). */
export function createUpload(
  app: FastifyInstance,
  token: string,
  file: { field: string; name: string; size: number },
  extra: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: {
      ...TUS,
      'upload-draft': token,
      'upload-length': String(file.size),
      'upload-metadata': tusMetadata({ filename: file.name, field: file.field }),
      ...extra,
    },
  });
}

/** The upload's id from a creation reply's Location. */
export const uploadIdOf = (location: unknown) => String(location).split('/').pop() ?? '';

/** A PATCH of `bytes` at `offset`; a stream body stands for a link that stalls or drops mid-way. */
export function patch(
  app: FastifyInstance,
  token: string,
  id: string,
  offset: number,
  bytes: Uint8Array | Readable,
  extra: Record<string, string> = {},
) {
  return app.inject({
    method: 'PATCH',
    url: `/api/v1/uploads/${id}`,
    headers: {
      ...TUS,
      'upload-draft': token,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      ...extra,
    },
    payload: bytes instanceof Readable ? bytes : Buffer.from(bytes),
  });
}

export function head(app: FastifyInstance, token: string, id: string, extra: Record<string, string> = {}) {
  return app.inject({
    method: 'HEAD',
    url: `/api/v1/uploads/${id}`,
    headers: { ...TUS, 'upload-draft': token, ...extra },
  });
}

export async function draftFiles(app: FastifyInstance, token: string, extra: Record<string, string> = {}) {
  const res = await app.inject({
    method: 'GET',
    url: '/api/v1/upload-drafts/files',
    headers: { 'upload-draft': token, ...extra },
  });
  return res;
}

/** Uploads a whole file in `chunks` PATCHes; returns its id. */
export async function uploadWhole(
  app: FastifyInstance,
  token: string,
  file: { field: string; name: string; bytes: Uint8Array },
  chunks = 1,
  extra: Record<string, string> = {},
): Promise<string> {
  const created = await createUpload(app, token, { ...file, size: file.bytes.length }, extra);
  if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const id = uploadIdOf(created.headers.location);
  const step = Math.ceil(file.bytes.length / chunks);
  for (let offset = 0; offset < file.bytes.length; offset += step) {
    const res = await patch(app, token, id, offset, file.bytes.subarray(offset, offset + step), extra);
    if (res.statusCode !== 204) throw new Error(`patch: ${res.statusCode} ${res.body}`);
  }
  return id;
}
