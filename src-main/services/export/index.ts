/** Exports of runs: CSV (csv.ts, format described there) and the PDF report (pdf.ts, charts from charts.ts); the PDF report of a sweep (sweep-pdf.ts). */
export { exportCsv, exportRunCsv, exportComparisonCsv, alignOnX, guardText, unguardText, CSV_FORMAT_VERSION, RUN_CSV_MARK, COMPARISON_CSV_MARK, CSV_MIME } from './csv';
export { exportPdf, renderReport, renderChartSvg, PDF_MIME, PRODUCT_NAME } from './pdf';
export type { PdfOptions } from './pdf';
export { exportSweepPdf, renderSweepReport, chooseChart } from './sweep-pdf';
export type { SweepPdfOptions } from './sweep-pdf';
export { chartOption, runCharts, comparisonCharts, downsampleLine, downsampleScatter, presetColors } from './charts';
export type { ChartSpec, ChartLine, ChartRun, ChartSize } from './charts';
export { paperComparison, paperRows, besidePaper, namesMatch } from './references';
export type { PaperComparison, PaperRow, PaperValue, FindingBeside } from './references';
