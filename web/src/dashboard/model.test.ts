import { FIELD_MESSAGES } from '@wbs/shared/messages';
import { describe, expect, it } from 'vitest';
import {
  BAR_PADDING,
  BAR_THICKNESS,
  caseListHref,
  chartFileName,
  chartHeight,
  chartMargin,
  checkRange,
  countChart,
  dashboardQuery,
  defaultRange,
  draftOf,
  openCasesChart,
  periodText,
  STATUS_COLORS,
  textColorOn,
  truncateLabel,
  valueTicks,
} from './model.ts';

describe('truncateLabel (spec §9: 25 characters plus ...)', () => {
  it('keeps labels of up to 25 characters', () => {
    expect(truncateLabel('Penyalahgunaan Wewenang')).toBe('Penyalahgunaan Wewenang');
    expect(truncateLabel('a'.repeat(25))).toBe('a'.repeat(25));
  });

  it('cuts longer ones at 25 and adds ...', () => {
    expect(truncateLabel('Pelanggaran Kode Etik dan Perilaku')).toBe('Pelanggaran Kode Etik dan...');
    expect(truncateLabel('a'.repeat(26))).toBe(`${'a'.repeat(25)}...`);
  });
});

describe('chart sizes (spec §9: bar thickness 30 or 50)', () => {
  it('makes every bar exactly as thick as asked', () => {
    const margin = chartMargin(['Baru']);
    for (const thickness of [BAR_THICKNESS.regular, BAR_THICKNESS.wide]) {
      const height = chartHeight(4, thickness, margin);
      const band = (height - margin.top - margin.bottom) / 4;
      expect(band * (1 - BAR_PADDING)).toBeCloseTo(thickness, 0);
    }
    expect(BAR_THICKNESS).toEqual({ regular: 30, wide: 50 });
  });

  it('widens the label column for longer labels, less on compact (phone) charts', () => {
    const long = ['Pelanggaran Kode Etik dan...'];
    expect(chartMargin(long).left).toBeGreaterThan(chartMargin(['Baru']).left);
    expect(chartMargin(long, true).left).toBeLessThan(chartMargin(long).left);
    expect(chartMargin(long, true).right).toBeLessThan(chartMargin(long).right);
  });
});

describe('valueTicks', () => {
  it('gives whole numbers from 0 to a round top at or above the maximum', () => {
    expect(valueTicks(0)).toEqual([0, 1]);
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
    expect(valueTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(valueTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(valueTicks(180)).toEqual([0, 50, 100, 150, 200]);
  });
});

describe('chart data shaping', () => {
  it('makes one bar per item, cut labels, full names kept for tooltips and tables', () => {
    const model = countChart([
      { id: 3, name: 'Verifikasi', total: 2 },
      { id: 12, name: 'Penyalahgunaan Aset Perusahaan Daerah', total: 5 },
    ]);
    expect(model.rows).toEqual([
      { key: '3', label: 'Verifikasi', name: 'Verifikasi', total: 2 },
      {
        key: '12',
        label: 'Penyalahgunaan Aset Perus...',
        name: 'Penyalahgunaan Aset Perusahaan Daerah',
        total: 5,
      },
    ]);
    expect(model.series).toHaveLength(1);
    expect(model).toMatchObject({ max: 5, total: 7 });
  });

  it('stacks the open statuses of each category, one colour per status', () => {
    const model = openCasesChart({
      companyId: 1,
      total: 6,
      statuses: [
        { id: 1, name: 'Baru' },
        { id: 4, name: 'Investigasi' },
      ],
      categories: [
        {
          id: 7,
          name: 'Suap',
          total: 5,
          byStatus: [
            { statusId: 1, total: 2 },
            { statusId: 4, total: 3 },
          ],
        },
        {
          id: 8,
          name: 'Gratifikasi',
          total: 1,
          byStatus: [
            { statusId: 1, total: 1 },
            { statusId: 4, total: 0 },
          ],
        },
      ],
    });
    expect(model.series).toEqual([
      { key: 's1', name: 'Baru', color: STATUS_COLORS[0] },
      { key: 's4', name: 'Investigasi', color: STATUS_COLORS[1] },
    ]);
    expect(model.rows[0]).toEqual({ key: '7', label: 'Suap', name: 'Suap', total: 5, s1: 2, s4: 3 });
    expect(model.rows[1]).toMatchObject({ key: '8', s1: 1, s4: 0 });
    expect(model).toMatchObject({ max: 5, total: 6 });
  });

  it('reports an empty reply as no rows and a zero total', () => {
    expect(openCasesChart({ companyId: 1, total: 0, statuses: [], categories: [] })).toEqual({
      rows: [],
      series: [],
      max: 0,
      total: 0,
    });
    expect(countChart([])).toMatchObject({ rows: [], max: 0, total: 0 });
  });

  it('writes bar labels in black or white, whichever contrasts more', () => {
    expect(textColorOn('#1d4f94')).toBe('#ffffff');
    expect(textColorOn('#f0c419')).toBe('#000000');
    expect(textColorOn('#e69f00')).toBe('#000000');
    expect(textColorOn('not a colour')).toBe('#000000');
  });
});

describe('date range filter (spec §9)', () => {
  it('defaults to the current month, first to last day', () => {
    expect(defaultRange(new Date(2026, 1, 14))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(defaultRange(new Date(2028, 1, 1))).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(defaultRange(new Date(2026, 11, 31))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('shows the range as DD/MM/YYYY', () => {
    expect(draftOf({ from: '2026-05-01', to: '2026-05-31' })).toEqual({
      from: '01/05/2026',
      to: '31/05/2026',
    });
    expect(periodText({ from: '2026-05-01', to: '2026-05-31' })).toBe('Periode 01/05/2026 – 31/05/2026');
  });

  it('accepts a valid range and refuses the rest with the gateway’s messages', () => {
    expect(checkRange({ from: '01/05/2026', to: '31/05/2026' })).toEqual({
      ok: true,
      range: { from: '2026-05-01', to: '2026-05-31' },
    });
    expect(checkRange({ from: '05/05/2026', to: '05/05/2026' }).ok).toBe(true);
    expect(checkRange({ from: '', to: '' })).toEqual({
      ok: false,
      errors: { from: FIELD_MESSAGES.dateFromRequired, to: FIELD_MESSAGES.dateToRequired },
    });
    expect(checkRange({ from: '31/02/2026', to: '01/03' })).toEqual({
      ok: false,
      errors: { from: FIELD_MESSAGES.dateInvalid, to: FIELD_MESSAGES.dateInvalid },
    });
    expect(checkRange({ from: '01/06/2026', to: '31/05/2026' })).toEqual({
      ok: false,
      errors: { from: FIELD_MESSAGES.dateRangeInvalid },
    });
  });

  it('refuses days outside the range the API accepts (2000–2099), as the gateway would', () => {
    expect(checkRange({ from: '01/01/0001', to: '31/12/9999' })).toEqual({
      ok: false,
      errors: { from: FIELD_MESSAGES.dateOutOfRange, to: FIELD_MESSAGES.dateOutOfRange },
    });
    expect(checkRange({ from: '31/12/1999', to: '01/01/2000' }).ok).toBe(false);
    expect(checkRange({ from: '01/01/2000', to: '31/12/2099' })).toEqual({
      ok: true,
      range: { from: '2000-01-01', to: '2099-12-31' },
    });
    expect(checkRange({ from: '01/01/2099', to: '01/01/2100' })).toEqual({
      ok: false,
      errors: { to: FIELD_MESSAGES.dateOutOfRange },
    });
  });
});

describe('export file names (spec §9)', () => {
  const range = { from: '2026-05-01', to: '2026-05-31' };

  it("start with 'Partner -' for partner users and 'Perusahaan -' for company users", () => {
    expect(chartFileName({ partnerView: true, chart: 'Jumlah Pengaduan per Perusahaan', range })).toBe(
      'Partner - Jumlah Pengaduan per Perusahaan - 01-05-2026 sd 31-05-2026.png',
    );
    expect(
      chartFileName({
        partnerView: false,
        chart: 'Jumlah Pengaduan per Status',
        companyName: 'PDAM Tirta Pakuan',
        range,
      }),
    ).toBe('Perusahaan - Jumlah Pengaduan per Status - PDAM Tirta Pakuan - 01-05-2026 sd 31-05-2026.png');
  });

  it('replaces characters file systems refuse', () => {
    const name = chartFileName({ partnerView: true, chart: 'A/B', companyName: 'PT "X": Y?', range });
    expect(name).toBe('Partner - A-B - PT -X-- Y- - 01-05-2026 sd 31-05-2026.png');
  });
});

describe('links and queries', () => {
  it('opens the case list filtered by the clicked category or status (spec §2)', () => {
    expect(caseListHref('category', '7')).toBe('/admin/case?category=7');
    expect(caseListHref('status', 4)).toBe('/admin/case?status=4');
  });

  it('passes the chart period to the case list, stopping at today', () => {
    const range = { from: '2026-11-01', to: '2026-11-30' };
    expect(caseListHref('status', 4, range, '2026-11-23')).toBe(
      '/admin/case?status=4&from=2026-11-01&to=2026-11-23',
    );
    expect(caseListHref('category', 7, { from: '2026-10-01', to: '2026-10-31' }, '2026-11-23')).toBe(
      '/admin/case?category=7&from=2026-10-01&to=2026-10-31',
    );
    expect(caseListHref('status', 4, { from: '2026-12-01', to: '2026-12-31' }, '2026-11-23')).toBe(
      '/admin/case?status=4',
    );
  });

  it('sends the range and a chosen company only', () => {
    const range = { from: '2026-05-01', to: '2026-05-31' };
    expect(dashboardQuery({ range })).toEqual({ from: '2026-05-01', to: '2026-05-31' });
    expect(dashboardQuery({ range, companyId: 2 })).toEqual({
      from: '2026-05-01',
      to: '2026-05-31',
      companyId: '2',
    });
    expect(dashboardQuery({ companyId: 0 })).toEqual({});
  });
});
