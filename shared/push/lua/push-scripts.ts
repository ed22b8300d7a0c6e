/** The push .lua scripts beside this file (outbox, socket slots, webhooks, whsink). */
import { LuaScripts } from '../../redis/lua-scripts.js';

export const pushScripts = new LuaScripts(import.meta.url, {
  'outbox-ack': { version: 1, numberOfKeys: 2 },
  'socket-claim': { version: 1, numberOfKeys: 1 },
  'socket-trim': { version: 1, numberOfKeys: 1 },
  'webhook-add': { version: 1, numberOfKeys: 1 },
  'webhook-outcome': { version: 1, numberOfKeys: 3 },
  'whsink-record': { version: 1, numberOfKeys: 3, includes: ['rate-window'] },
});
