/** `npm run sim [port]`: the simulated exchange alone, on SIM_PORT (8090) unless a port is given. */
import { ConfigError, loadConfig } from '../../shared/core/config.js';
import { startSim } from './sim-server.js';

let simPort: number;
try {
  simPort = loadConfig(process.env).simPort;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`config error: ${error.message}`);
  process.exit(1);
}
const arg = process.argv[2];
const port = arg === undefined ? simPort : Number(arg);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid port: ${arg}`);
  process.exit(2);
}

const sim = await startSim({ port, host: '127.0.0.1' });
console.log(`sim listening on ${sim.url}`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  sim.close().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
