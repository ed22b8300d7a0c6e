// The trade page's price chart: a symbol's 1-minute candles, moved by the stream's live prices, with the entry, stop,
// target and liquidation lines of its open positions.
import { api } from './site.js';
import { CandlestickSeries, LineStyle, siteChart } from './chart.js';

const LINE_COLORS = { entry: '#5cb8ff', stop: '#ff7b72', target: '#4cd08a', liquidation: '#ffa657' };

export class PriceChart {
  constructor(container) {
    this.container = container;
    /** The symbol shown (BTC), null before the first. */
    this.symbol = null;
    this.candles = [];
    this.lines = [];
    /** The prices of the lines drawn, for the price scale. */
    this.levelPrices = [];
    this.chart = siteChart(container);
    this.series = this.chart.addSeries(CandlestickSeries, {
      upColor: '#4cd08a',
      downColor: '#ff7b72',
      wickUpColor: '#4cd08a',
      wickDownColor: '#ff7b72',
      borderVisible: false,
      // the price scale takes in the level lines too, so a stop or a liquidation far from the candles stays in sight
      autoscaleInfoProvider: (original) => {
        const range = original();
        if (!range || this.levelPrices.length === 0) return range;
        return {
          ...range,
          priceRange: {
            minValue: Math.min(range.priceRange.minValue, ...this.levelPrices),
            maxValue: Math.max(range.priceRange.maxValue, ...this.levelPrices),
          },
        };
      },
    });
  }

  /** Shows a symbol's last 300 one-minute candles (none when the history cannot be read). */
  async show(symbol) {
    this.symbol = symbol;
    try {
      const rows = await api(`/api/v1/klines?symbol=${encodeURIComponent(`${symbol}USDT`)}&interval=1&limit=300`);
      this.candles = rows.map((c) => ({ time: c.time, open: c.open, high: c.high, low: c.low, close: c.close }));
    } catch {
      this.candles = [];
    }
    this.series.setData(this.candles);
    this.chart.timeScale().fitContent();
  }

  /** Moves the last candle (or starts the next minute's) with a live price. */
  tick(price, nowMs) {
    const minute = Math.floor(nowMs / 60_000) * 60;
    const last = this.candles.at(-1);
    if (last && last.time === minute) {
      last.high = Math.max(last.high, price);
      last.low = Math.min(last.low, price);
      last.close = price;
      this.series.update({ ...last });
    } else if (!last || last.time < minute) {
      const open = last ? last.close : price;
      const next = { time: minute, open, high: Math.max(open, price), low: Math.min(open, price), close: price };
      this.candles.push(next);
      this.series.update({ ...next });
    }
  }

  /** The level lines of the shown symbol's positions (of those given). */
  drawLines(positions) {
    for (const line of this.lines) this.series.removePriceLine(line);
    this.lines = [];
    this.levelPrices = [];
    const drawn = [];
    for (const p of positions) {
      if (p.symbol !== this.symbol) continue;
      const levels = [
        ['entry', p.entry_price ?? p.entry],
        ['stop', p.sl],
        ['target', p.tp],
        ['liquidation', p.liq_price],
      ];
      for (const [kind, price] of levels) {
        if (typeof price !== 'number') continue;
        this.lines.push(
          this.series.createPriceLine({
            price,
            color: LINE_COLORS[kind],
            lineWidth: kind === 'entry' ? 2 : 1,
            lineStyle: kind === 'entry' ? LineStyle.Solid : LineStyle.Dashed,
            axisLabelVisible: true,
            title: `${kind} ${p.side}`,
          }),
        );
        drawn.push(`${p.id}:${kind}:${price}`);
        this.levelPrices.push(price);
      }
    }
    // what is drawn, for assistive technology and tests: a canvas says nothing by itself
    this.container.dataset.lines = drawn.join(' ');
    this.container.setAttribute('aria-label', `Price chart of ${this.symbol ?? 'no symbol'}; ${this.lines.length} level lines`);
  }
}
