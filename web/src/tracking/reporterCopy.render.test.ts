// @vitest-environment node
/**
 * The copy's definition as pdfmake itself lays it out (its server build, the same Roboto files): a
 * report at the limits (every answer long, 1,000 messages of 4,000 characters with emoji, right-to-left
 * text and controls) becomes a PDF of many A4 pages, in the time a reporter can wait.
 */
import { createRequire } from 'node:module';
import type { Message } from '@wbs/shared/api/messages';
import { MESSAGE_MAX_LENGTH } from '@wbs/shared/api/messages';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';
import { describe, expect, it } from 'vitest';
import { sampleDetail } from '../case/detail.fixture.ts';
import type { CaseDetail } from '../case/detail.ts';
import { QUESTIONS } from '../case/questions.ts';
import { reporterCopyDocument } from './reporterCopy.ts';

type ServerPdfMake = {
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Buffer> };
};

function serverPdfMake(): ServerPdfMake {
  const require = createRequire(import.meta.url);
  const pdfmake = require('pdfmake') as ServerPdfMake;
  const font = (face: string) => require.resolve(`pdfmake/build/fonts/Roboto/Roboto-${face}.ttf`);
  pdfmake.setFonts({
    Roboto: {
      normal: font('Regular'),
      bold: font('Medium'),
      italics: font('Italic'),
      bolditalics: font('MediumItalic'),
    },
  });
  // The document names no URL: any request would be a mistake.
  pdfmake.setUrlAccessPolicy(() => false);
  return pdfmake;
}

const TEXT =
  'Dugaan suap pengadaan meter air 😀👍🏽 مرحبا بالعالم \u202e terbalik \u0007 Ελληνικά Tiếng Việt ' +
  'x'.repeat(120) +
  '\n';
const long = (length: number) => TEXT.repeat(Math.ceil(length / TEXT.length)).slice(0, length);

describe('the copy as pdfmake lays it out', () => {
  it('a report at the limits becomes a many-page A4 PDF', async () => {
    const detail: CaseDetail = {
      ...sampleDetail,
      report: {
        ...sampleDetail.report,
        ...Object.fromEntries(QUESTIONS.map((q) => [q.field, long(q.kind === 'long' ? 20_000 : 500)])),
      },
      allegedlyInvolved: Array.from({ length: 50 }, (_, i) => ({
        name: `Terlapor ${i}`,
        position: long(200),
        description: long(2000),
      })),
      logs: Array.from({ length: 100 }, (_, i) => ({
        ...(sampleDetail.logs[0] as CaseDetail['logs'][number]),
        id: i,
      })),
    };
    const messages: Message[] = Array.from({ length: 1000 }, (_, i) => ({
      id: i,
      from: i % 2 ? 'handler' : 'reporter',
      authorLabel: i % 2 ? 'Tim Penanganan WBS' : 'Pelapor',
      authorRole: null,
      text: long(MESSAGE_MAX_LENGTH),
      createdAt: '2026-05-05T09:00:00',
      isNew: false,
    }));
    const started = performance.now();
    const pdf = await serverPdfMake()
      .createPdf(reporterCopyDocument({ detail, messages, generatedAt: new Date() }))
      .getBuffer();
    const seconds = (performance.now() - started) / 1000;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
    expect(pages).toBeGreaterThan(500);
    expect(seconds).toBeLessThan(60);
  }, 120_000);
});
