import type {
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyRegistration,
  PasskeyRequestOptions,
} from '../api/types';
import { callWebAuthn, fromBase64Url, toBase64Url, type WebAuthnMessages } from '../keys/passkeyKey';

/**
 * `navigator.credentials` with the server's JSON options and answers, converted here in a few lines (base64url
 * to bytes and back) rather than with `@simplewebauthn/browser`: this is all of WebAuthn the app needs to sign
 * in, sign up, add a passkey and prove a change. Loaded lazily, never on the sign-in form's first load.
 */

/** Creates a passkey with the server's options (a sign-up's or a link's) and answers in its JSON. */
export async function createPasskey(options: PasskeyCreationOptions): Promise<PasskeyRegistration> {
  const credential = await webAuthn(() =>
    navigator.credentials.create({
      publicKey: {
        ...options,
        challenge: fromBase64Url(options.challenge),
        user: { ...options.user, id: fromBase64Url(options.user.id) },
        excludeCredentials: options.excludeCredentials.map((descriptor) => ({
          type: 'public-key',
          id: fromBase64Url(descriptor.id),
        })),
      },
    }),
  );
  const response = credential.response as AuthenticatorAttestationResponse;
  const transports = response.getTransports?.() ?? [];
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: 'public-key',
    response: {
      clientDataJSON: toBase64Url(response.clientDataJSON),
      attestationObject: toBase64Url(response.attestationObject),
      transports,
    },
    ...attachmentOf(credential),
    clientExtensionResults: {},
  };
}

/**
 * Asks for a passkey's assertion over the server's options: a prompt, or with `conditional` the browser's
 * passkey autofill on the sign-in form's field (`autocomplete="… webauthn"`), which waits until the person
 * picks a passkey there or `signal` aborts it. `challenge` replaces the options' (a step-up proof signs the
 * change's own), `allow` names the passkeys that may answer.
 */
export async function getAssertion(
  options: Pick<PasskeyRequestOptions, 'challenge'> & Partial<PasskeyRequestOptions>,
  how: { conditional?: boolean; signal?: AbortSignal; allow?: readonly string[] } = {},
): Promise<PasskeyAssertion> {
  const credential = await webAuthn(() =>
    navigator.credentials.get({
      ...(how.conditional ? { mediation: 'conditional' as CredentialMediationRequirement } : {}),
      ...(how.signal === undefined ? {} : { signal: how.signal }),
      publicKey: {
        challenge: fromBase64Url(options.challenge),
        ...(options.rpId === undefined ? {} : { rpId: options.rpId }),
        timeout: options.timeout ?? 300_000,
        userVerification: 'required',
        allowCredentials: (how.allow ?? []).map((id) => ({ type: 'public-key', id: fromBase64Url(id) })),
      },
    }),
  );
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: 'public-key',
    response: {
      clientDataJSON: toBase64Url(response.clientDataJSON),
      authenticatorData: toBase64Url(response.authenticatorData),
      signature: toBase64Url(response.signature),
      ...(response.userHandle === null ? {} : { userHandle: toBase64Url(response.userHandle) }),
    },
    ...attachmentOf(credential),
    clientExtensionResults: {},
  };
}

/** Whether the browser offers passkeys in its autofill (conditional mediation). */
export async function autofillAvailable(): Promise<boolean> {
  const api = globalThis.PublicKeyCredential as
    | { isConditionalMediationAvailable?: () => Promise<boolean> }
    | undefined;
  try {
    return (await api?.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

function attachmentOf(credential: PublicKeyCredential) {
  const attachment = credential.authenticatorAttachment;
  return attachment === 'platform' || attachment === 'cross-platform'
    ? { authenticatorAttachment: attachment as 'platform' | 'cross-platform' }
    : {};
}

/** What the sign-in and settings ceremonies' refusals say. */
const MESSAGES: WebAuthnMessages = {
  cancelled: 'The passkey was not used.',
  alreadyHeld: 'This device already holds a passkey of your account.',
};

/** A sign-in or settings ceremony's WebAuthn call, refused in {@link MESSAGES}' words. */
function webAuthn(call: () => Promise<Credential | null>): Promise<PublicKeyCredential> {
  return callWebAuthn(call, MESSAGES);
}
