/**
 * Ekspor (spec section 2): each chart of the Laporan tab as a PNG file. The chart's own canvas is
 * copied under a title and the period, on white, so the file explains itself outside the page.
 */
import { UI_MESSAGES } from '@wbs/shared/messages';
import { saveFile } from '../ui/saveFile.ts';
import { notify } from '../ui/toaster.tsx';
import { TEXTS } from './texts.ts';

export type ExportableChart = {
  canvas: HTMLCanvasElement;
  title: string;
  subtitle: string;
  fileName: string;
};

const PADDING = 16;
const TITLE_PX = 18;
const SUBTITLE_PX = 13;
const FONT = "'Inter', system-ui, sans-serif";

/** The chart under its title and subtitle, at the chart canvas's own pixel ratio. */
export function composeChartImage(chart: ExportableChart): string {
  const { canvas } = chart;
  const cssWidth = canvas.getBoundingClientRect().width || canvas.width;
  const ratio = canvas.width / cssWidth || 1;
  const header = (PADDING + TITLE_PX + 8 + SUBTITLE_PX + PADDING) * ratio;
  const out = document.createElement('canvas');
  out.width = canvas.width + 2 * PADDING * ratio;
  out.height = canvas.height + header + PADDING * ratio;
  const context = out.getContext('2d');
  if (!context) return canvas.toDataURL('image/png');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, out.width, out.height);
  context.fillStyle = '#1a202c';
  context.textBaseline = 'top';
  context.font = `700 ${TITLE_PX * ratio}px ${FONT}`;
  context.fillText(chart.title, PADDING * ratio, PADDING * ratio);
  context.fillStyle = '#3f4654';
  context.font = `400 ${SUBTITLE_PX * ratio}px ${FONT}`;
  context.fillText(chart.subtitle, PADDING * ratio, (PADDING + TITLE_PX + 8) * ratio);
  context.drawImage(canvas, PADDING * ratio, header);
  return out.toDataURL('image/png');
}

/** Downloads every chart, one after the other (browsers drop clicks fired in the same tick). */
export async function exportCharts(charts: readonly ExportableChart[]): Promise<void> {
  for (const chart of charts) {
    saveFile(composeChartImage(chart), chart.fileName);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Ekspor PNG of a screen (the dashboard, Peta Laporan, Statistik): says so when no chart is drawn yet,
 * announces the downloads and shows a failure as the app's usual snackbar.
 */
export async function exportChartsWithNotice(charts: readonly ExportableChart[]): Promise<void> {
  if (charts.length === 0) {
    notify.info(TEXTS.nothingToExport);
    return;
  }
  notify.info(UI_MESSAGES.exporting);
  try {
    await exportCharts(charts);
  } catch (error) {
    notify.problem(error);
  }
}
