/** Test-side helpers for the simulated exchange: JSON over HTTP, WebSocket probes, shape checks. */
import { WebSocket, type RawData } from 'ws';
import { startSim, type SimHandle } from '../../ops/sim/sim-server.js';

export interface HttpJson {
  status: number;
  body: unknown;
}

export async function getJson(url: string): Promise<HttpJson> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

export async function postJson(url: string, body: unknown): Promise<HttpJson> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

export function toWsUrl(httpUrl: string): string {
  return httpUrl.replace(/^http/, 'ws');
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

interface Waiter {
  since: number;
  pred: (m: unknown) => boolean;
  resolve: (m: unknown) => void;
}

/** A WebSocket that records every message (JSON parsed, or the raw text) and lets tests await one. */
export class WsProbe {
  readonly messages: unknown[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: RawData) => {
      const text = rawText(data);
      let msg: unknown = text;
      try {
        msg = JSON.parse(text) as unknown;
      } catch {
        // plain-text frames such as "pong" stay strings
      }
      this.messages.push(msg);
      for (const w of this.waiters) {
        if (w.pred(msg)) {
          this.waiters.delete(w);
          w.resolve(msg);
        }
      }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code: number) => resolve(code)));
  }

  static open(url: string, timeoutMs = 5000): Promise<WsProbe> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const probe = new WsProbe(ws);
      const timer = setTimeout(() => reject(new Error(`timeout opening ${url}`)), timeoutMs);
      ws.once('open', () => {
        clearTimeout(timer);
        resolve(probe);
      });
      ws.once('unexpected-response', (_req, res) => {
        clearTimeout(timer);
        ws.terminate();
        reject(new Error(`upgrade refused with HTTP ${res.statusCode ?? '?'}`));
      });
      ws.once('error', (e: Error) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  }

  /** Index to pass as `since` so that only later messages count. */
  mark(): number {
    return this.messages.length;
  }

  send(data: string | object): void {
    this.ws.send(typeof data === 'string' ? data : JSON.stringify(data));
  }

  waitFor(pred: (m: unknown) => boolean, opts: { since?: number; timeoutMs?: number; label?: string } = {}): Promise<unknown> {
    const since = opts.since ?? 0;
    const found = this.messages.slice(since).find(pred);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { since, pred, resolve: () => undefined };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const last = JSON.stringify(this.messages.slice(-3)).slice(0, 600);
        reject(new Error(`timeout waiting for ${opts.label ?? 'message'}; last frames: ${last}`));
      }, opts.timeoutMs ?? 5000);
      waiter.resolve = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
      this.waiters.add(waiter);
    });
  }

  /** Resolves with the close code (1006 for an abrupt drop). */
  waitClose(timeoutMs = 5000): Promise<number> {
    return Promise.race([
      this.closed,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error('socket did not close')), timeoutMs).unref()),
    ]);
  }

  close(): void {
    this.ws.terminate();
  }
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads nested fields of unknown JSON without casts at every step. */
export function at(v: unknown, ...path: Array<string | number>): unknown {
  let cur = v;
  for (const key of path) {
    if (typeof key === 'number') cur = Array.isArray(cur) ? cur[key] : undefined;
    else cur = isObj(cur) ? cur[key] : undefined;
  }
  return cur;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/**
 * Differences in keys and JSON value types between a reference payload and an actual one.
 * Arrays of equal length compare position by position (kline rows, filter lists); otherwise every
 * actual element is compared with the reference's first element. Empty arrays are not inspected.
 */
export function shapeDiff(expected: unknown, actual: unknown, path = '$'): string[] {
  const te = jsonType(expected);
  const ta = jsonType(actual);
  if (te !== ta) return [`${path}: expected ${te}, got ${ta}`];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length === 0 || actual.length === 0) return [];
    const scalarRow = expected.every((e) => jsonType(e) !== 'object' && jsonType(e) !== 'array');
    if (scalarRow && expected.length !== actual.length) return [`${path}: expected ${expected.length} items, got ${actual.length}`];
    if (expected.length === actual.length) return expected.flatMap((e, i) => shapeDiff(e, actual[i], `${path}[${i}]`));
    return actual.flatMap((a, i) => shapeDiff(expected[0], a, `${path}[${i}]`));
  }
  if (isObj(expected) && isObj(actual)) {
    const out: string[] = [];
    for (const k of Object.keys(expected)) if (!(k in actual)) out.push(`${path}.${k}: missing`);
    for (const k of Object.keys(actual)) if (!(k in expected)) out.push(`${path}.${k}: unexpected`);
    for (const k of Object.keys(expected)) if (k in actual) out.push(...shapeDiff(expected[k], actual[k], `${path}.${k}`));
    return out;
  }
  return [];
}

/**
 * Registers before/after hooks for a describe block: a scripted sim (ticking every 100 ms, `seed`
 * fixing its random parts), and the stream probes `open` connects to it; all closed after.
 */
export function useProbedSim(seed?: number): { readonly sim: SimHandle; open(path: string): Promise<WsProbe> } {
  let sim: SimHandle | undefined;
  const probes: WsProbe[] = [];
  const need = (): SimHandle => {
    if (!sim) throw new Error('useProbedSim: read sim inside a test or a later hook');
    return sim;
  };
  before(async () => {
    sim = await startSim({ port: 0, mode: 'scripted', tickMs: 100, ...(seed === undefined ? {} : { seed }) });
  });
  after(async () => {
    for (const p of probes) p.close();
    await sim?.close();
  });
  return {
    get sim() {
      return need();
    },
    async open(path) {
      const p = await WsProbe.open(toWsUrl(need().url) + path);
      probes.push(p);
      return p;
    },
  };
}
