// The image's HEALTHCHECK: GET /healthz of this container's process. An API process (ROLE api or all) answers on
// PORT; worker and feed processes answer on their METRICS_PORT listener. With no listener to ask, there is nothing
// to probe and the check passes (the orchestrator's own probes need METRICS_PORT set: see ops/deploy/k8s/).
const role = process.env.ROLE ?? 'all';
const port = role === 'api' || role === 'all' ? (process.env.PORT ?? '8080') : process.env.METRICS_PORT;
if (port === undefined || port === '') process.exit(0);
try {
  const answer = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_500) });
  process.exit(answer.ok ? 0 : 1);
} catch {
  process.exit(1);
}
