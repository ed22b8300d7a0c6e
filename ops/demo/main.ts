/** `npm run demo`'s entry point (ops/demo.sh): the service of workers/main.ts with the demo's additions. */
import { runService } from '../../workers/run-service.js';
import { demoAddOns } from './demo-add-ons.js';

await runService(process.env, demoAddOns());
