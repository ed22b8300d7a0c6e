import { arenaRollupProcessor } from './arena/arena-rollup-processor.js';
import { derivativesProcessor } from './derivatives/derivatives-processor.js';
import { fundingRecorder } from './funding/funding-recorder.js';
import { latamProcessor } from './latam/latam-processor.js';
import { macroProcessor } from './macro/macro-processor.js';
import { orderExpiryProcessor } from './orders/order-expiry-processor.js';
import type { ProcessorDefinition } from './registry.js';
import { replayProcessor } from './replay/replay-processor.js';
import { tradePruneProcessor } from './retention/trade-prune-processor.js';
import { screenerProcessor } from './screener/screener-processor.js';
import { statusSampler } from './status/status-sampler.js';
import { candleSweepProcessor } from './sweep/candle-sweep-processor.js';
import { liveSweepProcessor } from './sweep/live-sweep-processor.js';
import { webhookProcessor } from './webhooks/webhook-processor.js';

/** Every queue consumer of the worker role, in one list: a feature adds its processor here. */
export const PROCESSORS: ProcessorDefinition[] = [
  fundingRecorder,
  screenerProcessor,
  macroProcessor,
  latamProcessor,
  derivativesProcessor,
  webhookProcessor,
  orderExpiryProcessor,
  candleSweepProcessor,
  liveSweepProcessor,
  statusSampler,
  arenaRollupProcessor,
  replayProcessor,
  tradePruneProcessor,
];
