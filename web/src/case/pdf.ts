/**
 * The browser's PDFs: the A4 page, the Roboto fonts and the styles every one of them shares, the
 * loader (pdfmake and its fonts load only when a PDF is asked for, fonts as same-origin assets, never
 * a third-party request), and the PDF of "Unduh Nomor Pengaduan". With the gateway's signed receipt it
 * carries the code as a QR code (pdfmake's own `qr` node, offline) and as text, and in the document's
 * Keywords, from which the Verifikasi Tanda Terima page reads it back.
 */

import type { Receipt } from '@wbs/shared/api/case-create';
import italicUrl from 'pdfmake/build/fonts/Roboto/Roboto-Italic.ttf?url';
import mediumUrl from 'pdfmake/build/fonts/Roboto/Roboto-Medium.ttf?url';
import mediumItalicUrl from 'pdfmake/build/fonts/Roboto/Roboto-MediumItalic.ttf?url';
import regularUrl from 'pdfmake/build/fonts/Roboto/Roboto-Regular.ttf?url';
import type { Content, StyleDictionary, TDocumentDefinitions } from 'pdfmake/interfaces';
import { retryImport } from '../ui/lazyWithRetry.tsx';
import { formatWib } from './receiptTime.ts';
import { CASE_NUMBER_REMINDER } from './reminder.ts';

/** Page, margins and body text of every PDF the browser makes. */
export const PDF_PAGE: Pick<TDocumentDefinitions, 'pageSize' | 'pageMargins' | 'defaultStyle'> = {
  pageSize: 'A4',
  pageMargins: [56, 64, 56, 64],
  defaultStyle: { font: 'Roboto', fontSize: 11, lineHeight: 1.3 },
};

/** The styles the PDFs share (each document may add its own). */
export const PDF_STYLES: StyleDictionary = {
  brand: { fontSize: 12, color: '#163f78', bold: true },
  title: { fontSize: 20, bold: true },
  label: { fontSize: 10, color: '#52525b' },
  hint: { fontSize: 8, color: '#52525b' },
};

const absolute = (url: string) => new URL(url, window.location.origin).href;

/** Builds `doc` with pdfmake and the bundled Roboto fonts, and downloads it as `fileName`. */
export async function downloadPdf(doc: TDocumentDefinitions, fileName: string): Promise<void> {
  const mod = await retryImport(() => import('pdfmake/build/pdfmake'));
  const pdfMake = (mod.default ?? mod) as typeof mod.default;
  // Fonts (the only resources the documents name) come from this origin, nowhere else.
  pdfMake.setUrlAccessPolicy((url) => url.startsWith(`${window.location.origin}/`));
  pdfMake.setFonts({
    Roboto: {
      normal: absolute(regularUrl),
      bold: absolute(mediumUrl),
      italics: absolute(italicUrl),
      bolditalics: absolute(mediumItalicUrl),
    },
  });
  await pdfMake.createPdf(doc).download(fileName);
}

function receiptContent(receipt: Receipt): Content[] {
  return [
    { text: 'Tanda Terima Digital', style: 'label', margin: [0, 24, 0, 6] },
    { qr: receipt.code, fit: 190, eccLevel: 'M', margin: [0, 0, 0, 8] },
    {
      text: 'Kode tanda terima (ditandatangani sistem; periksa di halaman Verifikasi Tanda Terima):',
      style: 'label',
    },
    { text: receipt.code, style: 'code', margin: [0, 4, 0, 0] },
  ];
}

export function caseNumberDocument(
  caseNumber: string,
  createdAt: Date,
  receipt?: Receipt,
): TDocumentDefinitions {
  return {
    ...PDF_PAGE,
    info: { title: `Nomor Pengaduan ${caseNumber}`, ...(receipt ? { keywords: receipt.code } : {}) },
    content: [
      { text: 'Whistleblowing System', style: 'brand' },
      { text: 'Bukti Pengaduan', style: 'title', margin: [0, 4, 0, 24] },
      { text: 'Nomor Pengaduan', style: 'label' },
      { text: caseNumber, style: 'number', margin: [0, 4, 0, 16] },
      { text: 'Tanggal dibuat', style: 'label' },
      { text: formatWib(createdAt), margin: [0, 4, 0, 24] },
      { text: CASE_NUMBER_REMINDER, style: 'reminder' },
      ...(receipt ? receiptContent(receipt) : []),
    ],
    styles: {
      ...PDF_STYLES,
      number: { fontSize: 26, bold: true, color: '#163f78' },
      reminder: { fontSize: 11, italics: true },
      code: { fontSize: 7, color: '#3f3f46' },
    },
  };
}

export async function downloadCaseNumberPdf(
  caseNumber: string,
  createdAt = new Date(),
  receipt?: Receipt,
): Promise<void> {
  await downloadPdf(caseNumberDocument(caseNumber, createdAt, receipt), `${caseNumber}.pdf`);
}
