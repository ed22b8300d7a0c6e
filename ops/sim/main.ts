/** `npm run sim [port]`: the simulated exchange alone, on SIM_PORT (8090) unless a port is given. */
import { ConfigError, loadConfig, type Config } from '../../shared/config.js';
import { shutdownOnSignal } from '../../shared/core/shutdown.js';
import { startSim } from './sim-server.js';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`config error: ${error.message}`);
  process.exit(1);
}
const arg = process.argv[2];
const port = arg === undefined ? config.simPort : Number(arg);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid port: ${arg}`);
  process.exit(2);
}

const sim = await startSim({ port, host: '127.0.0.1' });
console.log(`sim listening on ${sim.url}`);

const stop = shutdownOnSignal({
  graceMs: config.shutdownGraceMs,
  stop: (steps) => steps.run('simulated exchange', () => sim.close()),
  report: (level, message, fields) => (level === 'info' ? console.log : console.error)(fields.err ?? `sim: ${message}`),
});
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
