/** The service's entry point (npm start): ROLE=all|api|feed|worker. The demo's is ops/demo/main.ts. */
import { runService } from './run-service.js';

await runService(process.env);
