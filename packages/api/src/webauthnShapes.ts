// WebAuthn's JSON shapes (the Level 3 `toJSON()` forms of its options and credentials), as passkey routes send
// and take them: binary fields in base64url, no padding.
import { type Static, Type } from 'typebox';

const BASE64URL = '^[A-Za-z0-9_-]*$';
/** A base64url field of at most `maxLength` characters. */
const Base64Url = (maxLength: number, description?: string) =>
  Type.String({ pattern: BASE64URL, minLength: 1, maxLength, ...(description ? { description } : {}) });

/** A credential id: at most 1023 bytes by the WebAuthn spec, so 1364 base64url characters. */
export const CredentialIdSchema = Base64Url(1364, 'The credential id, base64url (case matters).');

const TransportsSchema = Type.Array(Type.String({ pattern: '^[a-z-]{1,32}$' }), { maxItems: 8 });

const CredentialDescriptorSchema = Type.Object({
  id: CredentialIdSchema,
  type: Type.Literal('public-key'),
  transports: Type.Optional(TransportsSchema),
});

/** `PublicKeyCredentialCreationOptionsJSON`: what `navigator.credentials.create()` is given. */
export const PasskeyCreationOptionsSchema = Type.Object({
  rp: Type.Object({ id: Type.String(), name: Type.String() }),
  user: Type.Object({
    id: Type.String({ description: 'The user handle, base64url: random, never the account id.' }),
    name: Type.String(),
    displayName: Type.String(),
  }),
  challenge: Type.String({ description: 'base64url; single use, 5 minutes.' }),
  pubKeyCredParams: Type.Array(
    Type.Object({ type: Type.Literal('public-key'), alg: Type.Integer({ description: 'COSE algorithm.' }) }),
  ),
  timeout: Type.Integer(),
  attestation: Type.Literal('none'),
  excludeCredentials: Type.Array(CredentialDescriptorSchema, {
    description: "The account's passkeys, so an authenticator that holds one is not registered twice.",
  }),
  authenticatorSelection: Type.Object({
    residentKey: Type.Literal('required'),
    requireResidentKey: Type.Literal(true),
    userVerification: Type.Literal('required'),
  }),
});

export type PasskeyCreationOptions = Static<typeof PasskeyCreationOptionsSchema>;

/** `PublicKeyCredentialRequestOptionsJSON`: what `navigator.credentials.get()` is given. */
export const PasskeyRequestOptionsSchema = Type.Object({
  challenge: Type.String({ description: 'base64url; single use, 5 minutes.' }),
  rpId: Type.String(),
  timeout: Type.Integer(),
  userVerification: Type.Literal('required'),
  allowCredentials: Type.Array(CredentialDescriptorSchema, {
    description:
      'Empty for a sign-in: the browser offers the passkeys it holds for this site (discoverable).',
  }),
});

export type PasskeyRequestOptions = Static<typeof PasskeyRequestOptionsSchema>;

/** `RegistrationResponseJSON`: a new passkey, as `PublicKeyCredential.toJSON()` writes it. */
export const PasskeyRegistrationSchema = Type.Object({
  id: CredentialIdSchema,
  rawId: CredentialIdSchema,
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(2048),
    attestationObject: Base64Url(8192),
    transports: Type.Optional(TransportsSchema),
  }),
  authenticatorAttachment: Type.Optional(Type.Enum(['platform', 'cross-platform'])),
  clientExtensionResults: Type.Object({}),
});

export type PasskeyRegistration = Static<typeof PasskeyRegistrationSchema>;

/** `AuthenticationResponseJSON`: a passkey's assertion, as `PublicKeyCredential.toJSON()` writes it. */
export const PasskeyAssertionSchema = Type.Object({
  id: CredentialIdSchema,
  rawId: CredentialIdSchema,
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(2048),
    authenticatorData: Base64Url(2048),
    signature: Base64Url(1024),
    userHandle: Type.Optional(Base64Url(128)),
  }),
  authenticatorAttachment: Type.Optional(Type.Enum(['platform', 'cross-platform'])),
  clientExtensionResults: Type.Object({}),
});

export type PasskeyAssertion = Static<typeof PasskeyAssertionSchema>;
