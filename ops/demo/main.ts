/** `npm run demo`'s entry point (ops/demo.sh): the service of workers/main.ts with the demo's additions. */
import { runService } from '../../workers/run-service.js';
import { demoAddOns, demoEnv } from './demo-add-ons.js';

// before the config is read: the demo's operator token is a random one unless OPS_TOKEN is given
const { env, generatedOpsToken } = demoEnv(process.env);
await runService(env, demoAddOns(generatedOpsToken));
