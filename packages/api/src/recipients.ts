// Finding the wallet to send to by phone number.
import { type Static, Type } from 'typebox';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { HexString } from './shapes.js';

export const lookupRecipientRoute = defineRoute({
  ...ENDPOINTS.lookupRecipient,
  tags: ['wallet'],
  summary: 'The wallet address of the Dial user who verified a phone number, to send to.',
  session: true,
  querystring: Type.Object({
    phone: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The number in international form (`+447400123456`, spaces allowed).',
    }),
  }),
  response: {
    200: Type.Object(
      {
        address: HexString({ description: 'EIP-55 checksummed address.' }),
        phone: Type.String({ description: 'The number masked to its last four digits, e.g. `*3456`.' }),
      },
      { additionalProperties: false },
    ),
  },
  errors: ['invalid_phone', 'recipient_not_found', ...RATE_LIMIT_ERRORS],
});

export type LookupRecipientQuery = Static<typeof lookupRecipientRoute.schema.querystring>;
/** A Dial user's wallet found by their verified number; `phone` is masked (`*3456`). */
export type FoundRecipient = Static<(typeof lookupRecipientRoute.schema.response)[200]>;
