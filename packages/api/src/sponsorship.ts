// Network fees paid for people (issue 29): user operations (ERC-4337, EntryPoint v0.8) sent through the
// server's bundler proxy, their fees paid through its ERC-7677 paymaster service, the fee options a wallet
// screen shows, and the operator's report of what was paid.
import { type Static, Type } from 'typebox';
import { defineRoute, jsonRpcErrorBody } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';

const HexQuantity = Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$', description: 'A quantity, hex.' });
const HexData = Type.String({
  pattern: '^0x([0-9a-fA-F]{2})*$',
  maxLength: 65_536,
  description: 'Bytes, hex.',
});
const AddressText = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'An address.' });
const JsonRpcId = Type.Union([Type.String({ maxLength: 100 }), Type.Number(), Type.Null()]);

/** The EIP-7702 authorization a user operation carries the first time its wallet delegates. */
const Eip7702AuthSchema = Type.Object({
  address: Type.Optional(AddressText),
  contractAddress: Type.Optional(AddressText),
  chainId: HexQuantity,
  nonce: HexQuantity,
  r: HexQuantity,
  s: HexQuantity,
  yParity: HexQuantity,
});

/** A user operation for EntryPoint v0.8 as ERC-7677 and ERC-4337's RPC write it (every number in hex). */
export const UserOperationRequestSchema = Type.Object(
  {
    sender: AddressText,
    nonce: HexQuantity,
    factory: Type.Optional(
      Type.Union([AddressText, Type.Literal('0x7702'), Type.Null()], {
        description: '`0x7702` for an EIP-7702 account.',
      }),
    ),
    factoryData: Type.Optional(Type.Union([HexData, Type.Null()])),
    callData: HexData,
    callGasLimit: HexQuantity,
    verificationGasLimit: HexQuantity,
    preVerificationGas: HexQuantity,
    maxFeePerGas: HexQuantity,
    maxPriorityFeePerGas: HexQuantity,
    paymaster: Type.Optional(Type.Union([AddressText, Type.Null()])),
    paymasterVerificationGasLimit: Type.Optional(Type.Union([HexQuantity, Type.Null()])),
    paymasterPostOpGasLimit: Type.Optional(Type.Union([HexQuantity, Type.Null()])),
    paymasterData: Type.Optional(Type.Union([HexData, Type.Null()])),
    signature: Type.Optional(HexData),
    eip7702Auth: Type.Optional(Type.Union([Eip7702AuthSchema, Type.Null()])),
  },
  { description: 'An unsigned (or stub-signed) user operation, EntryPoint v0.8.' },
);

export const paymasterRoute = defineRoute({
  ...ENDPOINTS.paymaster,
  tags: ['fees'],
  summary:
    "ERC-7677 paymaster service (JSON-RPC 2.0): pays a user operation's network fee when the operator's policy allows it (the session's own wallet, allowed calls, the account's daily limit, the chain's daily cap).",
  session: true,
  body: Type.Object({
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(JsonRpcId),
    method: Type.Enum(['pm_getPaymasterStubData', 'pm_getPaymasterData']),
    params: Type.Tuple(
      [
        UserOperationRequestSchema,
        AddressText,
        HexQuantity,
        Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
      ],
      { description: '`[userOp, entryPoint, chainId, context]`.' },
    ),
  }),
  response: {
    200: Type.Object({
      jsonrpc: Type.Literal('2.0'),
      id: JsonRpcId,
      result: Type.Object(
        {
          paymaster: Type.Optional(AddressText),
          paymasterData: Type.Optional(HexData),
          paymasterVerificationGasLimit: Type.Optional(HexQuantity),
          paymasterPostOpGasLimit: Type.Optional(HexQuantity),
          sponsor: Type.Optional(Type.Object({ name: Type.String(), icon: Type.Optional(Type.String()) })),
          isFinal: Type.Optional(Type.Boolean()),
        },
        {
          additionalProperties: true,
          description:
            'The paymaster fields. The stub (`pm_getPaymasterStubData`) carries a dummy signature, `isFinal: ' +
            'false` and `sponsor: { name: OPERATOR_NAME }`; the data (`pm_getPaymasterData`) is signed for ' +
            'this exact operation, valid about 10 minutes.',
        },
      ),
    }),
    400: jsonRpcErrorBody(['invalid_data', 'sponsor_unavailable']),
    403: jsonRpcErrorBody(['forbidden_origin', 'sponsor_not_allowed']),
    404: jsonRpcErrorBody(['wallet_not_found']),
    429: jsonRpcErrorBody(['sponsor_account_limit', 'sponsor_daily_cap', 'too_many_requests']),
    503: jsonRpcErrorBody(['chain_unavailable', 'rate_limit_unavailable']),
  },
  errors: [
    'sponsor_unavailable',
    'sponsor_not_allowed',
    'wallet_not_found',
    'sponsor_account_limit',
    'sponsor_daily_cap',
    'too_many_requests',
    'rate_limit_unavailable',
    'chain_unavailable',
  ],
});

const BundlerRequestSchema = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  id: Type.Optional(JsonRpcId),
  method: Type.String({ minLength: 1, maxLength: 100 }),
  params: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 4 })),
});

/** The bundler methods `POST /api/bundler/:chainId` passes on; any other is refused. */
export const BUNDLER_METHODS = [
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'eth_supportedEntryPoints',
  'eth_chainId',
] as const;

export const bundlerRoute = defineRoute({
  ...ENDPOINTS.bundler,
  tags: ['fees'],
  summary:
    "JSON-RPC passed on to the chain's ERC-4337 bundler (`BUNDLER_URL_<chainId>`): only the user operation's methods, and only for the session's own wallet as sender.",
  session: true,
  params: Type.Object({ chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
  body: Type.Union([BundlerRequestSchema, Type.Array(BundlerRequestSchema, { minItems: 1, maxItems: 10 })]),
  response: { 200: Type.Unknown({ description: "The bundler's JSON-RPC answer, as it is." }) },
  errors: [
    'bundler_unavailable',
    'bundler_method_not_allowed',
    'sponsor_not_allowed',
    'wallet_not_found',
    'too_many_requests',
    'rate_limit_unavailable',
    'chain_unavailable',
  ],
});

/** Why a send's fee is not paid for this account now. */
export const NOT_SPONSORED_REASONS = ['not_offered', 'account_limit', 'daily_cap'] as const;

export const walletFeesRoute = defineRoute({
  ...ENDPOINTS.walletFees,
  tags: ['fees'],
  summary:
    "How a send on a chain pays its fee: whether user operations can be sent there (a bundler), and whether the operator pays this account's fee now (and how many such sends are left today) or why not.",
  session: true,
  querystring: Type.Object(
    { chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      chainId: Type.Integer(),
      userOperations: Type.Boolean({
        description:
          'A bundler serves this chain: user operations can be sent through `/api/bundler/:chainId`.',
      }),
      entryPoint: Type.Union([AddressText, Type.Null()], {
        description: 'EntryPoint v0.8, with user operations.',
      }),
      implementation: Type.Union([AddressText, Type.Null()], {
        description: 'The account implementation a wallet delegates to (EIP-7702): Simple7702Account.',
      }),
      sponsored: Type.Boolean({ description: "The operator pays this account's next send's fee." }),
      operatorName: Type.Union([Type.String(), Type.Null()], {
        description: 'Who pays: "Network fee: free, paid by <operatorName>". Null when not sponsored.',
      }),
      sponsoredLeftToday: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'Sponsored sends this account has left this UTC day; null when not offered.',
      }),
      notSponsoredReason: Type.Union([Type.Enum([...NOT_SPONSORED_REASONS]), Type.Null()], {
        description:
          '`not_offered`: this chain has no sponsored fees (or none for this account); `account_limit`: the ' +
          "account's sends for today are used; `daily_cap`: the operator's budget for today on this chain is " +
          'used. Null when sponsored.',
      }),
    }),
  },
  errors: [],
});

const DayChainSchema = Type.Object({
  day: Type.String({ description: 'The UTC day, `YYYY-MM-DD`.' }),
  chainId: Type.Integer(),
  count: Type.Integer({ description: 'Sponsored operations signed for.' }),
  maxCostWei: Type.String({ description: 'The sum of their max costs (what the cap counts), in wei.' }),
  maxCost: Type.String({ description: 'The same in the native unit (ETH, POL), a decimal.' }),
  actualCostWei: Type.String({ description: 'What those read from the chain cost, in wei.' }),
  actualCost: Type.String({ description: 'The same in the native unit.' }),
  settled: Type.Integer({
    description: 'How many were read from the chain (ran): the actual cost is theirs.',
  }),
  capWei: Type.Union([Type.String(), Type.Null()], {
    description: "The chain's daily cap in force, in wei.",
  }),
  cap: Type.Union([Type.String(), Type.Null()], { description: 'The same in the native unit.' }),
  accounts: Type.Array(Type.Object({ userId: Type.String(), count: Type.Integer() }), {
    description: 'Per account, most first.',
  }),
});

export const sponsorshipReportRoute = defineRoute({
  ...ENDPOINTS.sponsorshipReport,
  tags: ['fees'],
  summary:
    "The operator's report of sponsored fees per UTC day and chain, behind `Authorization: Bearer <OPERATOR_TOKEN>` (404 when no token is configured, 401 for a missing or wrong one).",
  querystring: Type.Object(
    {
      days: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 366, description: 'Days back, today included; 7 by default.' }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      from: Type.String({ description: 'The first UTC day covered.' }),
      to: Type.String({ description: 'The last (today, UTC).' }),
      accountDailyLimit: Type.Integer(),
      rows: Type.Array(DayChainSchema),
    }),
  },
  errors: ['not_found', 'unauthorized', 'too_many_requests', 'rate_limit_unavailable'],
});

/** `POST /api/paymaster`'s request. */
export type PaymasterRequest = Static<typeof paymasterRoute.schema.body>;
/** A user operation as the paymaster service and the bundler proxy read it. */
export type UserOperationRequest = Static<typeof UserOperationRequestSchema>;
/** `GET /api/wallet/fees`'s answer. */
export type WalletFees = Static<(typeof walletFeesRoute.schema.response)[200]>;
/** `GET /api/admin/sponsorships`'s answer. */
export type SponsorshipReport = Static<(typeof sponsorshipReportRoute.schema.response)[200]>;
