import { expect } from 'chai';
import { ESLint } from 'eslint';

/** Imports the layering refuses, by the message that names the rule broken, then by the file they are planted in. */
const REFUSED: Record<string, Record<string, string[]>> = {
  'api/ reaches Redis': {
    'api/v1/planted.ts': [
      "import { createRedis } from '../../shared/redis/connection.js';",
      "import { subscriberClient } from '../../shared/core/redis-client.js';",
      "import { Redis } from 'ioredis';",
    ],
    'api/ws/planted.ts': ["import { duplicateClient, type RedisClient } from '../../shared/core/redis-client';"],
  },
  'Pure domain code': {
    'shared/engine/planted.ts': [
      "import { readFileSync } from 'node:fs';",
      "import { createRedis } from '../redis/connection.js';",
      "import { Redis } from 'ioredis';",
    ],
    'shared/calculators/planted.ts': [
      "import { request } from 'undici';",
      "import { PositionStore } from '../paper/positions/position-store.js';",
    ],
    'shared/screener/indicators.ts': ["import { ScreenerRunner } from './screener-runner.js';"],
    'shared/engine/analytics/planted.ts': [
      "import { hash } from 'node:crypto';",
      "import { keys } from '../../redis/keys.js';",
      "import { AnalyticsStore } from '../../paper/analytics/analytics-store.js';",
      "import { createRedis } from '../../../shared/redis/connection.js';",
    ],
  },
  'ops/': {
    'workers/planted.ts': ["import { startSim } from '../ops/sim/sim-server.js';"],
    'shared/paper/planted.ts': ["import { startSim } from '../../ops/sim/sim-server.js';"],
  },
  'shared/core/ imports no feature': {
    'shared/core/planted.ts': [
      "import { keys } from '../redis/keys.js';",
      "import type { SiteSettings } from '../site/site-settings.js';",
      "import { startSim } from '../../ops/sim/sim-server.js';",
    ],
  },
  'clients/typescript/src imports only': {
    'clients/typescript/src/planted.ts': ["import { ERROR_CODES } from '../../../shared/core/errors.js';"],
  },
};

/** Imports each layer may make, by the file they are planted in. */
const ALLOWED: Record<string, string> = {
  'api/v1/planted.ts':
    "import type { Redis } from 'ioredis';\nimport { isRedisUnreachable } from '../../shared/core/redis-unreachable.js';\n" +
    "import type { RedisClient } from '../../shared/core/redis-client.js';\nimport { createApiPod } from '../../shared/api-pod.js';",
  'shared/engine/planted.ts': "import { direction } from './side.js';",
  'shared/calculators/planted.ts': "import { liquidationPrice } from '../engine/liquidation.js';",
  'shared/engine/analytics/planted.ts':
    "import { settle } from '../settlement.js';\nimport { DAY_MS } from './close-facts.js';\nimport { liquidationPrice } from '../../engine/liquidation.js';",
  'shared/screener/indicators.ts': "import { EMA } from 'trading-signals';\nimport type { Setup } from './score.js';",
  'shared/core/planted.ts': "import Joi from 'joi';\nimport { ConfigError } from './config-error.js';",
  'workers/planted.ts': "import { createRedis } from '../shared/redis/connection.js';",
  'ops/sim/planted.ts': "import { createRedis } from '../../shared/redis/connection.js';",
  'clients/typescript/src/planted.ts': "import createClient from 'openapi-fetch';\nimport type { paths } from './openapi.js';",
};

/** The import-boundary rules of eslint.config.js, run on planted sources. */
describe('lint boundaries', function () {
  // the first lint loads the config and the TypeScript parser
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: process.cwd() });

  async function restrictedImports(at: string, imports: string): Promise<string[]> {
    const [result] = await eslint.lintText(`${imports}\nexport const planted = 1;\n`, { filePath: at });
    // eslint's rule, and typescript-eslint's where a type-only import may pass
    return result.messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.message);
  }

  for (const [rule, planted] of Object.entries(REFUSED)) {
    it(`refuses what breaks "${rule}"`, async () => {
      for (const [at, imports] of Object.entries(planted)) {
        for (const line of imports) {
          const found = await restrictedImports(at, line);
          expect(found, `${at}: ${line}`).to.have.length(1);
          expect(found[0]).to.contain(rule);
        }
      }
    });
  }

  it('lets the layers import what they may', async () => {
    for (const [at, imports] of Object.entries(ALLOWED)) expect(await restrictedImports(at, imports), at).to.deep.equal([]);
  });
});
