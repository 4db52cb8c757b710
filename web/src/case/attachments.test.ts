import { describe, expect, it } from 'vitest';
import { addAttachments, checkEvidence, extensionOf, fileProblem } from './attachments.ts';

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
