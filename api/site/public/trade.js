import { api, ApiError, clearErrors, el, fmt, newClientOrderId, showError, startPage } from './site.js';
import { CandlestickSeries, LineStyle, siteChart } from './chart.js';

const me = await startPage();
const bookSelect = document.getElementById('book');
const symbolSelect = document.getElementById('chart-symbol');
const streamStatus = document.getElementById('stream-status');
const positionsBody = document.querySelector('#positions-table tbody');
const ordersBody = document.querySelector('#orders-table tbody');
const openForm = document.getElementById('open-form');
const openResult = document.getElementById('open-result');
const limitField = document.getElementById('limit-field');

const LINE_COLORS = { entry: '#5cb8ff', stop: '#ff7b72', target: '#4cd08a', liquidation: '#ffa657' };
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
let chartSymbol = null;
let candles = [];
const chart = siteChart(document.getElementById('chart'));
const series = chart.addSeries(CandlestickSeries, {
  upColor: '#4cd08a',
  downColor: '#ff7b72',
  wickUpColor: '#4cd08a',
  wickDownColor: '#ff7b72',
  borderVisible: false,
  // the price scale takes in the level lines too, so a stop or a liquidation far from the candles stays in sight
  autoscaleInfoProvider: (original) => {
    const range = original();
    if (!range || levelPrices.length === 0) return range;
    return {
      ...range,
      priceRange: {
        minValue: Math.min(range.priceRange.minValue, ...levelPrices),
        maxValue: Math.max(range.priceRange.maxValue, ...levelPrices),
      },
    };
  },
});
let priceLines = [];
/** The prices of the lines drawn, for the price scale. */
let levelPrices = [];

// ---- the chart -------------------------------------------------------------------------------------------------

async function loadCandles(symbol) {
  try {
    const rows = await api(`/api/v1/klines?symbol=${encodeURIComponent(`${symbol}USDT`)}&interval=1&limit=300`);
    candles = rows.map((c) => ({ time: c.time, open: c.open, high: c.high, low: c.low, close: c.close }));
  } catch {
    candles = [];
  }
  series.setData(candles);
  chart.timeScale().fitContent();
}

/** Moves the chart's last candle (or starts the next minute's) with a live price. */
function tick(price, nowMs) {
  const minute = Math.floor(nowMs / 60_000) * 60;
  const last = candles.at(-1);
  if (last && last.time === minute) {
    last.high = Math.max(last.high, price);
    last.low = Math.min(last.low, price);
    last.close = price;
    series.update({ ...last });
  } else if (!last || last.time < minute) {
    const next = { time: minute, open: last ? last.close : price, high: price, low: price, close: price };
    next.high = Math.max(next.high, next.open);
    next.low = Math.min(next.low, next.open);
    candles.push(next);
    series.update({ ...next });
  }
}

/** The entry, stop, target and liquidation lines of the chart symbol's positions. */
function drawLines() {
  for (const line of priceLines) series.removePriceLine(line);
  priceLines = [];
  levelPrices = [];
  const chartEl = document.getElementById('chart');
  const drawn = [];
  for (const p of positions.values()) {
    if (p.symbol !== chartSymbol) continue;
    const levels = [
      ['entry', p.entry_price ?? p.entry],
      ['stop', p.sl],
      ['target', p.tp],
      ['liquidation', p.liq_price],
    ];
    for (const [kind, price] of levels) {
      if (typeof price !== 'number') continue;
      priceLines.push(
        series.createPriceLine({
          price,
          color: LINE_COLORS[kind],
          lineWidth: kind === 'entry' ? 2 : 1,
          lineStyle: kind === 'entry' ? LineStyle.Solid : LineStyle.Dashed,
          axisLabelVisible: true,
          title: `${kind} ${p.side}`,
        }),
      );
      drawn.push(`${p.id}:${kind}:${price}`);
      levelPrices.push(price);
    }
  }
  // what is drawn, for assistive technology and tests: a canvas says nothing by itself
  chartEl.dataset.lines = drawn.join(' ');
  chartEl.setAttribute('aria-label', `Price chart of ${chartSymbol ?? 'no symbol'}; ${priceLines.length} level lines`);
}

function refreshSymbols() {
  const symbols = new Set([...positions.values()].map((p) => p.symbol));
  if (chartSymbol) symbols.add(chartSymbol);
  if (symbols.size === 0) symbols.add('BTC');
  const wanted = [...symbols].sort();
  const have = [...symbolSelect.options].map((o) => o.value);
  if (wanted.join() !== have.join()) {
    symbolSelect.replaceChildren(...wanted.map((s) => el('option', { value: s, selected: s === chartSymbol }, s)));
  }
  if (!chartSymbol) setChartSymbol(wanted[0]);
}

async function setChartSymbol(symbol) {
  chartSymbol = symbol;
  symbolSelect.value = symbol;
  await loadCandles(symbol);
  drawLines();
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
      if (answer.position.symbol !== chartSymbol) await setChartSymbol(answer.position.symbol);
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
        if (symbol === chartSymbol) tick(price, message.ts ?? Date.now());
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
document.body.dataset.ready = 'true';
