/**
 * The one chart of the dashboard: a horizontal nivo BarCanvas (one series or stacked series). Loaded
 * only through `React.lazy` (see Charts.tsx), so nivo never reaches the initial JavaScript. Canvas,
 * not SVG, because the Ekspor button turns the very pixels on screen into a PNG (`toDataURL`).
 * The canvas itself is hidden from assistive technology; ChartCard gives the numbers as a table.
 */
import { type BarDatum, type ComputedDatum, ResponsiveBarCanvas } from '@nivo/bar';
import { type MouseEvent, type Ref, useCallback, useState } from 'react';
import {
  BAR_PADDING,
  type BarRow,
  type ChartModel,
  COMPACT_CHART_WIDTH,
  chartFontSize,
  chartHeight,
  chartMargin,
  textColorOn,
  valueTicks,
} from './model.ts';

const FONT = "'Inter', system-ui, sans-serif";

const themeOf = (fontSize: number) => ({
  background: '#ffffff',
  text: { fontSize, fill: '#1a202c', fontFamily: FONT },
  axis: {
    ticks: { text: { fontSize, fill: '#3f4654', fontFamily: FONT }, line: { stroke: '#a0aec0' } },
  },
  grid: { line: { stroke: '#e2e8f0', strokeWidth: 1 } },
  labels: { text: { fontSize, fontWeight: 600, fontFamily: FONT } },
  tooltip: { container: { fontSize: 13, fontFamily: FONT } },
});

export type BarChartProps = {
  model: ChartModel;
  /** Bar thickness in pixels (spec §9: 30 or 50). */
  thickness: number;
  /** Called with the clicked row and the series (status key) of the clicked segment. */
  onBarClick?: (row: BarRow, seriesKey: string) => void;
  canvasRef?: Ref<HTMLCanvasElement>;
};

function Tooltip(props: { value: number; color: string; data: BarDatum; series: string }) {
  const name = String(props.data.name ?? '');
  return (
    <div
      style={{
        background: '#ffffff',
        border: '1px solid #cbd5e0',
        borderRadius: 6,
        padding: '6px 10px',
        boxShadow: '0 2px 6px rgba(0,0,0,0.15)',
        width: 'max-content',
        maxWidth: 280,
      }}
    >
      <span
        aria-hidden
        style={{
          display: 'inline-block',
          width: 10,
          height: 10,
          background: props.color,
          marginRight: 6,
          borderRadius: 2,
        }}
      />
      <strong>{name}</strong>
      {props.series ? ` · ${props.series}` : ''}: {props.value}
    </div>
  );
}

export default function BarChart({ model, thickness, onBarClick, canvasRef }: BarChartProps) {
  const [width, setWidth] = useState(0);
  const onResize = useCallback((size: { width: number }) => setWidth(size.width), []);
  const compact = width > 0 && width < COMPACT_CHART_WIDTH;
  const margin = chartMargin(
    model.rows.map((row) => row.label),
    compact,
  );
  const height = chartHeight(model.rows.length, thickness, margin);
  const ticks = valueTicks(model.max);
  const stacked = model.series.length > 1;
  const seriesName = new Map(model.series.map((s) => [s.key, s.name]));
  const seriesColor = new Map(model.series.map((s) => [s.key, s.color]));
  const label = new Map(model.rows.map((row) => [row.key, row.label]));
  // nivo lays horizontal bands out bottom-up; reversed, the first row is drawn on top.
  const data = [...model.rows].reverse();
  const setCursor = (event: MouseEvent<HTMLCanvasElement>, cursor: string) => {
    event.currentTarget.style.cursor = cursor;
  };

  return (
    <div style={{ height, width: '100%' }}>
      <ResponsiveBarCanvas<BarRow>
        ref={canvasRef}
        data={data}
        keys={model.series.map((s) => s.key)}
        indexBy="key"
        layout="horizontal"
        groupMode="stacked"
        margin={margin}
        padding={BAR_PADDING}
        valueScale={{ type: 'linear', min: 0, max: ticks[ticks.length - 1] ?? 1 }}
        indexScale={{ type: 'band', round: false }}
        colors={(bar: ComputedDatum<BarRow>) => seriesColor.get(String(bar.id)) ?? '#1d4f94'}
        theme={themeOf(chartFontSize(compact))}
        onResize={onResize}
        enableGridX
        enableGridY={false}
        gridXValues={ticks}
        axisBottom={{ tickValues: ticks, tickSize: 4, tickPadding: 4, format: (v: number) => String(v) }}
        axisLeft={{ tickSize: 0, tickPadding: 8, format: (key: string) => label.get(String(key)) ?? '' }}
        enableLabel={stacked}
        labelSkipWidth={18}
        labelTextColor={(bar: { color: string }) => textColorOn(bar.color)}
        enableTotals
        totalsOffset={8}
        role="presentation"
        tooltip={(bar) => (
          <Tooltip
            value={bar.value}
            color={bar.color}
            data={bar.data}
            series={stacked ? (seriesName.get(String(bar.id)) ?? '') : ''}
          />
        )}
        onClick={onBarClick ? (bar) => onBarClick(bar.data as BarRow, String(bar.id)) : undefined}
        onMouseEnter={onBarClick ? (_bar, event) => setCursor(event, 'pointer') : undefined}
        onMouseLeave={onBarClick ? (_bar, event) => setCursor(event, 'auto') : undefined}
      />
    </div>
  );
}
