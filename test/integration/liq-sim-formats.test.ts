import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { WebSocket, type RawData } from 'ws';
import { parseBinanceLiquidations } from '../../shared/derivatives/liquidations/formats/binance.js';
import { parseBitfinexLiquidations } from '../../shared/derivatives/liquidations/formats/bitfinex.js';
import { parseBitgetLiquidations } from '../../shared/derivatives/liquidations/formats/bitget.js';
import { BitmexOrderTimes, parseBitmexInstruments, parseBitmexLiquidations } from '../../shared/derivatives/liquidations/formats/bitmex.js';
import { parseDeribitLiquidations } from '../../shared/derivatives/liquidations/formats/deribit.js';
import { parseGateLiquidations, parseGateMultipliers } from '../../shared/derivatives/liquidations/formats/gate.js';
import { parseHtxLiquidations } from '../../shared/derivatives/liquidations/formats/htx.js';
import { parseOkxContractValues, parseOkxLiquidations } from '../../shared/derivatives/liquidations/formats/okx.js';
import { publicEvent, type LiquidationFrame } from '../../shared/derivatives/liquidations/liquidation-event.js';
import { startSim } from '../../ops/sim/sim-server.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { at, getJson, shapeDiff, toWsUrl, WsProbe } from '../helpers/sim-client.js';
import { fixture } from '../helpers/fixtures.js';

const BTC_LONG = { symbol: 'BTCUSDT', side: 'long', price: 50_000, qty: 0.5 };
const expected = (exchange: string) => ({
  exchange,
  symbol: 'BTCUSDT',
  side: 'long_liquidated',
  price: 50_000,
  qty: 0.5,
  notional: 25_000,
});
const withoutTs = (frame: LiquidationFrame) => frame.events.map((e) => ({ ...publicEvent(e), ts: 0 })).map(({ ts: _ts, ...rest }) => rest);

describe('simulated exchange: the liquidation formats of the seven exchanges beyond Binance and Bybit', function () {
  this.timeout(20_000);
  let sim: SimHandle;
  const opened: WsProbe[] = [];
  const open = async (path: string): Promise<WsProbe> => {
    const probe = await WsProbe.open(`${toWsUrl(sim.url)}${path}`);
    opened.push(probe);
    return probe;
  };
  const inject = (exchange: string, body: Record<string, unknown> = BTC_LONG) => simControl(sim, 'liquidation', { exchange, ...body });

  before(async () => {
    sim = await startScriptedSim();
  });
  after(async () => {
    for (const p of opened) p.close();
    await sim.close();
  });

  it('okx: liquidation-orders on /ws/v5/public, sized in ctVal contracts from /public/instruments', async () => {
    const ws = await open('/okx/ws/v5/public');
    ws.send({ id: '1', op: 'subscribe', args: [{ channel: 'liquidation-orders', instType: 'SWAP' }] });
    await ws.waitFor((m) => at(m, 'event') === 'subscribe');
    await inject('okx');
    const frame = await ws.waitFor((m) => at(m, 'arg', 'channel') === 'liquidation-orders' && Array.isArray(at(m, 'data')));
    expect(shapeDiff(at(fixture('okx-v5/ws-liquidation-orders.json'), 'data'), at(frame, 'data'))).to.deep.equal([]);
    const contracts = parseOkxContractValues((await getJson(`${sim.url}/okx/api/v5/public/instruments?instType=SWAP`)).body);
    expect(withoutTs(parseOkxLiquidations(frame, contracts))).to.deep.equal([expected('okx')]);
  });

  it('bitget: topic liquidation on /v3/ws/public (position side), answering ping', async () => {
    const ws = await open('/bitget/v3/ws/public');
    ws.send({ op: 'subscribe', args: [{ instType: 'usdt-futures', topic: 'liquidation' }] });
    await ws.waitFor((m) => at(m, 'event') === 'subscribe');
    ws.send('ping');
    await ws.waitFor((m) => m === 'pong');
    await inject('bitget');
    const frame = await ws.waitFor((m) => at(m, 'arg', 'topic') === 'liquidation' && at(m, 'action') === 'update');
    expect(shapeDiff(fixture('bitget/ws-liquidation.recorded.json'), frame)).to.deep.equal([]);
    expect(withoutTs(parseBitgetLiquidations(frame))).to.deep.equal([expected('bitget')]);
  });

  it('gate: futures.public_liquidates with !all, signed contracts of quanto_multiplier', async () => {
    const ws = await open('/gate/v4/ws/usdt');
    ws.send({ time: 1, channel: 'futures.public_liquidates', event: 'subscribe', payload: ['!all'] });
    const ack = await ws.waitFor((m) => at(m, 'event') === 'subscribe');
    expect(shapeDiff(fixture('gate-futures/ws-subscribe-ack.json'), ack)).to.deep.equal([]);
    await inject('gate');
    const frame = await ws.waitFor((m) => at(m, 'event') === 'update');
    expect(shapeDiff(fixture('gate-futures/ws-public-liquidates.json'), frame)).to.deep.equal([]);
    expect(at(frame, 'result', 0, 'size')).to.be.below(0);
    const multipliers = parseGateMultipliers((await getJson(`${sim.url}/gate/api/v4/futures/usdt/contracts`)).body);
    expect(withoutTs(parseGateLiquidations(frame, multipliers))).to.deep.equal([expected('gate')]);
  });

  it('bitmex: liquidation table insert then delete; a later subscriber gets the resting orders in its partial', async () => {
    const ws = await open('/bitmex/realtime');
    await ws.waitFor((m) => typeof at(m, 'info') === 'string');
    ws.send({ op: 'subscribe', args: ['liquidation'] });
    await ws.waitFor((m) => at(m, 'action') === 'partial');
    await inject('bitmex');
    const insert = await ws.waitFor((m) => at(m, 'action') === 'insert');
    const [fixtureInsert, fixtureDelete] = fixture('bitmex/ws-liquidation.recorded.json') as unknown[];
    expect(shapeDiff(fixtureInsert, insert)).to.deep.equal([]);
    expect(shapeDiff(fixtureDelete, await ws.waitFor((m) => at(m, 'action') === 'delete'))).to.deep.equal([]);
    const instruments = parseBitmexInstruments((await getJson(`${sim.url}/bitmex/api/v1/instrument/active`)).body);
    expect(withoutTs(parseBitmexLiquidations(insert, instruments, new BitmexOrderTimes(), Date.now()))).to.deep.equal([expected('bitmex')]);
    const later = await open('/bitmex/realtime');
    later.send({ op: 'subscribe', args: ['liquidation'] });
    const partial = await later.waitFor((m) => at(m, 'action') === 'partial');
    expect(at(partial, 'data', 0, 'orderID')).to.equal(at(insert, 'data', 0, 'orderID'));
  });

  it('deribit: trades with liquidation "T" on trades.future.BTC.100ms (inverse: amount in USD)', async () => {
    const ws = await open('/deribit/ws/api/v2');
    ws.send({ jsonrpc: '2.0', id: 1, method: 'public/subscribe', params: { channels: ['trades.future.BTC.100ms'] } });
    await ws.waitFor((m) => at(m, 'id') === 1);
    await inject('deribit');
    const frame = await ws.waitFor((m) => at(m, 'method') === 'subscription');
    expect(shapeDiff((fixture('deribit/ws-trades-liquidation.recorded.json') as unknown[])[0], frame)).to.deep.equal([]);
    expect(withoutTs(parseDeribitLiquidations(frame))).to.deep.equal([expected('deribit')]);
  });

  it('htx: gzip frames on /linear-swap-notification, a server ping to answer, liquidation_orders for *', async () => {
    const ws = new WebSocket(`${toWsUrl(sim.url)}/htx/linear-swap-notification`);
    const messages: unknown[] = [];
    ws.on('message', (data: RawData, binary: boolean) => {
      expect(binary).to.equal(true);
      messages.push(JSON.parse(gunzipSync(data as Buffer).toString('utf8')) as unknown);
    });
    await new Promise((resolve) => ws.once('open', resolve));
    try {
      ws.send(JSON.stringify({ op: 'sub', cid: 'c1', topic: 'public.*.liquidation_orders' }));
      const until = async (pred: (m: unknown) => boolean): Promise<unknown> => {
        for (let i = 0; i < 200; i++) {
          const found = messages.find(pred);
          if (found) return found;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error('htx frame not received');
      };
      expect(at(await until((m) => at(m, 'op') === 'sub'), 'err-code')).to.equal(0);
      await inject('htx');
      const frame = await until((m) => at(m, 'op') === 'notify');
      const recorded = (fixture('htx/ws-liquidation-orders.recorded.json') as unknown[])[1];
      expect(shapeDiff(recorded, frame)).to.deep.equal([]);
      expect(withoutTs(parseHtxLiquidations(frame))).to.deep.equal([expected('htx')]);
    } finally {
      ws.terminate();
    }
  });

  it('random mode emits liquidations on its own (shown on the Gate and Binance sockets)', async () => {
    const random = await startSim({ port: 0, host: '127.0.0.1', mode: 'random', tickMs: 20, seed: 3, liquidationRate: 20 });
    try {
      const gate = await WsProbe.open(`${toWsUrl(random.url)}/gate/v4/ws/usdt`);
      const binance = await WsProbe.open(`${toWsUrl(random.url)}/binance/stream?streams=!forceOrder@arr`);
      opened.push(gate, binance);
      gate.send({ time: 1, channel: 'futures.public_liquidates', event: 'subscribe', payload: ['!all'] });
      const update = await gate.waitFor((m) => at(m, 'event') === 'update', { timeoutMs: 8_000 });
      expect(at(update, 'result', 0, 'contract')).to.match(/^[A-Z0-9]+_USDT$/);
      const force = await binance.waitFor((m) => at(m, 'stream') === '!forceOrder@arr', { timeoutMs: 8_000 });
      expect(parseBinanceLiquidations(force).events).to.have.length(1);
      expect(at((await getJson(`${random.url}/__sim/liquidations`)).body, 'liquidations')).to.deep.equal([]);
    } finally {
      await random.close();
    }
  });

  it('bitfinex: status liq:global, each position reported twice (trigger, execution) and replayed to a new subscriber', async () => {
    const ws = await open('/bitfinex/ws/2');
    await ws.waitFor((m) => at(m, 'event') === 'info');
    ws.send({ event: 'subscribe', channel: 'status', key: 'liq:global' });
    const subscribed = await ws.waitFor((m) => at(m, 'event') === 'subscribed');
    expect(shapeDiff((fixture('bitfinex/ws-liquidations.recorded.json') as unknown[])[0], subscribed)).to.deep.equal([]);
    const mark = ws.mark();
    await inject('bitfinex');
    const first = await ws.waitFor((m) => Array.isArray(m) && at(m, 1, 0, 0) === 'pos', { since: mark });
    const update = (fixture('bitfinex/ws-liquidations.recorded.json') as unknown[])[1];
    expect(shapeDiff(at(update, 1, 0), at(first, 1, 0))).to.deep.equal([]);
    expect(withoutTs(parseBitfinexLiquidations(first))).to.deep.equal([expected('bitfinex')]);
    const later = await open('/bitfinex/ws/2');
    later.send({ event: 'subscribe', channel: 'status', key: 'liq:global' });
    const replayed = await later.waitFor((m) => Array.isArray(m) && at(m, 1, 0, 1) === at(first, 1, 0, 1));
    expect(parseBitfinexLiquidations(replayed).events[0].id).to.equal(parseBitfinexLiquidations(first).events[0].id);
  });
});
