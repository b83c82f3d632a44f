// The signed-in person's own account: their sign-in methods (link, unlink, findability) and their sessions.
import { OTP_CODE_LENGTH } from '@dial/core';
import { type Static, Type } from 'typebox';
import {
  PendingAnswerSchema,
  PROOF_ERRORS,
  ProofOnlyBodySchema,
  StepUpProofSchema,
} from './accountChanges.js';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { ChannelSchema, OkSchema } from './shapes.js';
import { SIWE_ERRORS, SignedSiweMessageSchema, SiweNonceSchema } from './siwe.js';

const IdSchema = Type.String({ format: 'uuid' });

export const SignInMethodSchema = Type.Object({
  id: IdSchema,
  kind: Type.Enum(['phone', 'email', 'wallet', 'passkey']),
  value: Type.String({
    description:
      "In full (it is the owner asking): E.164, the lower-case e-mail address, the checksummed address, or a passkey's credential id.",
  }),
  name: Type.Optional(
    Type.String({ description: 'Passkeys only: its name (given by its owner, or its provider’s).' }),
  ),
  lastUsedAt: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Passkeys only: when it last signed in or proved a change; null when never.',
    }),
  ),
  findable: Type.Union([Type.Boolean(), Type.Null()], {
    description:
      'Phone numbers: whether others may find this account by it for send-to-phone. Null for others.',
  }),
  trusted: Type.Boolean({
    description:
      'Linked with the key’s proof, or the account’s first method: a method linked without proof (false) cannot remove one that is, and a wallet becomes the account’s wallet only when trusted.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});

export type SignInMethod = Static<typeof SignInMethodSchema>;

const MethodAnswer = Type.Object({ method: SignInMethodSchema });
/** What linking can be refused for, however the method was proven. */
export const LINK_ERRORS = ['method_taken', 'method_already_linked', 'methods_limit_reached'] as const;

export const listMethodsRoute = defineRoute({
  ...ENDPOINTS.listMethods,
  tags: ['account'],
  summary: "The signed-in person's sign-in methods, oldest first, and how many they may have.",
  session: true,
  response: {
    200: Type.Object({
      methods: Type.Array(SignInMethodSchema),
      maxMethods: Type.Integer({ description: '`MAX_SIGN_IN_METHODS`.' }),
    }),
  },
  errors: [],
});

export const linkCodeStartRoute = defineRoute({
  ...ENDPOINTS.linkCodeStart,
  tags: ['account'],
  summary: 'Sends a one-time code to a phone number or e-mail address the signed-in person wants to link.',
  session: true,
  body: Type.Object({ channel: ChannelSchema, to: Type.String({ minLength: 1, maxLength: 320 }) }),
  response: {
    200: Type.Object({
      ok: Type.Literal(true),
      channel: ChannelSchema,
      to: Type.String({ description: 'E.164 or the lower-case e-mail address: send it as is to verify.' }),
      resendAfterSeconds: Type.Integer(),
      expiresInSeconds: Type.Integer(),
    }),
  },
  errors: [
    'invalid_phone',
    'invalid_email',
    'method_already_linked',
    'methods_limit_reached',
    'code_recently_sent',
    'delivery_failed',
    ...RATE_LIMIT_ERRORS,
  ],
});

export const linkCodeVerifyRoute = defineRoute({
  ...ENDPOINTS.linkCodeVerify,
  tags: ['account'],
  summary:
    'Checks the code; when it is right, links the phone number or e-mail address to the account: at once with the proof (200), else after the cooling-off period (202).',
  session: true,
  body: Type.Object({
    channel: ChannelSchema,
    to: Type.String({ minLength: 1, maxLength: 320 }),
    code: Type.String({ pattern: `^[0-9]{${OTP_CODE_LENGTH}}$` }),
    proof: Type.Optional(StepUpProofSchema),
  }),
  response: { 200: MethodAnswer, 202: PendingAnswerSchema },
  errors: [
    ...PROOF_ERRORS,
    'invalid_phone',
    'invalid_email',
    'invalid_code',
    'code_expired',
    'code_attempts_exceeded',
    ...LINK_ERRORS,
    ...RATE_LIMIT_ERRORS,
  ],
});

export const linkWalletNonceRoute = defineRoute({
  ...ENDPOINTS.linkWalletNonce,
  tags: ['account'],
  summary: 'Issues a nonce for the SIWE message that links a wallet, bound to this session.',
  session: true,
  response: { 200: SiweNonceSchema },
  errors: [...RATE_LIMIT_ERRORS],
});

export const linkWalletRoute = defineRoute({
  ...ENDPOINTS.linkWallet,
  tags: ['account'],
  summary:
    "Checks a signed SIWE message with a link nonce; when it holds, links the message's address: at once with the proof (200), else after the cooling-off period (202).",
  session: true,
  body: Type.Object({ ...SignedSiweMessageSchema.properties, proof: Type.Optional(StepUpProofSchema) }),
  response: { 200: MethodAnswer, 202: PendingAnswerSchema },
  errors: [...SIWE_ERRORS, ...LINK_ERRORS, ...PROOF_ERRORS, ...RATE_LIMIT_ERRORS],
});

export const updateMethodRoute = defineRoute({
  ...ENDPOINTS.updateMethod,
  tags: ['account'],
  summary:
    "Turns a phone number's findability for send-to-phone on or off (an e-mail address or wallet: 400 invalid_data).",
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: Type.Object(
    { findable: Type.Boolean(), proof: Type.Optional(StepUpProofSchema) },
    { additionalProperties: false },
  ),
  response: { 200: MethodAnswer, 202: PendingAnswerSchema },
  errors: ['not_found', ...PROOF_ERRORS],
});

export const removeMethodRoute = defineRoute({
  ...ENDPOINTS.removeMethod,
  tags: ['account'],
  summary:
    'Unlinks a sign-in method (the last one cannot be removed), ending the sessions it started: at once with the proof (200), else after the cooling-off period (202). A session of a method linked without proof cannot remove one linked with it (403 method_outranked).',
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: ProofOnlyBodySchema,
  response: { 200: OkSchema, 202: PendingAnswerSchema },
  errors: ['not_found', 'last_method', 'method_outranked', ...PROOF_ERRORS],
});

export const useWalletRoute = defineRoute({
  ...ENDPOINTS.useWallet,
  tags: ['account'],
  summary:
    "Makes a wallet linked without proof the account's wallet (trusted): at once with the proof (200), else after the cooling-off period (202).",
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: ProofOnlyBodySchema,
  response: { 200: MethodAnswer, 202: PendingAnswerSchema },
  errors: ['not_found', ...PROOF_ERRORS],
});

export const SessionInfoSchema = Type.Object({
  id: IdSchema,
  device: Type.String({
    description: 'The browser and system, read from its User-Agent (e.g. "Chrome on macOS").',
  }),
  method: Type.Union([Type.Enum(['phone', 'email', 'wallet', 'passkey']), Type.Null()], {
    description: 'How it signed in; null for sessions older than this field.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.String({ format: 'date-time' }),
  current: Type.Boolean({ description: 'This request’s own session.' }),
});

export type SessionInfo = Static<typeof SessionInfoSchema>;

export const listSessionsRoute = defineRoute({
  ...ENDPOINTS.listSessions,
  tags: ['account'],
  summary: "The signed-in person's live sessions, the most recently seen first.",
  session: true,
  response: { 200: Type.Object({ sessions: Type.Array(SessionInfoSchema) }) },
  errors: [],
});

export const endSessionRoute = defineRoute({
  ...ENDPOINTS.endSession,
  tags: ['account'],
  summary:
    'Ends one of the person’s sessions on every server at once (this one too: then it signs out, no proof needed). Another session: at once with the proof (200), else after the cooling-off period (202).',
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: ProofOnlyBodySchema,
  response: { 200: OkSchema, 202: PendingAnswerSchema },
  errors: ['not_found', ...PROOF_ERRORS],
});

export const endOtherSessionsRoute = defineRoute({
  ...ENDPOINTS.endOtherSessions,
  tags: ['account'],
  summary:
    'Ends every session of the person but this one: at once with the proof (200), else after the cooling-off period (202).',
  session: true,
  body: ProofOnlyBodySchema,
  response: { 200: Type.Object({ ended: Type.Integer({ minimum: 0 }) }), 202: PendingAnswerSchema },
  errors: [...PROOF_ERRORS],
});

export const logoutEverywhereRoute = defineRoute({
  ...ENDPOINTS.logoutEverywhere,
  tags: ['account'],
  summary:
    'Signs out everywhere: ends this session and clears the cookie; the others at once with the proof (200), else after the cooling-off period (202).',
  session: true,
  body: ProofOnlyBodySchema,
  response: { 200: OkSchema, 202: PendingAnswerSchema },
  errors: [...PROOF_ERRORS],
});
