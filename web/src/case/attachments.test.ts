import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_FILES_HELP,
  addAttachments,
  checkEvidence,
  extensionOf,
  fileErrorsFrom,
  fileProblem,
} from './attachments.ts';

const MB = 1024 * 1024;
const f = (name: string, size = 1000) => ({ name, size });

describe('attachment checks', () => {
  it('reads the extension case-insensitively', () => {
    expect(extensionOf('Bukti.PDF')).toBe('pdf');
    expect(extensionOf('noext')).toBe('');
  });

  it('refuses files over 10 MB with the spec message', () => {
    expect(fileProblem(f('video.mp4', 10 * MB + 1))).toBe('Ukuran file video.mp4 melebihi 10 MB');
    expect(fileProblem(f('video.mp4', 10 * MB))).toBeNull();
  });

  it('refuses extensions outside the allowed list', () => {
    expect(fileProblem(f('script.exe'))).toBe('Jenis file script.exe tidak diizinkan');
  });

  it('refuses an evidence file whose name is already attached', () => {
    expect(checkEvidence(f('a.pdf'), [f('a.pdf')])).toBe('Lampiran a.pdf telah dipilih');
    expect(checkEvidence(f('b.pdf'), [f('a.pdf')])).toBeNull();
  });

  it('rejects duplicates among new and existing attachments and against the evidence', () => {
    const result = addAttachments(f('main.pdf'), [f('a.png')], [f('a.png'), f('main.pdf'), f('c.docx')]);
    expect(result.attachments.map((x) => x.name)).toEqual(['a.png', 'c.docx']);
    expect(result.messages).toEqual(['Lampiran a.png telah dipilih', 'Lampiran main.pdf telah dipilih']);
  });

  it('keeps the total, evidence included, at 5', () => {
    const result = addAttachments(
      f('main.pdf'),
      [],
      [f('1.pdf'), f('2.pdf'), f('3.pdf'), f('4.pdf'), f('5.pdf')],
    );
    expect(result.attachments).toHaveLength(4);
    expect(result.messages).toEqual(['Lampiran tidak boleh melebihi 5']);
  });

  it('says the limit is reached when nothing more fits', () => {
    const full = [f('1.pdf'), f('2.pdf'), f('3.pdf'), f('4.pdf')];
    const result = addAttachments(f('main.pdf'), full, [f('6.pdf')]);
    expect(result.attachments).toHaveLength(4);
    expect(result.messages).toEqual(['Lampiran sudah mencapai batas maksimal']);
  });
});

describe('server refusals placed next to their files', () => {
  const evidence = f('bukti.pdf');
  const photos = [f('foto-rusak.png'), f('foto-baik.jpg')];

  it('by the file named in the message', () => {
    const result = fileErrorsFrom(
      {
        attachments:
          'Gambar foto-rusak.png tidak dapat diproses; simpan ulang atau perkecil gambar lalu coba lagi',
      },
      evidence,
      photos,
    );
    expect(Object.keys(result.byFile)).toEqual(['foto-rusak.png']);
    expect(result.unplaced).toEqual({});
  });

  it('by the index in the key, or the only file of the field', () => {
    expect(fileErrorsFrom({ 'attachments.1': 'Rusak' }, evidence, photos).byFile).toEqual({
      'foto-baik.jpg': 'Rusak',
    });
    expect(fileErrorsFrom({ evidence: 'Rusak' }, evidence, photos).byFile).toEqual({ 'bukti.pdf': 'Rusak' });
  });

  it('keeps a reason that names no file under its field, and ignores other fields', () => {
    const result = fileErrorsFrom(
      { attachments: 'Lampiran tidak boleh melebihi 5', email: 'x' },
      evidence,
      photos,
    );
    expect(result).toEqual({ byFile: {}, unplaced: { attachments: 'Lampiran tidak boleh melebihi 5' } });
  });

  it('lists all 21 extensions of spec section 5 in the help text', () => {
    for (const ext of ['mpga', 'mpeg', 'mp4a', 'pdf', '3gp', 'pptx'])
      expect(ACCEPTED_FILES_HELP).toContain(ext);
    expect(ACCEPTED_FILES_HELP.split(',').length).toBe(21);
  });
});
