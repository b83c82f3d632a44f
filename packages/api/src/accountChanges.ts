// The key owns the account: step-up proofs, changes waiting out their cooling-off period, "Secure my account".
import { ACCOUNT_CHANGE_ACTIONS } from '@dial/core';
import { type Static, Type } from 'typebox';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { ADDRESS_PATTERN, HexString } from './shapes.js';
import { CredentialIdSchema, PasskeyAssertionSchema } from './webauthnShapes.js';

const IdSchema = Type.String({ format: 'uuid' });
const AddressSchema = Type.String({ pattern: ADDRESS_PATTERN });
/** A signer's address in an answer, typed `` `0x${string}` ``. */
const SignerSchema = HexString({ pattern: ADDRESS_PATTERN });

export const AccountChangeActionSchema = Type.Enum([...ACCOUNT_CHANGE_ACTIONS], {
  description: "core's `AccountChangeAction`.",
});

export const AccountProofSchema = Type.Object(
  {
    challenge: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'The challenge from `POST /api/account/proof`, as given.',
    }),
    address: AddressSchema,
    signature: Type.String({
      pattern: '^0x[0-9a-fA-F]{130}$',
      description:
        "The EIP-191 (`personal_sign`) signature over core's `accountChangeMessage` for this change, by " +
        "`address`: the account's embedded wallet, or (an account without one) a wallet it signs in with " +
        'that was not linked without proof.',
    }),
  },
  {
    additionalProperties: false,
    description:
      "Step-up proof: the account key's signature over a single-use challenge and exactly this change. " +
      'Without it, a change that may be asked for waits out the cooling-off period (answer 202).',
  },
);

/** The account key's signature over a single-use challenge and exactly one change. */
export type AccountProof = Static<typeof AccountProofSchema>;

export const PasskeyProofSchema = Type.Object(
  {
    challenge: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'The challenge from `POST /api/account/proof`, as given.',
    }),
    passkey: PasskeyAssertionSchema,
  },
  {
    additionalProperties: false,
    description:
      "Step-up proof by a passkey: an assertion (user verified) of one of the account's trusted passkeys over " +
      "core's `passkeyChangeChallenge` for this change, the challenge and this passkey.",
  },
);

/** A passkey's assertion over a single-use challenge and exactly one change. */
export type PasskeyProof = Static<typeof PasskeyProofSchema>;

export const StepUpProofSchema = Type.Union([AccountProofSchema, PasskeyProofSchema], {
  description:
    "Step-up proof: the account key's signature, or an assertion of one of the account's trusted passkeys.",
});

/** Either proof a change to the account takes at once: the key's signature or a passkey's assertion. */
export type StepUpProof = Static<typeof StepUpProofSchema>;

/** A body that carries nothing but an optional proof. */
export const ProofOnlyBodySchema = Type.Object(
  { proof: Type.Optional(StepUpProofSchema) },
  { additionalProperties: false },
);

export const AccountChangeSchema = Type.Object({
  id: IdSchema,
  action: AccountChangeActionSchema,
  summary: Type.String({ description: 'What it does, in words ("Link the e-mail address a…@example.com").' }),
  status: Type.Enum(['pending', 'applied', 'cancelled', 'failed']),
  requestedFrom: Type.Union([Type.String(), Type.Null()], {
    description: 'The browser that asked ("Chrome on Linux").',
  }),
  requestedHere: Type.Boolean({ description: 'Asked by this very session.' }),
  createdAt: Type.String({ format: 'date-time' }),
  appliesAt: Type.String({ format: 'date-time', description: 'When the cooling-off period ends.' }),
  settledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  outcome: Type.Union([Type.String(), Type.Null()], {
    description: 'Why a failed change failed (an error code), or `cancelled`.',
  }),
});

/** A change asked for without the key's proof, as the account's owner sees it. */
export type AccountChange = Static<typeof AccountChangeSchema>;

/** The answer of a change route when the change was asked for without proof: it now waits. */
export const PendingAnswerSchema = Type.Object(
  { pending: AccountChangeSchema },
  {
    description:
      'Asked for without proof: the change waits `COOLING_OFF_HOURS`; every method and signed-in browser of the account is told, and a session with proof can cancel it.',
  },
);

/** The errors of a change that needs or may carry a proof. */
export const PROOF_ERRORS = [
  'account_proof_required',
  'wallet_proof_invalid',
  'wallet_proof_expired',
  'passkey_invalid',
] as const;

export const accountProofRoute = defineRoute({
  ...ENDPOINTS.accountProof,
  tags: ['account'],
  summary:
    "A single-use challenge (5 minutes, this session only) for the account key's proof of one change; and which keys may sign it.",
  session: true,
  body: Type.Object({ action: AccountChangeActionSchema }, { additionalProperties: false }),
  response: {
    201: Type.Object({
      challenge: Type.String(),
      expiresAt: Type.String({ format: 'date-time' }),
      signers: Type.Array(SignerSchema, {
        description: 'Addresses whose signature proves a change: the embedded wallet, else trusted wallets.',
      }),
      passkeys: Type.Array(CredentialIdSchema, {
        description:
          "The credential ids of the account's trusted passkeys, whose assertion proves a change too.",
      }),
    }),
  },
  errors: ['account_proof_required', ...RATE_LIMIT_ERRORS],
});

export const listAccountChangesRoute = defineRoute({
  ...ENDPOINTS.listAccountChanges,
  tags: ['account'],
  summary:
    'Changes asked for without proof: the pending ones, and those settled in the last 30 days, newest first.',
  session: true,
  response: {
    200: Type.Object({
      changes: Type.Array(AccountChangeSchema),
      coolingOffHours: Type.Number({ description: '`COOLING_OFF_HOURS`.' }),
      signers: Type.Array(SignerSchema, { description: 'As in `POST /api/account/proof`.' }),
      sessionTrusted: Type.Boolean({
        description:
          'Whether this session signed in with a method linked with proof (or the account’s first).',
      }),
    }),
  },
  errors: [],
});

export const cancelAccountChangeRoute = defineRoute({
  ...ENDPOINTS.cancelAccountChange,
  tags: ['account'],
  summary:
    'Cancels a pending change: needs the proof (an account without a key: a session of a trusted method).',
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: ProofOnlyBodySchema,
  response: { 200: Type.Object({ change: AccountChangeSchema }) },
  errors: ['not_found', 'change_not_pending', ...PROOF_ERRORS],
});

export const secureAccountRoute = defineRoute({
  ...ENDPOINTS.secureAccount,
  tags: ['account'],
  summary:
    '"Secure my account", with the proof: ends every other session, removes the methods linked without proof, cancels pending changes and forgets every other browser.',
  session: true,
  body: Type.Object({ proof: StepUpProofSchema }, { additionalProperties: false }),
  response: {
    200: Type.Object({
      endedSessions: Type.Integer({ minimum: 0 }),
      removedMethods: Type.Integer({ minimum: 0 }),
      cancelledChanges: Type.Integer({ minimum: 0 }),
      forgottenBrowsers: Type.Integer({ minimum: 0 }),
    }),
  },
  errors: [...PROOF_ERRORS],
});
