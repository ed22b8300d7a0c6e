import type { Request, Response, NextFunction } from 'express';

const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Scope',
  'Retry-After',
  'X-Request-Id',
  'X-PD-Plan',
  'X-PD-Plan-Expires',
  'X-PD-Plan-Days-Left',
  'ETag',
].join(', ');

/** The public API is meant to be called from any web page. */
export function cors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED);
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.header('Access-Control-Request-Headers') ?? 'Content-Type, X-API-Key, If-None-Match',
    );
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
    return;
  }
  next();
}
