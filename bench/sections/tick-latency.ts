export interface LatencySummary {
  samples: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Tick-to-API latency: set a new BTC price on the simulated exchanges, then poll /api/v1/price
 * every 5 ms until it is served. Measures the whole path: exchange stream -> feed -> Redis -> API
 * (including its in-process cache).
 */
export async function measureTickToApi(simUrl: string, apiUrl: string, samples: number): Promise<LatencySummary> {
  const post = (path: string, body: unknown): Promise<Response> =>
    fetch(`${simUrl}/__sim/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('mode', { mode: 'scripted' });
  const latencies: number[] = [];
  try {
    for (let i = 0; i < samples; i += 1) {
      const price = 60_000 + i * 7.25 + Math.random();
      const rounded = Math.round(price * 100) / 100;
      const started = performance.now();
      await post('price', { symbol: 'BTCUSDT', price: rounded });
      for (;;) {
        const body = (await (await fetch(`${apiUrl}/api/v1/price?symbol=BTC`)).json()) as { data?: { price: number } };
        if (body.data?.price === rounded) break;
        if (performance.now() - started > 10_000) throw new Error(`price ${rounded} not served within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      latencies.push(performance.now() - started);
    }
  } finally {
    await post('mode', { mode: 'random' });
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return { samples, medianMs: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted[sorted.length - 1] };
}
