/** The answers of /replay, on the named components (api/openapi/components.ts); v2 drops their ok. */
import { bodySchema, okTrue, ref, type JsonSchema } from '../../../shared/core/json-schema.js';

export const REPLAY_RESPONSES = {
  view: ref('Replay'),
  act: bodySchema({
    ok: okTrue,
    replay: { anyOf: [ref('ReplayStart'), ref('ReplaySummary')], description: 'start: the replay; stop: its summary' },
  }),
} satisfies Record<string, JsonSchema>;
