/**
 * "Unduh salinan laporan saya": the reporter's copy of what the tracked view shows it, built in the
 * browser from what the view already holds (docs/product/following-a-report.md#the-reporters-copy).
 * Nothing else is asked for or added: the report as shown, the attachments' names, the activity log
 * with every note masked and no author (as the gateway sends it to a tracker, and as the view shows
 * it), and Pesan with every handler as "Tim Penanganan WBS". The file's name carries the day only.
 */
import { COMMUNICATION_TYPES, format, UI_MESSAGES, WHISTLEBLOWER_TYPES } from '@wbs/shared';
import type { Message } from '@wbs/shared/api/messages';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { CaseDetail } from '../case/detail.ts';
import { formatDateTime } from '../case/detail.ts';
import { replyPromiseText } from '../case/HandlingClock.tsx';
import { MESSAGE_TEXTS } from '../case/messages/texts.ts';
import { downloadPdf, PDF_PAGE, PDF_STYLES } from '../case/pdf.ts';
import { pdfText } from '../case/pdfText.ts';
import { PROTECTION_QUESTION, QUESTIONS } from '../case/questions.ts';
import { formatWib } from '../case/receiptTime.ts';
import { REPORTER_COPY_TEXTS } from './texts.ts';

export type ReporterCopyInput = {
  detail: CaseDetail;
  /**
   * Whether the view names the reporter beside the number (the tracked view does; a signed-in
   * pelapor's own case view does not, spec §5): the copy does as its view does.
   */
  showReporterName?: boolean;
  /** Pesan as the view holds it (oldest first). */
  messages: readonly Message[];
  generatedAt: Date;
};

const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

/**
 * `salinan-laporan-YYYYMMDD.pdf` (the WIB day): no complaint number, since file names end up in
 * download histories, synced folders and logs that the reporter does not control.
 */
export function reporterCopyFileName(generatedAt: Date): string {
  const day = new Date(generatedAt.getTime() + WIB_OFFSET_MS).toISOString().slice(0, 10).replaceAll('-', '');
  return `salinan-laporan-${day}.pdf`;
}

/** The document definition of the copy (pure: the same input gives the same document). */
export function reporterCopyDocument({
  detail,
  messages,
  generatedAt,
  showReporterName = true,
}: ReporterCopyInput): TDocumentDefinitions {
  let substituted = false;
  /** Every user-given text goes through here (see pdfText.ts). */
  const user = (value: string | null | undefined): string => {
    if (value === null || value === undefined || value === '') return '-';
    const shown = pdfText(value);
    substituted ||= shown.substituted;
    return shown.text;
  };

  const item = (label: string, value: Content, hint?: string): Content => ({
    stack: [{ text: label, style: 'label' }, value, ...(hint ? [{ text: hint, style: 'hint' }] : [])],
    margin: [0, 0, 0, 8],
  });
  const section = (title: string, body: Content[]): Content[] => [
    { text: title, style: 'section', margin: [0, 14, 0, 8] },
    ...body,
  ];

  const r = detail.reporter;
  const hidden = (label: string, value: string | null) =>
    r.identityHidden ? item(label, '-', UI_MESSAGES.identityHiddenHint) : item(label, user(value));
  const contact = (label: string, value: string | null) =>
    item(label, user(value), r.contactMasked ? UI_MESSAGES.contactMaskedHint : undefined);
  const typeName = WHISTLEBLOWER_TYPES.find((t) => t.id === r.type)?.name ?? '';
  const communication = detail.communication.types
    .map((id) => COMMUNICATION_TYPES.find((c) => c.id === id)?.name)
    .filter(Boolean)
    .join(', ');
  const protection =
    detail.report.needsProtection === null
      ? ''
      : `${detail.report.needsProtection ? 'Ya' : 'Tidak'}${detail.report.protectionReason ? ` — ${detail.report.protectionReason}` : ''}`;
  const link = detail.evidenceLink && /^https?:\/\//i.test(detail.evidenceLink) ? detail.evidenceLink : null;
  const promise = replyPromiseText(detail.handling);

  const header: Content[] = [
    { text: 'Whistleblowing System', style: 'brand' },
    { text: REPORTER_COPY_TEXTS.title, style: 'title', margin: [0, 4, 0, 8] },
    { text: format(REPORTER_COPY_TEXTS.intro, { time: formatWib(generatedAt) }), margin: [0, 0, 0, 4] },
    { text: REPORTER_COPY_TEXTS.keepSafe, style: 'hint', margin: [0, 0, 0, 12] },
    item('Nomor Laporan', { text: detail.number, bold: true }),
    item('Dibuat', formatDateTime(detail.createdAt)),
    item('Status', detail.status?.name ?? '-'),
    ...(showReporterName && !r.anonymous && r.name ? [item('Pelapor', user(r.name))] : []),
    ...(promise ? [{ text: promise, margin: [0, 0, 0, 4] } satisfies Content] : []),
  ];

  const identity = section('Identitas Pelapor', [
    item('Tanpa Identitas', r.anonymous ? 'Ya' : 'Tidak'),
    item('Identitas Pelapor', user(typeName)),
    ...(r.anonymous
      ? []
      : [
          hidden('Nama', r.name),
          hidden('Departemen', r.department),
          hidden('Alamat', r.address),
          hidden('Provinsi', r.provinceName),
          hidden('Kota', r.cityName),
          hidden('Kecamatan', r.districtName),
        ]),
    contact('Email', r.email),
    contact('Nomor Telepon', r.phone),
  ]);

  const communicationSection = section('Komunikasi', [
    item('Cara Komunikasi', user(communication)),
    item('Waktu Komunikasi', user(detail.communication.time)),
  ]);

  const report = section('Laporan Dugaan Pelanggaran', [
    ...(detail.companyName ? [item('Perusahaan', user(detail.companyName))] : []),
    item('Kategori Pengaduan', user(detail.categoryName)),
    ...QUESTIONS.map((q, index) => item(`${index + 1}. ${q.text}`, user(detail.report[q.field]))),
    item(`15. ${PROTECTION_QUESTION}`, user(protection)),
  ]);

  const involvedRows: TableCell[][] = detail.allegedlyInvolved.map((p) => [
    user(p.name),
    user(p.position),
    user(p.description),
  ]);
  const evidence = section('Bukti Pendukung', [
    item(
      'Lampiran',
      detail.attachments.length === 0 ? '-' : { ul: detail.attachments.map((a) => user(a.name)) },
    ),
    item(
      'Tautan Bukti Pendukung',
      link ? { text: user(link), link, color: '#163f78' } : user(detail.evidenceLink),
    ),
    ...(involvedRows.length > 0
      ? [
          { text: 'Pihak yang Diduga Terlibat', style: 'label' } satisfies Content,
          {
            table: {
              headerRows: 1,
              widths: ['*', '*', '*'],
              body: [
                [
                  { text: 'Nama', style: 'tableHeader' },
                  { text: 'Posisi', style: 'tableHeader' },
                  { text: 'Keterangan', style: 'tableHeader' },
                ],
                ...involvedRows,
              ],
            },
            layout: 'lightHorizontalLines',
            margin: [0, 4, 0, 8],
          } satisfies Content,
        ]
      : []),
  ]);

  // The tracked view masks every note (CaseDetailView `masked`): the copy never reads a note, an
  // author or a log attachment, whatever the reply held.
  const logs = section('Catatan Aktivitas', [
    detail.logs.length === 0
      ? { text: UI_MESSAGES.notFoundData, style: 'hint' }
      : {
          table: {
            headerRows: 1,
            widths: ['auto', 'auto', '*'],
            body: [
              [
                { text: 'Tanggal', style: 'tableHeader' },
                { text: 'Status', style: 'tableHeader' },
                { text: 'Catatan', style: 'tableHeader' },
              ],
              ...detail.logs.map((log): TableCell[] => [
                formatDateTime(log.createdAt),
                user(log.statusName),
                { stack: [UI_MESSAGES.maskedNote, { text: UI_MESSAGES.maskedNoteHint, style: 'hint' }] },
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
        },
  ]);

  // A handler is "Tim Penanganan WBS" by the message's side alone, never by a label or role it carries.
  const conversation = section(
    MESSAGE_TEXTS.tab,
    messages.length === 0
      ? [{ text: MESSAGE_TEXTS.empty, style: 'hint' }]
      : messages.map(
          (message): Content => ({
            stack: [
              {
                text: [
                  {
                    text: message.from === 'handler' ? UI_MESSAGES.handlerTeam : UI_MESSAGES.reporterLabel,
                    bold: true,
                  },
                  { text: `  ${formatDateTime(message.createdAt)}`, style: 'hint' },
                ],
              },
              { text: user(message.text) },
            ],
            margin: [0, 0, 0, 10],
          }),
        ),
  );

  // Last, once every user text has been through `user`.
  const body = [...identity, ...communicationSection, ...report, ...evidence, ...logs, ...conversation];
  return {
    ...PDF_PAGE,
    info: { title: REPORTER_COPY_TEXTS.title, subject: REPORTER_COPY_TEXTS.title },
    content: [
      ...header,
      ...(substituted ? [{ text: REPORTER_COPY_TEXTS.substituted, style: 'hint' } satisfies Content] : []),
      ...body,
    ],
    footer: (page, pages) => ({
      text: format(REPORTER_COPY_TEXTS.page, { page, pages }),
      style: 'hint',
      alignment: 'center',
      margin: [0, 24, 0, 0],
    }),
    styles: {
      ...PDF_STYLES,
      section: { fontSize: 14, bold: true, color: '#163f78' },
      tableHeader: { bold: true, fontSize: 10 },
    },
  };
}

/** Builds the copy and downloads it under its neutral name. */
export async function downloadReporterCopy(input: ReporterCopyInput): Promise<void> {
  await downloadPdf(reporterCopyDocument(input), reporterCopyFileName(input.generatedAt));
}
