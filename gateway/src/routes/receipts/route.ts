/**
 * Receipts (public, no session): GET /receipts/public-key publishes every receipt key (JWK and
 * PEM), GET /receipts/public-key.pem the signing key's PEM alone, and POST /receipts/verify checks
 * a receipt code. Verifying needs nothing of ours but the public key (docs/receipts.md); the code
 * travels in the body, never in a URL (it carries a complaint number).
 */
import {
  type ReceiptVerifyReply,
  type ReceiptVerifyRequest,
  receiptPublicKeysReply,
  receiptVerifyReply,
  receiptVerifyRequest,
} from '@wbs/shared/api/receipts';
import type { FastifyInstance } from 'fastify';
import { publishedKeys, verifyReceipt } from '../../receipts/receipt.ts';
import { routeSchema } from '../../schema.ts';
import { downloadSchema } from '../cases/files.ts';

const TAGS = ['receipts'];

export default async function receiptRoutes(app: FastifyInstance) {
  const keys = app.config.receiptKeys;
  const published = publishedKeys(keys);
  const signing = published.at(-1);

  app.get(
    '/receipts/public-key',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Kunci publik tanda terima (JWK dan PEM)',
        description:
          'Semua kunci Ed25519 yang pernah menandatangani tanda terima (rotasi: kunci lama tetap terbit); ' +
          '`signingKeyId` menandatangani tanda terima baru. Cara memeriksa tanpa kami: docs/receipts.md.',
        tags: TAGS,
        response: { 200: receiptPublicKeysReply },
      }),
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { algorithm: 'Ed25519', signingKeyId: signing?.kid ?? '', keys: published };
    },
  );

  app.get(
    '/receipts/public-key.pem',
    {
      config: { policy: 'public' },
      schema: downloadSchema({ summary: 'Kunci publik penandatangan tanda terima (PEM, SPKI)', tags: TAGS }, [
        'application/x-pem-file',
      ]),
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'application/x-pem-file')
        .header('cache-control', 'public, max-age=300')
        .send(signing?.pem ?? ''),
  );

  app.post<{ Body: ReceiptVerifyRequest }>(
    '/receipts/verify',
    {
      config: { policy: 'public' },
      schema: routeSchema({
        summary: 'Verifikasi tanda terima',
        description: 'Memeriksa tanda tangan kode tanda terima. Tidak sah: `valid: false` tanpa alasan.',
        tags: TAGS,
        body: receiptVerifyRequest,
        response: { 200: receiptVerifyReply },
      }),
    },
    async (request): Promise<ReceiptVerifyReply> => {
      const verdict = verifyReceipt(keys, request.body.code);
      if (!verdict.valid) return { valid: false, caseNumber: null, filedAt: null, keyId: null, digest: null };
      const { caseNumber, filedAt, keyId, digest } = verdict.claims;
      return { valid: true, caseNumber, filedAt, keyId, digest };
    },
  );
}
