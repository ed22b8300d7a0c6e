import { expect } from 'chai';
import { ESLint } from 'eslint';

/** The import-boundary rules of eslint.config.js, run on planted sources as if they sat at `filePath`. */
describe('lint boundaries', function () {
  // the first lint loads the config and the TypeScript parser
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: process.cwd() });

  async function restrictedImports(filePath: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  it('refuses shared/redis in api/', async () => {
    const found = await restrictedImports('api/v1/planted.ts', "import { createRedis } from '../../shared/redis/connection.js';\nexport { createRedis };\n");
    expect(found).to.have.length(1);
    expect(found[0]).to.contain('api/ reaches Redis');
  });

  it('refuses I/O in the engine, the calculators and the indicators', async () => {
    const planted: [string, string][] = [
      ['shared/engine/planted.ts', "import { readFileSync } from 'node:fs';"],
      ['shared/engine/planted.ts', "import { createRedis } from '../redis/connection.js';"],
      ['shared/engine/planted.ts', "import { Redis } from 'ioredis';"],
      ['shared/calculators/planted.ts', "import { request } from 'undici';"],
      ['shared/calculators/planted.ts', "import { PositionStore } from '../paper/positions/position-store.js';"],
      ['shared/screener/indicators.ts', "import { ScreenerRunner } from './screener-runner.js';"],
    ];
    for (const [filePath, line] of planted) {
      const found = await restrictedImports(filePath, `${line}\nexport const planted = 1;\n`);
      expect(found, `${filePath}: ${line}`).to.have.length(1);
      expect(found[0]).to.contain('Pure domain code');
    }
  });

  it('refuses ops/ in workers/ and shared/', async () => {
    for (const filePath of ['workers/planted.ts', 'shared/paper/planted.ts']) {
      const depth = filePath.split('/').length - 1;
      const found = await restrictedImports(filePath, `import { startSim } from '${'../'.repeat(depth)}ops/sim/sim-server.js';\nexport { startSim };\n`);
      expect(found, filePath).to.have.length(1);
      expect(found[0]).to.contain('ops/');
    }
  });

  it('lets the layers import what they may', async () => {
    const legal: [string, string][] = [
      ['api/v1/planted.ts', "import type { Redis } from 'ioredis';\nimport { isRedisUnreachable } from '../../shared/core/redis-unreachable.js';"],
      ['shared/engine/planted.ts', "import { direction } from './side.js';"],
      ['shared/calculators/planted.ts', "import { liquidationPrice } from '../engine/liquidation.js';"],
      ['shared/screener/indicators.ts', "import { EMA } from 'trading-signals';\nimport type { Setup } from './score.js';"],
      ['workers/planted.ts', "import { createRedis } from '../shared/redis/connection.js';"],
      ['ops/sim/planted.ts', "import { createRedis } from '../../shared/redis/connection.js';"],
    ];
    for (const [filePath, lines] of legal) {
      expect(await restrictedImports(filePath, `${lines}\nexport const planted = 1;\n`), filePath).to.deep.equal([]);
    }
  });
});
