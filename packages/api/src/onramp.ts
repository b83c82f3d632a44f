// Buying crypto through the on-ramp provider.
import { ONRAMP_ASSETS } from '@dial/core';
import { type Static, Type } from 'typebox';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';

export const OnrampProviderSchema = Type.Enum(['coinbase', 'sandbox'], {
  description: "`sandbox`: this server's test checkout, crediting the local chain.",
});

export const onrampSessionRoute = defineRoute({
  ...ENDPOINTS.onrampSession,
  tags: ['onramp'],
  summary:
    "Starts a purchase: a single-use session token from the on-ramp provider for the signed-in user's wallet, in the provider's buy-page link.",
  session: true,
  body: Type.Object(
    {
      asset: Type.Enum([...ONRAMP_ASSETS]),
      network: Type.String({
        pattern: '^[a-z0-9-]{1,40}$',
        description: "The provider's network, e.g. `base`.",
      }),
      amount: Type.String({
        pattern: '^(\\d{1,12}(\\.\\d{1,18})?|\\.\\d{1,18})$',
        description: 'A positive decimal; `.5` is read as `0.5`.',
      }),
      experience: Type.Enum(['buy', 'send'], {
        description: '`buy`: by card; `send`: from an exchange account.',
      }),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      url: Type.String({
        description: 'The buy page to open (a navigation); it holds the session token.',
      }),
      provider: Type.Enum(['coinbase', 'sandbox']),
    }),
  },
  errors: ['wallet_not_found', 'onramp_unavailable', ...RATE_LIMIT_ERRORS],
});

/** What `POST /api/onramp/session` is asked for. */
export type OnrampSessionRequest = Static<typeof onrampSessionRoute.schema.body>;
/** The provider's buy-page link, with its session token. */
export type OnrampSessionStarted = Static<(typeof onrampSessionRoute.schema.response)[200]>;
