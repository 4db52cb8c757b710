import { describe, expect, it } from 'vitest';
import { formatDateTime, normaliseCaseDetail } from './detail.ts';

describe('case detail normaliser', () => {
  it('reads nested parts and masked logs', () => {
    const detail = normaliseCaseDetail({
      id: 5,
      number: 'WBS-00000005',
      createdAt: '2026-05-03T08:15:00',
      status: { id: 2, name: 'Diproses', order: 2 },
      reporter: { anonymous: false, type: 1, name: 'Budi', email: 'b@x.id' },
      communication: { types: [0, 2], time: 'Pagi' },
      report: { what: 'Suap', needsProtection: true },
      attachments: [{ id: 9, name: 'bukti.pdf' }],
      logs: [
        {
          id: 1,
          createdAt: '2026-05-04T10:00:00',
          statusName: 'Baru',
          message: '**********',
          noteHidden: true,
        },
      ],
      noteHidden: true,
    });
    expect(detail.number).toBe('WBS-00000005');
    expect(detail.status).toEqual({ id: 2, name: 'Diproses', order: 2 });
    expect(detail.reporter.name).toBe('Budi');
    expect(detail.communication.types).toEqual([0, 2]);
    expect(detail.report.what).toBe('Suap');
    expect(detail.report.needsProtection).toBe(true);
    expect(detail.attachments).toEqual([{ id: 9, name: 'bukti.pdf' }]);
    expect(detail.logs[0]?.noteHidden).toBe(true);
  });

  it('accepts flat spellings too', () => {
    const detail = normaliseCaseDetail({
      caseNumber: 'WBS-1',
      communicationTypes: '1,3',
      statusName: 'Baru',
      statusId: 1,
    });
    expect(detail.number).toBe('WBS-1');
    expect(detail.communication.types).toEqual([1, 3]);
    expect(detail.status?.name).toBe('Baru');
  });

  it('formats ISO instants as DD/MM/YYYY HH:mm', () => {
    expect(formatDateTime('2026-05-03T08:15:00')).toBe('03/05/2026 08:15');
    expect(formatDateTime('2026-05-03')).toBe('03/05/2026');
  });
});
