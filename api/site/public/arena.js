import { api, ApiError, el, fmt, startPage } from './site.js';

await startPage({ needsSession: false });
const status = document.getElementById('arena-status');
const tbody = document.querySelector('#arena-table tbody');
const cls = (value) => (typeof value === 'number' ? (value > 0 ? 'num pos' : value < 0 ? 'num neg' : 'num') : 'num');

try {
  const board = await api('/api/arena');
  document.getElementById('arena-note').textContent = [
    board.season ? `Season: ${typeof board.season === 'object' ? JSON.stringify(board.season) : board.season}` : '',
    board.note ?? '',
  ]
    .filter(Boolean)
    .join(' · ');
  const rows = board.rows ?? [];
  if (rows.length === 0) {
    status.hidden = false;
    status.textContent = 'No one is ranked yet this season (a trader needs at least 5 closes).';
  }
  tbody.replaceChildren(
    ...rows.map((row) =>
      el(
        'tr',
        {},
        el('td', { className: 'num' }, String(row.rank)),
        el('td', {}, row.who ?? row.account ?? '–'),
        el('td', { className: 'num' }, fmt(row.closes, 0)),
        el('td', { className: 'num' }, fmt(row.win_rate_pct, 1)),
        el('td', { className: cls(row.pnl_usd) }, fmt(row.pnl_usd)),
        el('td', { className: cls(row.return_pct) }, fmt(row.return_pct)),
        el('td', { className: 'num' }, fmt(row.open_positions, 0)),
        el('td', { className: cls(row.pnl_incl_open_usd) }, fmt(row.pnl_incl_open_usd)),
      ),
    ),
  );
} catch (error) {
  status.hidden = false;
  status.className = 'notice bad';
  status.textContent =
    error instanceof ApiError && error.status === 404
      ? 'The arena board is not available on this server yet.'
      : `The arena board could not be loaded: ${error.message}`;
}
