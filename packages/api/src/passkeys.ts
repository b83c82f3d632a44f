// Passkeys (WebAuthn): sign up and sign in with a passkey alone (a discoverable credential), and link one to
// the signed-in account as a sign-in method. A passkey's assertion also serves as the step-up proof of a
// change (`StepUpProofSchema` in accountChanges.ts).
import { Type } from 'typebox';
import { LINK_ERRORS, SignInMethodSchema } from './account.js';
import { PendingAnswerSchema, PROOF_ERRORS, StepUpProofSchema } from './accountChanges.js';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { UserSchema } from './shapes.js';
import {
  PasskeyAssertionSchema,
  PasskeyCreationOptionsSchema,
  PasskeyRegistrationSchema,
  PasskeyRequestOptionsSchema,
} from './webauthnShapes.js';

/** The longest name a passkey may be given. */
export const MAX_PASSKEY_NAME_LENGTH = 64;

const PasskeyNameSchema = Type.String({
  minLength: 1,
  maxLength: MAX_PASSKEY_NAME_LENGTH,
  description: 'What its owner calls it ("Phone", "Laptop"); else one is made from the authenticator.',
});

/** Every way a new passkey (an attestation) can be refused. */
const REGISTRATION_ERRORS = ['passkey_challenge_invalid', 'passkey_invalid'] as const;
/** Every way a passkey's assertion can be refused at sign-in. */
const ASSERTION_ERRORS = ['passkey_challenge_invalid', 'passkey_invalid', 'passkey_unknown'] as const;

const SignedInSchema = Type.Object({ user: UserSchema, isNewUser: Type.Boolean() });

export const passkeySignUpOptionsRoute = defineRoute({
  ...ENDPOINTS.passkeySignUpOptions,
  tags: ['sign-in'],
  summary:
    'Options for `navigator.credentials.create()` to make a passkey that signs up a new account: a discoverable credential, user verification required, a single-use challenge bound to this browser (its device cookie), 5 minutes.',
  response: { 200: Type.Object({ options: PasskeyCreationOptionsSchema }) },
  errors: [...RATE_LIMIT_ERRORS],
});

export const passkeySignUpRoute = defineRoute({
  ...ENDPOINTS.passkeySignUp,
  tags: ['sign-in'],
  summary:
    'Checks the new passkey (origin, RP ID, user verification, the challenge this browser asked for) and creates an account whose one sign-in method it is, signed in (the allowlist and `MAX_USERS` apply: with an allowlist, a passkey alone cannot sign up).',
  body: Type.Object(
    { credential: PasskeyRegistrationSchema, name: Type.Optional(PasskeyNameSchema) },
    { additionalProperties: false },
  ),
  response: { 200: SignedInSchema },
  errors: [
    ...REGISTRATION_ERRORS,
    'method_taken',
    'allowlist_rejected',
    'max_accounts_reached',
    ...RATE_LIMIT_ERRORS,
  ],
});

export const passkeySignInOptionsRoute = defineRoute({
  ...ENDPOINTS.passkeySignInOptions,
  tags: ['sign-in'],
  summary:
    'Options for `navigator.credentials.get()` (a button, or the browser’s passkey autofill): no credential named, user verification required, a single-use challenge bound to this browser, 5 minutes.',
  response: { 200: Type.Object({ options: PasskeyRequestOptionsSchema }) },
  errors: [...RATE_LIMIT_ERRORS],
});

export const passkeySignInRoute = defineRoute({
  ...ENDPOINTS.passkeySignIn,
  tags: ['sign-in'],
  summary:
    "Checks a passkey's assertion (origin, RP ID, user verification, the signature, a counter that increased, the challenge this browser asked for) and signs in to the account it belongs to.",
  body: Type.Object({ credential: PasskeyAssertionSchema }, { additionalProperties: false }),
  response: { 200: SignedInSchema },
  errors: [...ASSERTION_ERRORS, ...RATE_LIMIT_ERRORS],
});

export const linkPasskeyOptionsRoute = defineRoute({
  ...ENDPOINTS.linkPasskeyOptions,
  tags: ['account'],
  summary:
    'Options for `navigator.credentials.create()` to add a passkey to the signed-in account (its passkeys excluded), with a single-use challenge bound to this session, 5 minutes.',
  session: true,
  response: { 200: Type.Object({ options: PasskeyCreationOptionsSchema }) },
  errors: ['methods_limit_reached', ...RATE_LIMIT_ERRORS],
});

export const linkPasskeyRoute = defineRoute({
  ...ENDPOINTS.linkPasskey,
  tags: ['account'],
  summary:
    'Checks the new passkey against the challenge this session asked for and links it: at once with the proof (200), else after the cooling-off period (202).',
  session: true,
  body: Type.Object(
    {
      credential: PasskeyRegistrationSchema,
      name: Type.Optional(PasskeyNameSchema),
      proof: Type.Optional(StepUpProofSchema),
    },
    { additionalProperties: false },
  ),
  response: { 200: Type.Object({ method: SignInMethodSchema }), 202: PendingAnswerSchema },
  errors: [...REGISTRATION_ERRORS, ...LINK_ERRORS, ...PROOF_ERRORS, ...RATE_LIMIT_ERRORS],
});
