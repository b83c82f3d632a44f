// Sign-in with one-time codes, the session, and re-authentication before sensitive actions.
import { OTP_CODE_LENGTH } from '@dial/core';
import { type Static, Type } from 'typebox';
import { defineRoute, errorBody, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { ChannelSchema, OkSchema, UserSchema } from './shapes.js';

/** The longest `proof` accepted: base64 of an ALTCHA payload is well under 1 KB. */
export const MAX_PROOF_LENGTH = 4096;

const ToSchema = Type.String({
  minLength: 1,
  maxLength: 320,
  description: 'A phone number in E.164 (`+447400123456`) for `sms`, an e-mail address for `email`.',
});

const ProofSchema = Type.String({
  minLength: 1,
  maxLength: MAX_PROOF_LENGTH,
  description:
    'A solved proof-of-work challenge: base64 of the ALTCHA payload `{"challenge":{…},"solution":{"counter","derivedKey"}}`. ' +
    'Needed only after an answer `403 proof_of_work_required`, for the challenge that answer carried.',
});

const CodeSchema = Type.String({
  pattern: `^[0-9]{${OTP_CODE_LENGTH}}$`,
  description: `The ${OTP_CODE_LENGTH}-digit code.`,
});

/** The challenge in a `proof_of_work_required` answer, for the OpenAPI document and the serializer. */
export const ProofChallengeSchema = Type.Object(
  {
    parameters: Type.Object(
      {
        algorithm: Type.String({ description: '`PBKDF2/SHA-256`.' }),
        nonce: Type.String(),
        salt: Type.String(),
        cost: Type.Integer({ description: 'PBKDF2 iterations per counter tried.' }),
        keyLength: Type.Integer(),
        keyPrefix: Type.String({ description: 'The derived key to find starts with it (hex).' }),
        keySignature: Type.Optional(Type.String()),
        expiresAt: Type.Optional(Type.Integer({ description: 'Unix time in seconds.' })),
        data: Type.Optional(Type.Record(Type.String(), Type.String())),
      },
      // Every parameter is signed: whatever ALTCHA adds must reach the browser unchanged.
      { additionalProperties: true },
    ),
    signature: Type.String(),
  },
  { description: 'An ALTCHA v2 challenge: solve it (counters from 0) and send the payload as `proof`.' },
);

export const otpStartRoute = defineRoute({
  ...ENDPOINTS.otpStart,
  tags: ['sign-in'],
  summary: 'Sends a one-time code by SMS or e-mail.',
  body: Type.Object({ channel: ChannelSchema, to: ToSchema, proof: Type.Optional(ProofSchema) }),
  response: {
    200: Type.Object({
      ok: Type.Literal(true),
      channel: ChannelSchema,
      to: Type.String({
        description: 'E.164 or the lower-case e-mail address: send it as is to verify.',
      }),
      resendAfterSeconds: Type.Integer(),
      expiresInSeconds: Type.Integer(),
    }),
    403: errorBody(
      ['forbidden_origin', 'proof_of_work_required'],
      { challenge: Type.Optional(ProofChallengeSchema) },
      'An error from the catalogue; with `proof_of_work_required`, the challenge to solve before asking again.',
    ),
  },
  errors: [
    'invalid_phone',
    'invalid_email',
    'proof_of_work_required',
    'code_recently_sent',
    'delivery_failed',
    ...RATE_LIMIT_ERRORS,
  ],
});

export type OtpStartRequest = Static<typeof otpStartRoute.schema.body>;
export type OtpStarted = Static<(typeof otpStartRoute.schema.response)[200]>;

export const otpVerifyRoute = defineRoute({
  ...ENDPOINTS.otpVerify,
  tags: ['sign-in'],
  summary: 'Checks a one-time code; when it is right, signs in (and signs up a new user).',
  body: Type.Object({ channel: ChannelSchema, to: ToSchema, code: CodeSchema }),
  response: { 200: Type.Object({ user: UserSchema, isNewUser: Type.Boolean() }) },
  errors: [
    'invalid_phone',
    'invalid_email',
    'invalid_code',
    'code_expired',
    'code_attempts_exceeded',
    'allowlist_rejected',
    'max_accounts_reached',
    ...RATE_LIMIT_ERRORS,
  ],
});

export type OtpVerifyRequest = Static<typeof otpVerifyRoute.schema.body>;
export type OtpVerified = Static<(typeof otpVerifyRoute.schema.response)[200]>;

export const meRoute = defineRoute({
  ...ENDPOINTS.me,
  tags: ['session'],
  summary: 'The signed-in user.',
  session: true,
  response: { 200: Type.Object({ user: UserSchema }) },
  errors: [],
});

export const logoutRoute = defineRoute({
  ...ENDPOINTS.logout,
  tags: ['session'],
  summary: 'Signs out: ends the session on the server and clears the cookie. Succeeds when signed out.',
  response: { 200: OkSchema },
  errors: [],
});

export const reauthStartRoute = defineRoute({
  ...ENDPOINTS.reauthStart,
  tags: ['session'],
  summary: "Sends a fresh one-time code to the signed-in user's own phone, or e-mail without one.",
  session: true,
  response: {
    200: Type.Object({
      ok: Type.Literal(true),
      channel: ChannelSchema,
      resendAfterSeconds: Type.Integer(),
      expiresInSeconds: Type.Integer(),
    }),
  },
  errors: ['code_recently_sent', 'delivery_failed', ...RATE_LIMIT_ERRORS],
});

export type ReauthStarted = Static<(typeof reauthStartRoute.schema.response)[200]>;

export const reauthVerifyRoute = defineRoute({
  ...ENDPOINTS.reauthVerify,
  tags: ['session'],
  summary: 'Checks the re-authentication code; when it is right, opens export to this session for 5 minutes.',
  session: true,
  body: Type.Object({ code: CodeSchema }),
  response: { 200: Type.Object({ reauthenticatedUntil: Type.String({ format: 'date-time' }) }) },
  errors: ['invalid_code', 'code_expired', 'code_attempts_exceeded', ...RATE_LIMIT_ERRORS],
});

export type ReauthVerifyRequest = Static<typeof reauthVerifyRoute.schema.body>;
export type Reauthenticated = Static<(typeof reauthVerifyRoute.schema.response)[200]>;
