/** Trading: open, close, close_all, sltp, and the positions and trades reads. */
import { AppError } from '../../../shared/core/errors.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { CloseRequest } from '../../../shared/paper/positions/close-service.js';
import type { OpenRequest, SltpRequest } from '../../../shared/paper/positions/position-service.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import type { ApiRequest, ApiResponse } from '../../routing/http-types.js';
import { closeBody, openBody, parseSide, positionsQuery, sltpBody, tradesQuery } from './schemas.js';
import { BOT_RESPONSES } from './responses.js';
import { bookTrading, type BotTradingRouteOptions } from './router.js';

type OpenBody = Omit<OpenRequest, 'side' | 'type'> & {
  side?: unknown;
  type?: 'market' | 'limit' | 'stop';
  stop_price?: number;
  reduce_only?: unknown;
  post_only?: unknown;
  margin_mode?: unknown;
};

const truthy = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== false && value !== 0 && value !== '' && value !== 'false' && value !== '0';

/** Refuses what this engine does not do, by name, before anything is priced. */
function refuseUnsupported(body: OpenBody): void {
  if (truthy(body.reduce_only))
    throw new AppError('reduce_only_unsupported', 'reduce_only is not supported: close with /close (pct for a part)');
  if (truthy(body.post_only)) throw new AppError('post_only_unsupported', 'post_only is not supported: entries fill as takers');
  if (body.margin_mode !== undefined && String(body.margin_mode).toLowerCase() !== 'isolated') {
    throw new AppError('margin_mode_unsupported', 'margin is isolated per position');
  }
}

/**
 * A market entry, or a limit or stop entry with its level (limit_price, or its alias stop_price). A
 * level without a resting type is refused: it must never turn into a silent market fill.
 */
function entryKind(body: OpenBody): Pick<OpenRequest, 'type' | 'limit_price'> {
  if (body.limit_price !== undefined && body.stop_price !== undefined && body.limit_price !== body.stop_price) {
    throw new AppError('invalid_param', 'stop_price is an alias of limit_price: send one of them', { param: 'stop_price' });
  }
  const level = body.limit_price ?? body.stop_price;
  if (body.type === 'limit' || body.type === 'stop') {
    if (level === undefined) throw new AppError('limit_price_required', `a ${body.type} entry needs limit_price`, { param: 'limit_price' });
    return { type: body.type, limit_price: level };
  }
  if (level !== undefined)
    throw new AppError('invalid_param', 'limit_price needs type limit or stop (a market entry fills at the live price)', { param: 'type' });
  return { type: 'market' };
}

/** True when If-None-Match names this ETag (or is *). */
function notModified(req: ApiRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

export function positionRoutes(options: BotTradingRouteOptions): RouteDefinition[] {
  const { trading } = options;
  return keyedBotRoutes('bot trading', [
    {
      path: '/open',
      method: 'post',
      response: BOT_RESPONSES.open,
      summary: 'Open a position at the live price (market entry), or place a limit or stop entry; dry_run prices it and writes nothing',
      description:
        'Quantity = margin_usd x leverage / entry. The per-side fee rate is stamped on the position. A reused client_order_id ' +
        'answers with the same position and idempotent true. ' +
        'type limit or stop with limit_price rests an order (answered as order): a limit long below the market, short above it; a ' +
        'stop long above, short below; ' +
        'sl and tp are checked against limit_price; a level more than 50% from the market is refused (limit_price_far). It rests ' +
        'with status open, fills at limit_price when a closed 1-minute candle reaches it ' +
        '(unless the book then holds its open cap or a position of the symbol on the other side: one-way mode; the order is ' +
        'rejected with a note), expires after 30 days; 20 per book. ' +
        'A dry run of a limit or stop entry answers order { type, symbol, side, limit_price, direction up|down, would_fill_now } ' +
        'and position_if_filled (with liq_price). ' +
        "A market entry fills under the book's simulation profile (/sim; /realism shows three of its fields): slippage, " +
        'margin_tiers and mmr_pct in the body apply to this fill only; ' +
        'fill { requested_margin_usd, filled_margin_usd, fill_pct, partial } says how much filled, and the position keeps its terms ' +
        '(realism, slippage_bps, slippage_usd, mmr_pct).',
      body: openBody,
      errors: [
        'symbol_required',
        'side_required',
        'leverage_max',
        'sl_wrong_side',
        'tp_wrong_side',
        'unknown_fee_venue',
        'limit_price_required',
        'limit_marketable',
        'limit_price_far',
        'stop_wrong_side',
        'unknown_symbol',
        'no_price',
        'market_closed',
        'too_many_open',
        'too_many_orders',
        'sim_out_of_range',
        'notional_max',
        'fill_below_min',
        'insufficient_margin',
        'order_rejected',
      ],
      example: {
        body: { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, sl: 60000, client_order_id: 'my-1' },
        response: {
          ok: true,
          position: {
            id: 'bpmb3x0k2a1b2c3d4',
            symbol: 'BTC',
            side: 'long',
            entry: 65000,
            qty: 0.0153846,
            margin: 100,
            leverage: 10,
            liq_price: 58825,
            status: 'open',
          },
          idempotent: false,
        },
      },
      prefetch: (body) => trading.positions.prefetchFill(body),
      handle: async ({ body, auth, prefetched }: { body: OpenBody; auth: KeyContext; prefetched?: unknown }) => {
        refuseUnsupported(body);
        const side = parseSide(body.side);
        const book = await bookTrading(options, auth);
        // the prefetch read the live price: a journal fills at its cursor
        const fill = { prefetched: book.journal ? undefined : prefetched };
        return book.trading.positions.open(book.auth, { ...body, side, ...entryKind(body) }, fill);
      },
    },
    {
      path: '/close',
      method: 'post',
      response: BOT_RESPONSES.close,
      summary:
        'Close a position (pct below 100 splits it and records the closed part) at the live price; a stop, target or liquidation ' +
        'the live price crossed settles the whole position at its level',
      body: closeBody,
      errors: ['id_required', 'position_not_found', 'already_closed', 'no_price', 'remaining_margin_min_1', 'busy'],
      example: {
        body: { id: 'bpmb3x0k2a1b2c3d4', pct: 50 },
        response: {
          ok: true,
          closed: { id: 'bpmb3x0k2a1b2c3d4-1', status: 'closed', pnl_usd: 3.21 },
          remaining: { id: 'bpmb3x0k2a1b2c3d4', status: 'open' },
        },
      },
      prefetch: (body, key) => trading.closes.prefetch(body, key),
      handle: async ({ body, auth, prefetched }: { body: CloseRequest; auth: KeyContext; prefetched?: unknown }) => {
        const book = await bookTrading(options, auth);
        return book.trading.closes.close(book.auth, body, undefined, { prefetched: book.journal ? undefined : prefetched });
      },
    },
    {
      path: '/close_all',
      method: 'post',
      response: BOT_RESPONSES.closeAll,
      summary: 'Close every open position of the book, each settled like close',
      handle: async ({ auth }: { auth: KeyContext }) => {
        const book = await bookTrading(options, auth);
        return book.trading.closes.closeAll(book.auth);
      },
    },
    {
      path: '/sltp',
      method: 'post',
      response: BOT_RESPONSES.sltp,
      summary: 'Set (number), clear (null) or keep (absent) stop-loss, take-profit and trailing stop',
      description:
        'sl and tp are checked against the entry. A position shows as sl the stop in force: the tighter of the stop-loss set here ' +
        'and the trailing ' +
        'stop (trail_pct behind trail_hwm, the best price since entry; set at open, then ratcheted). trail_pct is absent when the ' +
        'position does not ' +
        'trail (trail_hwm null): clearing it leaves the stop-loss set here in force.',
      body: sltpBody,
      errors: ['id_required', 'sl_or_tp_required', 'sl_wrong_side', 'tp_wrong_side', 'position_not_found', 'already_closed', 'busy'],
      example: {
        body: { id: 'bpmb3x0k2a1b2c3d4', sl: 58000, trail_pct: 5 },
        response: {
          ok: true,
          position: {
            id: 'bpmb3x0k2a1b2c3d4',
            side: 'long',
            entry: 60000,
            status: 'open',
            sl: 59850,
            tp: null,
            trail_pct: 5,
            trail_hwm: 63000,
          },
        },
      },
      handle: async ({ body, auth }: { body: SltpRequest; auth: KeyContext }) => {
        const book = await bookTrading(options, auth);
        return book.trading.positions.sltp(book.auth, body);
      },
    },
    {
      path: '/positions',
      method: 'get',
      response: BOT_RESPONSES.positions,
      summary: 'Open positions (or closed with status=closed), marked to the live price; at most 100 rows; ETag and 304',
      query: positionsQuery,
      handle: async ({
        query,
        auth,
        req,
        res,
      }: {
        query: { status?: 'open' | 'closed'; since?: number };
        auth: KeyContext;
        req: ApiRequest;
        res: ApiResponse;
      }) => {
        const book = await bookTrading(options, auth);
        const { positions, etag } = await book.trading.reads.positions(book.auth, query);
        res.setHeader('ETag', etag);
        if (notModified(req, etag)) {
          res.statusCode = 304;
          res.end();
          return undefined;
        }
        return { positions, count: positions.length };
      },
    },
    {
      path: '/trades',
      method: 'get',
      response: BOT_RESPONSES.trades,
      summary: 'Closed trades, newest first; page with before = next_before',
      query: tradesQuery,
      handle: async ({ query, auth }: { query: { limit: number; before?: string }; auth: KeyContext }) => {
        const book = await bookTrading(options, auth);
        return book.trading.reads.trades(book.auth, query);
      },
    },
  ]);
}
