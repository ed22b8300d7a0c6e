/** The push .lua scripts beside this file (outbox, socket slots, webhooks, whsink). */
import { LuaScripts } from '../../redis/lua-scripts.js';

export const pushScripts = new LuaScripts(import.meta.url, {
  'outbox-ack': { version: 2, numberOfKeys: 3 },
  'outbox-index-read': { version: 1, numberOfKeys: 0 },
  'socket-claim': { version: 1, numberOfKeys: 1 },
  'socket-trim': { version: 1, numberOfKeys: 1 },
  'webhook-add': { version: 1, numberOfKeys: 1 },
  'webhook-outcome': { version: 1, numberOfKeys: 3 },
  'webhook-reseal': { version: 1, numberOfKeys: 1 },
  'whsink-record': { version: 2, numberOfKeys: 4, includes: ['rate-window'] },
});
