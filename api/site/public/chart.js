// lightweight-charts with the site's colours, served from this origin (/site/vendor/).
import { CandlestickSeries, ColorType, createChart, LineSeries, LineStyle } from '/site/vendor/lightweight-charts.mjs';

export { CandlestickSeries, LineSeries, LineStyle };

/** A chart that fills its container and follows its width. */
export function siteChart(container) {
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: '#0b1016' }, textColor: '#e8edf2' },
    grid: { vertLines: { color: '#1c2630' }, horzLines: { color: '#1c2630' } },
    timeScale: { timeVisible: true, secondsVisible: false },
  });
  return chart;
}
