/**
 * The reporter's copy (document definition): every text the tracked view shows is in it, nothing the
 * view does not show (no handler name or role, no note, no log author or file, no channel or line),
 * every note masked, an anonymous report without identity fields, a neutral file name, and generated
 * texts of every class a reporter can type kept whole and printable.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Message } from '@wbs/shared/api/messages';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaseDetailView } from '../case/CaseDetailView.tsx';
import { sampleDetail } from '../case/detail.fixture.ts';
import type { CaseDetail } from '../case/detail.ts';
import { hasRobotoGlyph, pdfText } from '../case/pdfText.ts';
import { QUESTIONS } from '../case/questions.ts';
import { system } from '../theme.ts';
import { reporterCopyDocument, reporterCopyFileName } from './reporterCopy.ts';
import { REPORTER_COPY_TEXTS } from './texts.ts';

vi.mock('../ui/toaster.tsx', () => ({ notify: { problem: vi.fn() } }));

afterEach(cleanup);

/** What a tracker is sent, plus what it never is: the copy must not show those even if they came. */
const tracked: CaseDetail = {
  ...sampleDetail,
  caseLineId: 4,
  caseLineName: 'Jalur Direksi Rahasia',
  channelName: 'Saluran Desktop',
  evidenceLink: 'https://drive.example.id/bukti-saya',
  allegedlyInvolved: [
    { name: 'Yusuf Terlapor', position: 'Kepala Gudang', description: null },
    { name: 'Zaki', position: 'Staf', description: 'Ikut menandatangani' },
  ],
  attachments: [
    { id: 9, name: 'bukti.pdf' },
    { id: 10, name: 'foto-gudang.png' },
  ],
  logs: [
    {
      id: 1,
      createdAt: '2026-05-04T10:00:00',
      statusName: 'Diterima',
      message: 'Catatan rahasia penyidik',
      noteHidden: false,
      createdBy: 'Siti Penyidik',
      attachmentName: 'memo-internal.pdf',
    },
    {
      id: 2,
      createdAt: '2026-05-06T11:30:00',
      statusName: 'Investigasi',
      message: '**********',
      noteHidden: true,
      createdBy: null,
      attachmentName: null,
    },
  ],
};

const messages: Message[] = [
  {
    id: 1,
    from: 'reporter',
    authorLabel: 'Pelapor',
    authorRole: null,
    text: 'Apakah laporan saya sudah dibaca?',
    createdAt: '2026-05-05T09:00:00',
    isNew: false,
  },
  {
    id: 2,
    from: 'handler',
    // Never sent to a reporter; the copy names the side, not the label.
    authorLabel: 'Andi Penangan',
    authorRole: 'Analis Perusahaan',
    text: 'Sudah, mohon kirim dokumen pendukung.',
    createdAt: '2026-05-05T10:00:00',
    isNew: true,
  },
];

const GENERATED_AT = new Date('2026-05-07T03:04:00Z');

/** Every text of a document definition, in order (what pdfmake prints, footer included). */
function textsOf(doc: TDocumentDefinitions): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') out.push(node);
    else if (typeof node === 'number') out.push(String(node));
    else if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (['text', 'stack', 'ul', 'ol', 'table', 'body', 'columns'].includes(key)) walk(value);
      }
    }
  };
  walk(doc.content);
  walk(doc.info);
  if (typeof doc.footer === 'function')
    walk(doc.footer(1, 2, { width: 595, height: 842, orientation: 'portrait' }));
  return out;
}

/** The document as one text, without the break chances pdfText inserts. */
const docText = (doc: TDocumentDefinitions) => textsOf(doc).join('\n').replaceAll('\u200b', '');

/** Every text node of the view's tab panels (Informasi Laporan, then Catatan Aktivitas), trimmed. */
async function viewTexts(detail: CaseDetail): Promise<string[]> {
  render(
    <ChakraProvider value={system}>
      <CaseDetailView detail={detail} masked showReporterName onBack={() => {}} />
    </ChakraProvider>,
  );
  const collect = () => {
    const panel = screen.getByRole('tabpanel');
    const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    const texts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text) texts.push(text);
    }
    return texts;
  };
  const info = collect();
  await act(async () => {
    fireEvent.click(screen.getByRole('tab', { name: 'Catatan Aktivitas' }));
  });
  await screen.findByRole('table', { name: 'Catatan Aktivitas' });
  const logs = collect();
  cleanup();
  return [...info, ...logs];
}

describe('the reporter copy holds what the tracked view shows', () => {
  it('every text of Informasi Laporan and Catatan Aktivitas, the header facts and Pesan', async () => {
    const doc = reporterCopyDocument({ detail: tracked, messages, generatedAt: GENERATED_AT });
    const text = docText(doc);
    const shown = await viewTexts(tracked);
    expect(shown.length).toBeGreaterThan(40);
    for (const piece of shown) expect(text, piece).toContain(piece);

    for (const fact of [tracked.number, '03/05/2026 08:15', 'Diterima', 'Pelapor', 'Budi'])
      expect(text).toContain(fact);
    expect(text).toContain('Laporan Anda akan ditanggapi paling lambat 03/08/2026');
    expect(text).toContain('Apakah laporan saya sudah dibaca?');
    expect(text).toContain('Sudah, mohon kirim dokumen pendukung.');
    expect(text).toContain(`${UI_MESSAGES.handlerTeam}\n  05/05/2026 10:00`);
    expect(text).toContain(`${UI_MESSAGES.reporterLabel}\n  05/05/2026 09:00`);
    expect(text).toContain(tracked.attachments[1]?.name);
    expect(text).toContain('07/05/2026 10:04 WIB');
    expect(text).toContain('Halaman 1 dari 2');
  });

  it('holds no handler name or role, no note, no log author or file, nothing the view leaves out', () => {
    const text = docText(reporterCopyDocument({ detail: tracked, messages, generatedAt: GENERATED_AT }));
    for (const absent of [
      'Andi Penangan',
      'Analis Perusahaan',
      'Catatan rahasia penyidik',
      'Siti Penyidik',
      'memo-internal.pdf',
      'Jalur Direksi Rahasia',
      'Saluran Desktop',
      'Oleh',
      'Baru',
    ]) {
      expect(text).not.toContain(absent);
    }
  });

  it('masks every note as the tracked view does, whatever the log carried', () => {
    const texts = textsOf(reporterCopyDocument({ detail: tracked, messages, generatedAt: GENERATED_AT }));
    expect(texts.filter((t) => t === UI_MESSAGES.maskedNote)).toHaveLength(tracked.logs.length);
    expect(texts.filter((t) => t === UI_MESSAGES.maskedNoteHint)).toHaveLength(tracked.logs.length);
  });

  it('an anonymous report has no identity fields, in the view or in the copy', async () => {
    const anonymous: CaseDetail = {
      ...tracked,
      reporter: {
        ...tracked.reporter,
        anonymous: true,
        name: null,
        department: null,
        address: null,
        provinceName: null,
        cityName: null,
        districtName: null,
      },
    };
    const doc = reporterCopyDocument({ detail: anonymous, messages: [], generatedAt: GENERATED_AT });
    const texts = textsOf(doc);
    for (const label of ['Departemen', 'Alamat', 'Provinsi', 'Kota', 'Kecamatan', 'Pelapor']) {
      expect(texts).not.toContain(label);
    }
    // Only the column of Pihak yang Diduga Terlibat.
    expect(texts.filter((t) => t === 'Nama')).toHaveLength(1);
    expect(texts).toContain('Tanpa Identitas');
    expect(texts).toContain('Ya');
    expect(texts).toContain('Belum ada pesan.');
    const text = docText(doc);
    for (const piece of await viewTexts(anonymous)) expect(text, piece).toContain(piece);
  });

  it("leaves the reporter's name out of the header where the view does (a signed-in pelapor's own case)", () => {
    const count = (showReporterName: boolean) =>
      textsOf(
        reporterCopyDocument({ detail: tracked, messages, generatedAt: GENERATED_AT, showReporterName }),
      ).filter((text) => text === 'Pelapor').length;
    expect(count(true) - count(false)).toBe(1);
  });

  it('a case without logs says so', () => {
    const texts = textsOf(
      reporterCopyDocument({ detail: { ...tracked, logs: [] }, messages, generatedAt: GENERATED_AT }),
    );
    expect(texts).toContain(UI_MESSAGES.notFoundData);
    expect(texts).not.toContain(UI_MESSAGES.maskedNote);
  });
});

describe('the file name', () => {
  it('is salinan-laporan-YYYYMMDD.pdf on the WIB day, never the complaint number', () => {
    expect(reporterCopyFileName(GENERATED_AT)).toBe('salinan-laporan-20260507.pdf');
    // 18:30 UTC is already the next day in WIB.
    expect(reporterCopyFileName(new Date('2026-05-07T18:30:00Z'))).toBe('salinan-laporan-20260508.pdf');
    expect(reporterCopyFileName(GENERATED_AT)).not.toMatch(/WBS|\d{8}\d/);
  });
});

/** A small deterministic generator, so a failure names a reproducible input. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Rand = () => number;
const pick = <T,>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const repeat = (rand: Rand, max: number, piece: () => string) =>
  Array.from({ length: 1 + Math.floor(rand() * max) }, piece).join('');

const PIECES: Record<string, readonly string[]> = {
  long: ['laporan ', 'dugaan suap ', 'pengadaan meter air ', 'Rp 50.000.000 ', 'x'.repeat(300), '\n'],
  emoji: ['😀', '👍🏽', '🇮🇩', '👨‍👩‍👧', '❤️', ' ', 'kata '],
  rtl: ['مرحبا بالعالم', 'שלום', '\u200f', '\u202e', '\u2066', ' ', 'kata '],
  control: ['\u0000', '\u0007', '\u001b', '\u007f', '\u009b', '\t', '\r\n', '\u2028', 'kata '],
};
const MAX_PIECES: Record<string, number> = { long: 400, emoji: 100, rtl: 100, control: 100 };

describe('generated texts of every class', () => {
  for (const [name, pieces] of Object.entries(PIECES)) {
    it(`${name}: each field and message is in the copy, printable, with the notice when a code is written`, () => {
      const rand = seeded(name.length * 104729);
      for (let n = 0; n < 3; n++) {
        const gen = () => repeat(rand, MAX_PIECES[name] ?? 100, () => pick(rand, pieces));
        const report = Object.fromEntries(QUESTIONS.map((q) => [q.field, gen()]));
        const detail: CaseDetail = {
          ...tracked,
          reporter: { ...tracked.reporter, name: gen(), address: gen(), email: gen(), phone: gen() },
          communication: { ...tracked.communication, time: gen() },
          report: { ...tracked.report, ...report, protectionReason: gen() },
          evidenceLink: gen(),
          attachments: [{ id: 1, name: gen() }],
          allegedlyInvolved: [{ name: gen(), position: gen(), description: gen() }],
        };
        const talk: Message[] = Array.from({ length: 30 }, (_, i) => ({
          ...(messages[i % 2] as Message),
          id: i,
          text: gen(),
        }));
        const given = [
          ...Object.values(report),
          detail.reporter.name,
          detail.reporter.address,
          detail.communication.time,
          detail.evidenceLink,
          detail.attachments[0]?.name,
          ...detail.allegedlyInvolved.flatMap((p) => [p.name, p.position, p.description]),
          ...talk.map((m) => m.text),
        ].filter((value): value is string => typeof value === 'string');

        const doc = reporterCopyDocument({ detail, messages: talk, generatedAt: GENERATED_AT });
        const texts = textsOf(doc);
        const all = texts.join('\n');
        for (const value of given) expect(all).toContain(pdfText(value).text);
        const glyphless = [...all].filter((ch) => ch !== '\n' && !hasRobotoGlyph(ch.codePointAt(0) ?? 0));
        expect(glyphless).toEqual([]);
        const anyCode = given.some((value) => pdfText(value).substituted);
        expect(texts.includes(REPORTER_COPY_TEXTS.substituted)).toBe(anyCode);
      }
    }, 30_000);
  }
});
