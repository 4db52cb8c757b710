/**
 * Sends a checked, scrubbed upload to the legacy as multipart: text parts plus the spooled files,
 * streamed from disk (`fs.openAsBlob` blobs inside an undici `FormData`: undici reads them in chunks
 * and sends a Content-Length, nothing is held whole in memory).
 * The reply goes through the legacy client's one mapping of envelopes, codes and statuses.
 */
import { openAsBlob } from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { FormData } from 'undici';
import type * as v from 'valibot';
import type { LegacyAuth } from '../legacy/client.ts';
import type { SpooledFile } from './spool.ts';

/** The Content-Type sent for each detected content (the legacy stores it for downloads). */
export const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  ai: 'application/pdf',
  png: 'image/png',
  apng: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
};

export type LegacyUpload<T> = {
  name: string;
  path: string;
  auth?: LegacyAuth | null;
  fields: Record<string, string>;
  files: { field: string; file: SpooledFile }[];
  data: v.GenericSchema<unknown, T>;
};

export async function postLegacyMultipart<T>(
  request: FastifyRequest,
  upload: LegacyUpload<T>,
): Promise<{ data: T; messages: string[] }> {
  const form = new FormData();
  for (const [field, value] of Object.entries(upload.fields)) form.append(field, value);
  for (const { field, file } of upload.files) {
    const blob = await openAsBlob(file.path, { type: MIME[file.detected] ?? 'application/octet-stream' });
    form.append(field, blob, file.name);
  }
  return request.legacy.call({
    name: upload.name,
    method: 'POST',
    path: upload.path,
    body: form,
    data: upload.data,
    ...(upload.auth === undefined ? {} : { auth: upload.auth }),
  });
}
