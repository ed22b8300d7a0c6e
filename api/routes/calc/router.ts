import type Joi from 'joi';
import { AppError } from '../../../shared/core/errors.js';
import { allFinite, liquidation, pnl, positionSize, riskReward, takeProfit } from '../../../shared/calculators/calculators.js';
import { defineRoutes, type RouteDefinition, type RouteGroup } from '../../routing/route-catalog.js';
import { liquidationQuery, pnlQuery, positionSizeQuery, riskRewardQuery, takeProfitQuery } from './schemas.js';

interface Calculator {
  name: string;
  summary: string;
  query: Joi.ObjectSchema;
  compute(input: never): object;
  /** A result that is finite but meaningless for a trader is refused with a named code. */
  refuse?(result: object): AppError | undefined;
  exampleQuery: Record<string, string>;
}

const CALCULATORS: Calculator[] = [
  {
    name: 'liquidation',
    summary:
      'Isolated-margin liquidation price: long = entry x (1 - 1/leverage + mmr/100), mmr capped at half the initial margin ' +
      '(50/leverage; binds above 100x at the default 0.5) as on a paper position; the result echoes the mmr applied',
    query: liquidationQuery,
    compute: liquidation,
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
    exampleQuery: { entry: '65000', roe: '50', leverage: '10', side: 'long' },
  },
];

function run(calculator: Calculator, query: never): object {
  const result = calculator.compute(query);
  if (!allFinite(result)) throw new AppError('result_not_finite', 'these inputs give a result outside the finite number range');
  const refusal = calculator.refuse?.(result);
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
      errors: calculator.refuse ? ['result_not_finite', 'roe_unreachable'] : ['result_not_finite'],
      example: { query: calculator.exampleQuery, response: exampleResponse(calculator) },
      handle: ({ query }) => run(calculator, query as never),
    })),
  );
  return defineRoutes(routes);
}
