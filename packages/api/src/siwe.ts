// Sign-In with Ethereum (EIP-4361): a wallet the person already has signs a message carrying a nonce from
// this server; the server checks the message and the signature, then signs in (and signs up) its address.
import { type Static, Type } from 'typebox';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { UserSchema } from './shapes.js';

/** The longest SIWE message accepted, in characters (EIP-4361 messages are well under 2 KB). */
export const MAX_SIWE_MESSAGE_LENGTH = 4096;
/** The longest signature accepted, hex: an ERC-6492 signature wraps a deployment call and may be long. */
export const MAX_SIWE_SIGNATURE_LENGTH = 12_000;

/** What to put in a SIWE message: the nonce and the values the server will check. */
export const SiweNonceSchema = Type.Object({
  nonce: Type.String({
    description: 'At least 128 bits, alphanumeric (EIP-4361). Single use, bound to this browser or session.',
  }),
  expiresAt: Type.String({ format: 'date-time', description: 'The nonce is refused after it (10 minutes).' }),
  domain: Type.String({ description: "This deployment's host (`PUBLIC_URL`'s), the message's `domain`." }),
  uri: Type.String({ description: "This deployment's origin, the message's `URI`." }),
  chainIds: Type.Array(Type.Integer(), { description: 'The chain ids a message may name.' }),
  statement: Type.String({
    description: 'The statement to put in the message (shown by the wallet; not checked).',
  }),
});

export type SiweNonce = Static<typeof SiweNonceSchema>;

/** A signed SIWE message. */
export const SignedSiweMessageSchema = Type.Object({
  message: Type.String({
    minLength: 1,
    maxLength: MAX_SIWE_MESSAGE_LENGTH,
    description:
      "The EIP-4361 text, exactly as viem's `createSiweMessage` writes it for its fields (times as `toISOString`).",
  }),
  signature: Type.String({
    pattern: '^0x[0-9a-fA-F]+$',
    maxLength: MAX_SIWE_SIGNATURE_LENGTH,
    description: 'EIP-191 `personal_sign` of the message; ERC-1271 / ERC-6492 for contract wallets.',
  }),
});

export type SignedSiweMessage = Static<typeof SignedSiweMessageSchema>;

/** Every way a signed SIWE message can be refused. */
export const SIWE_ERRORS = [
  'siwe_message_invalid',
  'siwe_domain_mismatch',
  'siwe_uri_mismatch',
  'siwe_chain_unsupported',
  'siwe_issued_at_invalid',
  'siwe_expired',
  'siwe_not_yet_valid',
  'siwe_nonce_invalid',
  'siwe_nonce_used',
  'siwe_signature_invalid',
  'chain_unavailable',
] as const;

export const siweNonceRoute = defineRoute({
  ...ENDPOINTS.siweNonce,
  tags: ['sign-in'],
  summary: 'Issues a nonce for a Sign-In with Ethereum message, bound to this browser (its device cookie).',
  response: { 200: SiweNonceSchema },
  errors: [...RATE_LIMIT_ERRORS],
});

export const siweVerifyRoute = defineRoute({
  ...ENDPOINTS.siweVerify,
  tags: ['sign-in'],
  summary: "Checks a signed SIWE message; when it holds, signs in (and signs up) the message's address.",
  body: SignedSiweMessageSchema,
  response: { 200: Type.Object({ user: UserSchema, isNewUser: Type.Boolean() }) },
  errors: [...SIWE_ERRORS, 'allowlist_rejected', 'max_accounts_reached', ...RATE_LIMIT_ERRORS],
});

export type SiweVerified = Static<(typeof siweVerifyRoute.schema.response)[200]>;
