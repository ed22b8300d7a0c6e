import { api, ApiError, clearErrors, el, fmt, newClientOrderId, pageReady, showError, startPage } from './site.js';
import { PriceChart } from './trade-chart.js';

const me = await startPage();
const bookSelect = document.getElementById('book');
const symbolSelect = document.getElementById('chart-symbol');
const streamStatus = document.getElementById('stream-status');
const positionsBody = document.querySelector('#positions-table tbody');
const ordersBody = document.querySelector('#orders-table tbody');
const openForm = document.getElementById('open-form');
const openResult = document.getElementById('open-result');
const limitField = document.getElementById('limit-field');

/** Codes the open form shows next to a field when the answer names no param. */
const FIELD_OF_CODE = {
  symbol_required: 'symbol',
  unknown_symbol: 'symbol',
  side_required: 'side',
  leverage_max: 'leverage',
  leverage_min: 'leverage',
  margin_usd_min_1: 'margin_usd',
  margin_usd_max_100000: 'margin_usd',
  sl_wrong_side: 'sl',
  tp_wrong_side: 'tp',
  trail_pct_invalid: 'trail_pct',
  limit_price_required: 'limit_price',
  limit_marketable: 'limit_price',
  limit_price_far: 'limit_price',
  stop_wrong_side: 'limit_price',
};

let book = new URLSearchParams(location.search).get('book') || 'main';
if (!me.books.includes(book)) book = 'main';
for (const name of me.books) bookSelect.append(el('option', { value: name, selected: name === book }, name));

/** The book's open positions by id, as the stream and the answers tell them. */
const positions = new Map();
const priceChart = new PriceChart(document.getElementById('chart'));

// ---- the chart's symbol -----------------------------------------------------------------------------------------

/** The chart's lines for the positions now held. */
function drawLines() {
  priceChart.drawLines(positions.values());
}

function refreshSymbols() {
  const symbols = new Set([...positions.values()].map((p) => p.symbol));
  if (priceChart.symbol) symbols.add(priceChart.symbol);
  if (symbols.size === 0) symbols.add('BTC');
  const wanted = [...symbols].sort();
  const have = [...symbolSelect.options].map((o) => o.value);
  if (wanted.join() !== have.join()) {
    symbolSelect.replaceChildren(...wanted.map((s) => el('option', { value: s, selected: s === priceChart.symbol }, s)));
  }
  if (!priceChart.symbol) void setChartSymbol(wanted[0]);
}

async function setChartSymbol(symbol) {
  symbolSelect.value = symbol;
  const shown = priceChart.show(symbol);
  drawLines();
  await shown;
}

// ---- positions and orders ---------------------------------------------------------------------------------------

function numberOrNull(text) {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

function positionRow(p) {
  const pnl = p.unrealized_pnl_usd;
  const levels = el('form', { className: 'row-actions levels', 'aria-label': `Stop and target of ${p.symbol} ${p.side}` });
  const slInput = el('input', { name: 'sl', value: p.sl ?? '', inputMode: 'decimal', 'aria-label': `Stop loss of ${p.symbol} ${p.side}` });
  const tpInput = el('input', {
    name: 'tp',
    value: p.tp ?? '',
    inputMode: 'decimal',
    'aria-label': `Take profit of ${p.symbol} ${p.side}`,
  });
  const trailInput = el('input', {
    name: 'trail_pct',
    value: p.trail_pct ?? '',
    inputMode: 'decimal',
    'aria-label': `Trailing stop % of ${p.symbol} ${p.side}`,
  });
  levels.append(
    slInput,
    tpInput,
    trailInput,
    el('button', { type: 'submit' }, 'Save levels'),
    el('span', { className: 'form-error', 'aria-live': 'polite' }),
  );
  levels.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { id: p.id, sl: numberOrNull(slInput.value), tp: numberOrNull(tpInput.value) };
    const trail = numberOrNull(trailInput.value);
    if (trail !== null || p.trail_pct) body.trail_pct = trail;
    void submitRow(levels, '/api/site/sltp', body);
  });
  const close = el('form', { className: 'row-actions close', 'aria-label': `Close ${p.symbol} ${p.side}` });
  const pctInput = el('input', {
    name: 'pct',
    value: '100',
    inputMode: 'decimal',
    'aria-label': `Percent of ${p.symbol} ${p.side} to close`,
  });
  close.append(
    pctInput,
    el('button', { type: 'submit', className: 'danger' }, 'Close'),
    el('span', { className: 'form-error', 'aria-live': 'polite' }),
  );
  const closeId = newClientOrderId();
  close.addEventListener('submit', (event) => {
    event.preventDefault();
    void submitRow(close, '/api/site/close', { id: p.id, pct: numberOrNull(pctInput.value), symbol: p.symbol, client_order_id: closeId });
  });
  // data-label names each cell where a phone shows the row as a card (site.css)
  const cell = (label, className, ...content) => el('td', { className, 'data-label': label }, ...content);
  return el(
    'tr',
    { 'data-position': p.id },
    cell('Symbol', '', p.symbol),
    cell('Side', p.side === 'long' ? 'pos' : 'neg', p.side),
    cell('Qty', 'num', fmt(p.qty, 6)),
    cell('Entry', 'num', fmt(p.entry_price ?? p.entry, 4)),
    cell('Mark', 'num mark', fmt(p.mark_price, 4)),
    cell('P&L $', `num ${pnl > 0 ? 'pos' : pnl < 0 ? 'neg' : ''}`, fmt(pnl)),
    cell('Leverage', 'num', `${fmt(p.leverage, 0)}x`),
    cell('Liquidation', 'num', fmt(p.liq_price, 4)),
    cell('Stop / target / trail %', '', levels),
    cell('Close %', '', close),
  );
}

function renderPositions() {
  const open = [...positions.values()].filter((p) => p.status === 'open').sort((a, b) => (b.opened_ts ?? 0) - (a.opened_ts ?? 0));
  positionsBody.replaceChildren(...open.map(positionRow));
  document.getElementById('positions-empty').hidden = open.length > 0;
  refreshSymbols();
  drawLines();
}

/** A position as an answer or the stream tells it: kept while open, dropped once closed. */
function takePosition(p) {
  if (!p || typeof p.id !== 'string') return;
  if (p.status === 'open') positions.set(p.id, p);
  else positions.delete(p.id);
}

async function submitRow(form, path, body) {
  clearErrors(form);
  const button = form.querySelector('button');
  button.disabled = true;
  try {
    const answer = await api(path, { method: 'POST', body, book });
    takePosition(answer.position);
    if (answer.closed === true || (answer.position && answer.position.status !== 'open')) positions.delete(body.id);
    await loadPositions();
  } catch (error) {
    showError(form, error);
  } finally {
    button.disabled = false;
  }
}

async function loadPositions() {
  const answer = await api('/api/site/positions', { book });
  positions.clear();
  for (const p of answer.positions) takePosition(p);
  renderPositions();
}

async function loadOrders() {
  const answer = await api('/api/site/orders', { book });
  const resting = (answer.orders ?? []).filter((o) => o.status === 'open' || o.status === 'resting' || o.status === undefined);
  ordersBody.replaceChildren(
    ...resting.map((o) => {
      const cancel = el('button', { type: 'button', className: 'danger', 'aria-label': `Cancel order ${o.order_id}` }, 'Cancel');
      cancel.addEventListener('click', async () => {
        cancel.disabled = true;
        const errorLine = document.getElementById('orders-error');
        errorLine.textContent = '';
        try {
          await api('/api/site/cancel_order', { method: 'POST', body: { order_id: o.order_id }, book });
          await loadOrders();
        } catch (error) {
          errorLine.textContent = `${error.message} (${error.code})`;
          cancel.disabled = false;
        }
      });
      return el(
        'tr',
        { 'data-order': o.order_id },
        el('td', {}, el('code', {}, o.order_id)),
        el('td', {}, o.type),
        el('td', {}, o.symbol),
        el('td', {}, o.side),
        el('td', { className: 'num' }, fmt(o.limit_price, 4)),
        el('td', { className: 'num' }, fmt(o.margin_usd)),
        el('td', { className: 'num' }, `${fmt(o.leverage, 0)}x`),
        el('td', {}, cancel),
      );
    }),
  );
  document.getElementById('orders-empty').hidden = resting.length > 0;
}

// ---- the open form ----------------------------------------------------------------------------------------------

/** One id per intended order: a second submit of the same form (a double click) sends the same one and opens nothing new. */
let clientOrderId = newClientOrderId();

openForm.type.addEventListener('change', () => {
  limitField.hidden = openForm.type.value === 'market';
});

openForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearErrors(openForm);
  openResult.textContent = '';
  const f = openForm.elements;
  const body = {
    symbol: f.symbol.value.trim().toUpperCase(),
    side: f.side.value,
    margin_usd: numberOrNull(f.margin_usd.value),
    leverage: numberOrNull(f.leverage.value),
    client_order_id: clientOrderId,
  };
  if (f.type.value !== 'market') {
    body.type = f.type.value;
    body.limit_price = numberOrNull(f.limit_price.value);
  }
  for (const name of ['sl', 'tp', 'trail_pct']) {
    const value = numberOrNull(f[name].value);
    if (value !== null) body[name] = value;
  }
  for (const [name, value] of Object.entries(body)) if (value === null) delete body[name];
  const button = document.getElementById('open-submit');
  button.disabled = true;
  try {
    const answer = await api('/api/site/open', { method: 'POST', body, book });
    clientOrderId = newClientOrderId();
    if (answer.position) {
      takePosition(answer.position);
      openResult.textContent = `Opened ${answer.position.side} ${answer.position.symbol} at ${fmt(answer.position.entry_price ?? answer.position.entry, 4)}.`;
      renderPositions();
      if (answer.position.symbol !== priceChart.symbol) await setChartSymbol(answer.position.symbol);
    } else if (answer.order) {
      openResult.textContent = `Placed ${answer.order.type} order ${answer.order.order_id} at ${fmt(answer.order.limit_price, 4)}.`;
      await loadOrders();
    }
  } catch (error) {
    // a refusal is final for this id; a lost connection keeps it, so trying again cannot open twice
    if (error instanceof ApiError) clientOrderId = newClientOrderId();
    showError(openForm, error, (code) => FIELD_OF_CODE[code]);
  } finally {
    button.disabled = false;
  }
});

// ---- the live stream ----------------------------------------------------------------------------------------------

let socket = null;
let retryMs = 1000;

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/api/bot/v2/stream?book=${encodeURIComponent(book)}`);
  socket = ws;
  ws.addEventListener('open', () => {
    retryMs = 1000;
    streamStatus.textContent = 'Live.';
  });
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'snapshot') {
      positions.clear();
      for (const p of message.data.positions) takePosition(p);
      renderPositions();
    } else if (message.type === 'position') {
      takePosition(message.data.position);
      renderPositions();
      if (message.data.event === 'opened') void loadOrders();
    } else if (message.type === 'prices') {
      for (const [symbol, price] of Object.entries(message.data)) {
        for (const p of positions.values()) if (p.symbol === symbol) p.mark_price = price;
        for (const row of positionsBody.querySelectorAll('tr')) {
          const p = positions.get(row.dataset.position);
          if (p && p.symbol === symbol) row.querySelector('.mark').textContent = fmt(price, 4);
        }
        if (symbol === priceChart.symbol) priceChart.tick(price, message.ts ?? Date.now());
      }
    }
  });
  ws.addEventListener('close', (event) => {
    if (socket !== ws) return;
    streamStatus.textContent = event.code === 4429 ? 'Too many live streams open for this account.' : 'Reconnecting to the live stream…';
    if (event.code === 4401) return void location.assign('/signin');
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  });
}

bookSelect.addEventListener('change', async () => {
  book = bookSelect.value;
  history.replaceState(null, '', book === 'main' ? '/trade' : `/trade?book=${encodeURIComponent(book)}`);
  const old = socket;
  socket = null;
  old?.close();
  await Promise.all([loadPositions(), loadOrders()]);
  connect();
});
symbolSelect.addEventListener('change', () => void setChartSymbol(symbolSelect.value));

await Promise.all([loadPositions(), loadOrders()]);
connect();
pageReady();
