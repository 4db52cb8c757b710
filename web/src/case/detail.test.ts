import { describe, expect, it } from 'vitest';
import { type CaseDetail, formatDateTime, normaliseCaseDetail } from './detail.ts';

const detail: CaseDetail = {
  id: 5,
  number: 'WBS-00000005',
  createdAt: '2026-05-03T08:15:00',
  companyId: 1,
  companyName: 'Perumda Air Minum Tirta Kahuripan',
  categoryId: 3,
  categoryName: 'Penggelapan Aset',
  caseLineId: null,
  caseLineName: null,
  channelName: 'Desktop',
  status: { id: 2, name: 'Diterima', order: 2 },
  reporter: {
    anonymous: false,
    identityHidden: false,
    contactMasked: false,
    type: 1,
    name: 'Budi',
    department: null,
    email: 'b@x.id',
    phone: '+62812',
    address: 'Jl. Merdeka 1',
    provinceName: 'Jawa Barat',
    cityName: 'Kabupaten Bogor',
    districtName: 'Cibinong',
  },
  communication: { types: [0, 2], time: 'Pagi' },
  report: {
    what: 'Suap',
    where: 'Kantor',
    when: 'Kemarin',
    perpetrator: 'X, Staf',
    directorate: 'Umum',
    division: 'Umum',
    how: 'Begitu',
    involved: null,
    financialLoss: null,
    occurredBefore: null,
    reportedToBefore: null,
    perpetratorResponse: null,
    repeatReason: null,
    identificationReason: null,
    needsProtection: true,
    protectionReason: 'Takut',
  },
  evidenceLink: null,
  attachments: [{ id: 9, name: 'bukti.pdf' }],
  allegedlyInvolved: [{ name: 'Y', position: 'Kepala', description: null }],
  logs: [
    {
      id: 1,
      createdAt: '2026-05-04T10:00:00',
      statusName: 'Diterima',
      message: '**********',
      noteHidden: true,
      createdBy: null,
      attachmentName: null,
    },
  ],
  noteHidden: true,
};

describe('case detail', () => {
  it('reads the contract shape as it is', () => {
    expect(normaliseCaseDetail(structuredClone(detail))).toEqual(detail);
  });

  it('drops fields outside the contract', () => {
    const parsed = normaliseCaseDetail({ ...detail, caseWhistleblowerName: 'Budi', token: 'x' });
    expect(parsed).toEqual(detail);
    expect(parsed).not.toHaveProperty('caseWhistleblowerName');
  });

  it('refuses a reply that is not a case detail (e.g. the old flat spellings)', () => {
    expect(() => normaliseCaseDetail({ caseNumber: 'WBS-1', statusName: 'Baru' })).toThrow();
    expect(() => normaliseCaseDetail({ ...detail, logs: [{ id: 1 }] })).toThrow();
  });

  it('formats ISO instants as DD/MM/YYYY HH:mm', () => {
    expect(formatDateTime('2026-05-03T08:15:00')).toBe('03/05/2026 08:15');
    expect(formatDateTime('2026-05-03')).toBe('03/05/2026');
  });
});
