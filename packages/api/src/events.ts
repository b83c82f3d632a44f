// The live stream of what changes in the signed-in user's wallet (`GET /api/events`, server-sent events).
import { type Static, Type } from 'typebox';
import { defineRoute } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';

export const WalletEventSchema = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('activity'),
      /** The history entry's id (`GET /api/activity` items). */
      entryId: Type.String(),
      chainId: Type.Integer(),
      /** `added`: a new entry; `settled`: an entry became `confirmed` or `failed`. */
      change: Type.Enum(['added', 'settled']),
      direction: Type.Enum(['sent', 'received']),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('keys'),
      /** The key split now current: a browser holding an older one must recover. */
      generation: Type.Integer({ minimum: 1 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('account'),
      /** A change to the account was asked for, cancelled, applied or refused, or a notice was recorded. */
      change: Type.Enum(['requested', 'settled', 'notice']),
    },
    { additionalProperties: false },
  ),
]);

/**
 * One change in the signed-in user's wallet, as the live stream sends it (an SSE `data:` line of JSON, its
 * `id:` the resume point: the highest event sequence number sent so far). It says what changed, never who
 * else was involved: the browser reads the details through the routes it already uses (`GET /api/activity`,
 * balances from the chain).
 */
export type WalletEvent = Static<typeof WalletEventSchema>;

/**
 * The SSE event types of the stream besides the default `message` (whose `data` is a {@link WalletEvent}):
 * - `reset`: the stream cannot replay what came after the id it was resumed from (the events were swept, or
 *   the id is unknown): reload everything, then go on from the id this event carries;
 * - `end`: the session ended (signed out, ended from another browser, expired); the stream closes and must
 *   not be opened again without signing in.
 */
export type WalletStreamControl = 'reset' | 'end';

export const walletEventsRoute = defineRoute({
  ...ENDPOINTS.walletEvents,
  tags: ['events'],
  summary: "The live stream of changes in the signed-in user's wallet (server-sent events).",
  session: true,
  querystring: Type.Object(
    {
      after: Type.Optional(
        Type.String({
          pattern: '^[0-9]{1,15}$',
          description:
            'Resume after this event id (the last `id:` received), as `Last-Event-ID` does; the header wins.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.String({
      description:
        '`text/event-stream`: a `retry:` hint and the current `id:`, then each event as `id: <seq>` and ' +
        '`data: <WalletEvent JSON>`, comment lines as heartbeats, and the `reset` and `end` events.',
    }),
  },
  errors: ['too_many_streams'],
});
