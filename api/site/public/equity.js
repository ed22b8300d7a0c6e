import { api, ApiError, el, fmt, startPage } from './site.js';
import { LineSeries, siteChart } from './chart.js';

const me = await startPage();
const bookSelect = document.getElementById('book');
const daysSelect = document.getElementById('days');
const status = document.getElementById('equity-status');
const summary = document.getElementById('equity-summary');
for (const book of me.books) bookSelect.append(el('option', { value: book }, book));
const chart = siteChart(document.getElementById('chart'));
const series = chart.addSeries(LineSeries, { color: '#5cb8ff', lineWidth: 2 });

async function load() {
  status.hidden = true;
  try {
    const equity = await api(`/api/site/equity?days=${daysSelect.value}`, { book: bookSelect.value });
    const points = (equity.points ?? []).map((p) => ({ time: Math.floor(p.t / 1000), value: p.equity_usd }));
    series.setData(points);
    chart.timeScale().fitContent();
    const last = equity.points?.at(-1);
    summary.textContent = last
      ? `Equity ${fmt(last.equity_usd)} $ · realized P&L ${fmt(last.realized_pnl_usd)} $ · max drawdown ${fmt(equity.max_drawdown_pct)} %`
      : 'No closed trades in this window yet.';
  } catch (error) {
    series.setData([]);
    summary.textContent = '';
    status.hidden = false;
    status.className = 'notice bad';
    status.textContent =
      error instanceof ApiError && error.status === 404
        ? 'The equity curve is not available on this server yet.'
        : `The equity curve could not be loaded: ${error.message}`;
  }
}
bookSelect.addEventListener('change', load);
daysSelect.addEventListener('change', load);
await load();
