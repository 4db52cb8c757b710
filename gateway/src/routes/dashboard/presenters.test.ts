import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { openCasesSchema, statusSummarySchema } from '../../legacy/dashboard-schemas.ts';
import { presentOpenCases } from '../../presenters/dashboard.ts';

describe('open cases presenter', () => {
  it('gives every category the same series, a status a category lacks counting 0', () => {
    const rows = v.parse(openCasesSchema, [
      {
        caseCategoryId: 4,
        caseCategoryName: 'Suap',
        values: [
          { caseStatusId: 1, caseStatusName: 'Baru', totalCases: 2 },
          { caseStatusId: 2, caseStatusName: 'Diterima', totalCases: '3' },
        ],
      },
      { caseCategoryId: 7, caseCategoryName: 'Gratifikasi', values: [{ caseStatusId: 2, totalCases: 1 }] },
    ]);
    expect(presentOpenCases(5, rows)).toEqual({
      companyId: 5,
      total: 6,
      statuses: [
        { id: 1, name: 'Baru' },
        { id: 2, name: 'Diterima' },
      ],
      categories: [
        {
          id: 4,
          name: 'Suap',
          total: 5,
          byStatus: [
            { statusId: 1, total: 2 },
            { statusId: 2, total: 3 },
          ],
        },
        {
          id: 7,
          name: 'Gratifikasi',
          total: 1,
          byStatus: [
            { statusId: 1, total: 0 },
            { statusId: 2, total: 1 },
          ],
        },
      ],
    });
  });

  it('answers an empty chart when the legacy has no open cases (empty list or null data)', () => {
    const empty = { companyId: 1, total: 0, statuses: [], categories: [] };
    expect(presentOpenCases(1, v.parse(openCasesSchema, []))).toEqual(empty);
    expect(presentOpenCases(1, v.parse(openCasesSchema, null))).toEqual(empty);
  });
});

describe('legacy dashboard schemas', () => {
  it('refuse a row without its id, so a changed legacy shape is a bad reply, not a wrong chart', () => {
    expect(v.safeParse(statusSummarySchema, [{ caseStatusName: 'Baru', totalCase: 1 }]).success).toBe(false);
    expect(v.safeParse(statusSummarySchema, [{ caseStatusId: 1, totalCase: 'x' }]).success).toBe(false);
  });
});
