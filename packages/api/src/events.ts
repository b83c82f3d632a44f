// The live stream of what changes in the signed-in user's wallet (`GET /api/events`, server-sent events).
import { type Static, Type } from 'typebox';

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
]);

/**
 * One change in the signed-in user's wallet, as the live stream sends it (an SSE `data:` line of JSON, its
 * `id:` the event's sequence number). It says what changed, never who else was involved: the browser reads
 * the details through the routes it already uses (`GET /api/activity`, balances from the chain).
 */
export type WalletEvent = Static<typeof WalletEventSchema>;
