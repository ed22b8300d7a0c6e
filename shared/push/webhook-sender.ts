/**
 * POSTs one webhook delivery: through the URL guard (scheme and IP literals before, every resolved
 * address at connect), no redirects followed, and a 2xx within the timeout or it failed.
 */
import { Agent, request } from 'undici';
import { checkUrlShape, guardedLookup, UrlRefused, type UrlPolicy } from './webhook-url-guard.js';

export interface SendResult {
  /** The receiver answered 2xx in time. */
  ok: boolean;
  /** The HTTP status it answered, null when it answered none. */
  status: number | null;
  ms: number;
  error: string | null;
}

export interface SenderOptions extends UrlPolicy {
  timeoutMs: number;
}

/** The error text of a failed attempt, short enough to store as last_error. */
function describe(error: unknown): string {
  if (error instanceof UrlRefused) return `refused: ${error.message}`;
  const cause = error instanceof Error && error.cause instanceof UrlRefused ? error.cause : undefined;
  if (cause) return `refused: ${cause.message}`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 200);
}

export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({ connect: { lookup: guardedLookup(options), timeout: options.timeoutMs }, keepAliveTimeout: 10_000 });
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): SendResult => ({
      ok: error === null,
      status,
      ms: Math.round(performance.now() - started),
      error,
    });
    try {
      const target = checkUrlShape(url, this.options.allowPrivate);
      const response = await request(target, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      await response.body.dump({ limit: 64 * 1024 });
      const status = response.statusCode;
      if (status >= 200 && status < 300) return done(status, null);
      return done(status, status >= 300 && status < 400 ? `redirect not followed (${status})` : `answered ${status}`);
    } catch (error) {
      return done(null, describe(error));
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
