// What the assets Dial shows are worth, from the configured price source.
import { type Static, Type } from 'typebox';
import { defineRoute } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';

/** The assets Dial prices: the native currencies of its networks (ETH, POL) and USDC. */
export const PRICED_ASSETS = ['ETH', 'POL', 'USDC'] as const;
/** One of {@link PRICED_ASSETS}. */
export type PricedAsset = (typeof PRICED_ASSETS)[number];

/** The currencies prices are given in (ISO 4217). */
export const PRICE_CURRENCIES = ['USD'] as const;
/** One of {@link PRICE_CURRENCIES}. */
export type PriceCurrency = (typeof PRICE_CURRENCIES)[number];

export const PriceSourceSchema = Type.Enum(['sandbox', 'coinbase', 'off'], {
  description:
    '`PRICE_SOURCE`: `sandbox`, fixed test prices (development; the only source that prices the local ' +
    "chain's test funds); `coinbase`, Coinbase's spot prices; `off`, no prices.",
});

export const pricesRoute = defineRoute({
  ...ENDPOINTS.prices,
  tags: ['prices'],
  summary:
    'What ETH, POL and USDC are worth in a currency, from the price source (each price read at most once a minute, shared by every server).',
  session: true,
  querystring: Type.Object(
    {
      currency: Type.Optional(
        Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217; `USD` by default.' }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      currency: Type.Enum([...PRICE_CURRENCIES]),
      source: PriceSourceSchema,
      prices: Type.Array(
        Type.Object({
          symbol: Type.Enum([...PRICED_ASSETS]),
          price: Type.String({
            pattern: '^\\d+(\\.\\d+)?$',
            description: 'One unit of the asset in `currency`, a decimal string.',
          }),
          fetchedAt: Type.String({ format: 'date-time', description: 'When the source gave it.' }),
        }),
        {
          description:
            'Only the prices known: an asset whose price the source could not give just now is left out ' +
            '(never guessed); none at all with `source: "off"`.',
        },
      ),
    }),
  },
  errors: ['currency_not_supported'],
});

/** `GET /api/prices`: the prices known, by asset. */
export type Prices = Static<(typeof pricesRoute.schema.response)[200]>;
/** Where prices come from. */
export type PriceSource = Static<typeof PriceSourceSchema>;
