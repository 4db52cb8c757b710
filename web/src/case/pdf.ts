/** The A4 PDF of "Unduh Nomor Pengaduan"; pdfmake and its Roboto fonts load only when asked for. */
import italicUrl from 'pdfmake/build/fonts/Roboto/Roboto-Italic.ttf?url';
import mediumUrl from 'pdfmake/build/fonts/Roboto/Roboto-Medium.ttf?url';
import mediumItalicUrl from 'pdfmake/build/fonts/Roboto/Roboto-MediumItalic.ttf?url';
import regularUrl from 'pdfmake/build/fonts/Roboto/Roboto-Regular.ttf?url';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';
import { retryImport } from '../ui/lazyWithRetry.tsx';
import { formatWib } from './receiptTime.ts';
import { CASE_NUMBER_REMINDER } from './reminder.ts';

const absolute = (url: string) => new URL(url, window.location.origin).href;

export function caseNumberDocument(caseNumber: string, createdAt: Date): TDocumentDefinitions {
  return {
    pageSize: 'A4',
    pageMargins: [56, 64, 56, 64],
    info: { title: `Nomor Pengaduan ${caseNumber}` },
    defaultStyle: { font: 'Roboto', fontSize: 11, lineHeight: 1.3 },
    content: [
      { text: 'Whistleblowing System', style: 'brand' },
      { text: 'Bukti Pengaduan', style: 'title', margin: [0, 4, 0, 24] },
      { text: 'Nomor Pengaduan', style: 'label' },
      { text: caseNumber, style: 'number', margin: [0, 4, 0, 16] },
      { text: 'Tanggal dibuat', style: 'label' },
      { text: formatWib(createdAt), margin: [0, 4, 0, 24] },
      { text: CASE_NUMBER_REMINDER, style: 'reminder' },
    ],
    styles: {
      brand: { fontSize: 12, color: '#163f78', bold: true },
      title: { fontSize: 20, bold: true },
      label: { fontSize: 10, color: '#52525b' },
      number: { fontSize: 26, bold: true, color: '#163f78' },
      reminder: { fontSize: 11, italics: true },
    },
  };
}

export async function downloadCaseNumberPdf(caseNumber: string, createdAt = new Date()): Promise<void> {
  const mod = await retryImport(() => import('pdfmake/build/pdfmake'));
  const pdfMake = (mod.default ?? mod) as typeof mod.default;
  pdfMake.setUrlAccessPolicy((url) => url.startsWith(`${window.location.origin}/`));
  pdfMake.setFonts({
    Roboto: {
      normal: absolute(regularUrl),
      bold: absolute(mediumUrl),
      italics: absolute(italicUrl),
      bolditalics: absolute(mediumItalicUrl),
    },
  });
  await pdfMake.createPdf(caseNumberDocument(caseNumber, createdAt)).download(`${caseNumber}.pdf`);
}
