/** The operator CLI: `npm run cli -- keys create --email E ...` (see USAGE in cli-args.ts, exit codes in cli-run.ts). */
import { runCli } from './cli-run.js';

const result = await runCli(process.argv.slice(2), process.env);
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;
