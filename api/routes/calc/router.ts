import type Joi from 'joi';
import { AppError, type ErrorCode } from '../../../shared/core/errors.js';
import { allFinite, liquidation, mmrRefusal, pnl, positionSize, riskReward, takeProfit } from '../../../shared/calculators/calculators.js';
import { defineRoutes, type RouteDefinition, type RouteGroup } from '../../routing/route-catalog.js';
import { liquidationQuery, pnlQuery, positionSizeQuery, riskRewardQuery, takeProfitQuery } from './schemas.js';

interface Calculator {
  name: string;
  summary: string;
  query: Joi.ObjectSchema;
  compute(input: never): object;
  /** Inputs or a result that are finite but meaningless for a trader are refused with a named code. */
  refuse?(result: object, query: never): AppError | undefined;
  refusals?: ErrorCode[];
  exampleQuery: Record<string, string>;
}

const CALCULATORS: Calculator[] = [
  {
    name: 'liquidation',
    summary:
      'Isolated-margin liquidation price: long = entry x (1 - 1/leverage + mmr/100). Without mmr, the default 0.5 as on a ' +
      'paper position: from 200x, where it would put the price at the entry, half the initial margin (50/leverage) instead; ' +
      'a given mmr of 100/leverage or more is refused (mmr_crosses_entry). The result echoes the mmr applied',
    query: liquidationQuery,
    compute: liquidation,
    refuse: (_result, query) => {
      const reason = mmrRefusal(query);
      return reason === undefined ? undefined : new AppError('mmr_crosses_entry', reason, { param: 'mmr' });
    },
    refusals: ['mmr_crosses_entry'],
    exampleQuery: { entry: '65000', leverage: '10', side: 'long' },
  },
  {
    name: 'position-size',
    summary: 'Risk-based position size: (balance x risk%) / |entry - stop|',
    query: positionSizeQuery,
    compute: positionSize,
    exampleQuery: { balance: '10000', risk: '1', entry: '65000', stop: '64000', leverage: '5' },
  },
  {
    name: 'pnl',
    summary: 'Profit and loss, ROI and ROE of a position',
    query: pnlQuery,
    compute: pnl,
    exampleQuery: { entry: '65000', exit: '66300', size: '0.5', leverage: '10', side: 'long' },
  },
  {
    name: 'risk-reward',
    summary: 'Risk/reward ratio and the break-even win rate: 100 / (1 + ratio)',
    query: riskRewardQuery,
    compute: riskReward,
    exampleQuery: { entry: '65000', stop: '64000', tp: '68000' },
  },
  {
    name: 'take-profit',
    summary: 'Exit price that reaches a target ROE: the price moves roe / leverage percent',
    query: takeProfitQuery,
    compute: takeProfit,
    refuse: (result) =>
      (result as ReturnType<typeof takeProfit>).targetExitPrice <= 0
        ? new AppError('roe_unreachable', 'this ROE would need the price to reach zero or below', { param: 'roe' })
        : undefined,
    refusals: ['roe_unreachable'],
    exampleQuery: { entry: '65000', roe: '50', leverage: '10', side: 'long' },
  },
];

function run(calculator: Calculator, query: never): object {
  const result = calculator.compute(query);
  if (!allFinite(result)) throw new AppError('result_not_finite', 'these inputs give a result outside the finite number range');
  const refusal = calculator.refuse?.(result, query);
  if (refusal) throw refusal;
  return result;
}

function exampleResponse(calculator: Calculator): object {
  const { value } = calculator.query.validate(calculator.exampleQuery, { convert: true });
  return calculator.compute(value as never);
}

/** Both families: /api/v1/calc/<name> in the envelope and /api/<name> bare, from one definition. */
export function calcRoutes(): RouteGroup {
  const routes: RouteDefinition[] = CALCULATORS.flatMap((calculator) =>
    (['envelope', 'bare'] as const).map<RouteDefinition>((style) => ({
      method: 'get',
      path: style === 'envelope' ? `/api/v1/calc/${calculator.name}` : `/api/${calculator.name}`,
      tag: 'calculators',
      summary: calculator.summary,
      style,
      query: calculator.query,
      errors: ['result_not_finite', ...(calculator.refusals ?? [])],
      example: { query: calculator.exampleQuery, response: exampleResponse(calculator) },
      handle: ({ query }) => run(calculator, query as never),
    })),
  );
  return defineRoutes(routes);
}
