/** The answers of the keyed bot routes, on the named components (api/openapi/components.ts); v2 drops their ok. */
import { webhookTestSchema } from '../../../shared/push/webhook-schema.js';
import { arrayOf, boolean, bodySchema, integer, number, okTrue, ref, string, type JsonSchema } from '../../../shared/core/json-schema.js';

/** A component with ok: true beside its properties (v1's shape; v2's data is the component). */
const okWith = (component: string): JsonSchema => ({ allOf: [ref(component)], properties: { ok: okTrue }, required: ['ok'] });

export const BOT_RESPONSES = {
  open: bodySchema(
    {
      ok: okTrue,
      position: {
        anyOf: [ref('Position'), { type: 'object', description: 'dry_run: the position it would open, without id' }],
        description: 'A market entry: the position (absent for a limit or stop entry)',
      },
      order: {
        anyOf: [ref('Order'), { type: 'object', description: 'dry_run: what the order would be, without order_id' }],
        description: 'A limit or stop entry: its resting order',
      },
      idempotent: boolean('True when a reused client_order_id answers what it made before'),
      dry_run: { const: true, description: 'Present on a dry run: nothing was written' },
      fill: bodySchema({
        requested_margin_usd: number('The margin sent'),
        filled_margin_usd: number('The margin that filled (below the request on a partial fill)'),
        fill_pct: number('Filled share of the request, percent'),
        partial: boolean(),
      }),
    },
    ['position', 'order', 'idempotent', 'dry_run', 'fill'],
  ),
  close: bodySchema(
    {
      ok: okTrue,
      closed: { ...ref('Position'), description: 'The closed position, or the closed part of a partial close' },
      remaining: { ...ref('Position'), description: 'A partial close: the part that stays open' },
      position: ref('Position'),
      idempotent: boolean(),
    },
    ['remaining'],
  ),
  closeAll: bodySchema(
    {
      ok: okTrue,
      closed: integer('How many closed'),
      positions: arrayOf(ref('Position')),
      not_closed: arrayOf(
        bodySchema({ id: string(), symbol: string(), error: string() }),
        'Positions left open (no live price), with the reason',
      ),
    },
    ['not_closed'],
  ),
  sltp: bodySchema({ ok: okTrue, position: ref('Position') }),
  positions: bodySchema({ positions: arrayOf(ref('Position')), count: integer() }),
  trades: bodySchema({
    trades: arrayOf(ref('Trade')),
    count: integer(),
    next_before: { type: ['integer', 'string', 'null'], description: 'The before of the next page (unix ms, or ms:id); null at the end' },
    retention_days: integer(),
  }),
  orders: bodySchema({
    orders: arrayOf(ref('Order'), 'Resting'),
    recent: arrayOf(ref('Order'), 'The last ones that filled, expired or were cancelled'),
  }),
  order: bodySchema({ ok: okTrue, order: ref('Order') }),
  cancel: bodySchema({ ok: okTrue, order_id: string(), status: { const: 'cancelled' }, order: ref('Order') }),
  account: ref('Account'),
  balance: ref('Balance'),
  accounts: bodySchema({ accounts: arrayOf(ref('Book')), this_key_account: string('The book this key acts on') }),
  reset: okWith('Reset'),
  equity: okWith('Equity'),
  report: ref('Report'),
  markets: bodySchema({
    markets: arrayOf(ref('Market')),
    count: integer(),
    unlisted_classes: arrayOf(string(), 'Asset classes no connected exchange lists now: none of them trades here until one does'),
  }),
  fees: ref('Fees'),
  feesSet: bodySchema({ ok: okTrue, fee_venue: { $ref: '#/components/schemas/Fees/properties/fee_venue' } }),
  webhooks: bodySchema({
    webhooks: arrayOf(ref('Webhook')),
    max: integer("The plan's number of webhooks"),
    events: arrayOf(string()),
    signature: bodySchema({
      header: string(),
      scheme: string(),
      timestamped: bodySchema({ header: string(), scheme: string() }),
    }),
  }),
  webhookAct: bodySchema(
    {
      ok: okTrue,
      webhook: { ...ref('Webhook'), description: 'add: the hook, with its secret (shown once)' },
      deleted: string('delete: the id'),
      ...(webhookTestSchema.properties as Record<string, JsonSchema>),
    },
    ['webhook', 'deleted', ...Object.keys(webhookTestSchema.properties as Record<string, JsonSchema>)],
  ),
} satisfies Record<string, JsonSchema>;
