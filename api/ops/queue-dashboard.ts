/**
 * The operator's queue dashboard (bull-board) at /ops/queues: every queue of the registry (shared/queues/queue-names.ts),
 * its jobs by state, a failed job's error and stack, retries. Mounted behind opsAuth (api/middleware/ops-auth.ts) by
 * api/app.ts. Built on its first request, so a pod whose dashboard nobody opens holds no connection for it.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../../shared/core/errors.js';
import type { AllQueues } from '../../shared/queues/all-queues.js';

export const QUEUE_DASHBOARD_PATH = '/ops/queues';
/** The name of the dashboard's Redis connection (CLIENT LIST). */
export const QUEUE_DASHBOARD_CONNECTION = 'perpdesk-queue-dashboard';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A change sent by another site's page. A browser sends the basic credentials it remembers for this host with any
 * request to it, so a page elsewhere could post to the dashboard's API as the operator; browsers name the request's
 * origin (Sec-Fetch-Site, Origin), and a client that names none (curl, a script with the bearer token) is no browser.
 */
function crossSite(req: Request): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  // the browser's own word when it gives it (a proxy that rewrites Host cannot mislead it); else its Origin
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

export interface QueueDashboard {
  /** Serves the dashboard's page, its static files and its JSON API under QUEUE_DASHBOARD_PATH. */
  handler: RequestHandler;
  /** Closes the dashboard's queues and their connection, if it was ever opened. */
  close(): Promise<void>;
}

/** `openQueues` opens every queue of the registry on a connection of its own (ApiPod.openQueues). */
export function queueDashboard(openQueues: (connectionName: string) => AllQueues): QueueDashboard {
  let opened: { queues: AllQueues; router: RequestHandler } | undefined;
  let closed = false;
  const open = (): { queues: AllQueues; router: RequestHandler } => {
    const queues = openQueues(QUEUE_DASHBOARD_CONNECTION);
    const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: queues.queues.map((queue) => new BullMQAdapter(queue)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'Perpdesk queues' } },
    });
    return { queues, router: serverAdapter.getRouter() as RequestHandler };
  };
  return {
    handler: (req, res, next) => {
      if (closed) return next();
      if (crossSite(req)) return next(new AppError('ops_cross_site', 'the dashboard takes changes only from its own pages'));
      opened ??= open();
      opened.router(req, res, next);
    },
    close: async () => {
      closed = true;
      await opened?.queues.close();
    },
  };
}
