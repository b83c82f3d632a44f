import { DialError, decodeShare } from '@dial/core';
import type { PasskeyKdf } from '../api/types';
import { callWebAuthn, fromBase64Url, toBase64Url } from './passkeyKey';
import { randomSalt } from './recoveryCipher';

/**
 * Whether this browser can probably protect recovery with a passkey: WebAuthn with the PRF extension.
 * Browsers that can say so (getClientCapabilities) are asked; others are offered the passkey only when
 * they have a platform authenticator, and creating it checks PRF for real (falling back to a password).
 */
export async function passkeySupported(): Promise<boolean> {
  if (typeof window === 'undefined' || !window.isSecureContext || !('PublicKeyCredential' in window))
    return false;
  const api = PublicKeyCredential as unknown as {
    getClientCapabilities?: () => Promise<Record<string, boolean>>;
    isUserVerifyingPlatformAuthenticatorAvailable?: () => Promise<boolean>;
  };
  try {
    if (api.getClientCapabilities !== undefined) {
      const capabilities = await api.getClientCapabilities();
      if (capabilities['extension:prf'] === false) return false;
      if (capabilities['extension:prf'] === true) return true;
    }
    return (await api.isUserVerifyingPlatformAuthenticatorAvailable?.()) === true;
  } catch {
    return false;
  }
}

/** A new passkey's PRF output and the KDF record that finds and re-evaluates it. */
export interface PasskeySecret {
  prfOutput: ArrayBuffer;
  kdf: PasskeyKdf;
}

/**
 * Creates a passkey for recovering this wallet (with the PRF extension) and evaluates its PRF under a new
 * random salt. Some authenticators only evaluate PRF when asserting: then it asks once more.
 *
 * @throws {DialError} `user_rejected` when the person cancels; `invalid_data` when the passkey has no PRF.
 */
export async function createRecoveryPasskey(userName: string): Promise<PasskeySecret> {
  const salt = randomSalt(32);
  const saltBytes = new Uint8Array(decodeShare(salt));
  const credential = await callWebAuthn(() =>
    navigator.credentials.create({
      publicKey: {
        rp: { name: 'Dial' },
        user: {
          id: crypto.getRandomValues(new Uint8Array(16)),
          name: userName,
          displayName: `${userName} (Dial recovery)`,
        },
        challenge: crypto.getRandomValues(new Uint8Array(32)),
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: 120_000,
        extensions: { prf: { eval: { first: saltBytes } } } as AuthenticationExtensionsClientInputs,
      },
    }),
  );
  const prf = prfResults(credential);
  if (prf?.enabled === false) {
    throw new DialError('invalid_data', {
      message: 'This passkey cannot protect your recovery key. Use a recovery password instead.',
    });
  }
  const kdf: PasskeyKdf = { name: 'webauthn-prf', credentialId: toBase64Url(credential.rawId), salt };
  const first = prf?.results?.first;
  const prfOutput = first !== undefined ? toArrayBuffer(first) : (await evaluatePasskey(kdf)).current;
  return { prfOutput, kdf };
}

/**
 * Asks the passkey named in `kdf` to evaluate its PRF with `kdf.salt` and, when `nextSalt` is given, with
 * that salt too in the same prompt (the second output protects the next split's recovery share).
 *
 * @throws {DialError} `user_rejected` when the person cancels or has no such passkey; `invalid_data` when
 * the passkey gives no PRF output.
 */
export async function evaluatePasskey(
  kdf: PasskeyKdf,
  nextSalt?: string,
): Promise<{ current: ArrayBuffer; next?: ArrayBuffer }> {
  const evalInputs: { first: Uint8Array<ArrayBuffer>; second?: Uint8Array<ArrayBuffer> } = {
    first: new Uint8Array(decodeShare(kdf.salt)),
  };
  if (nextSalt !== undefined) evalInputs.second = new Uint8Array(decodeShare(nextSalt));
  const credential = await callWebAuthn(() =>
    navigator.credentials.get({
      publicKey: {
        challenge: crypto.getRandomValues(new Uint8Array(32)),
        allowCredentials: [{ type: 'public-key', id: fromBase64Url(kdf.credentialId) }],
        userVerification: 'required',
        timeout: 120_000,
        extensions: { prf: { eval: evalInputs } } as AuthenticationExtensionsClientInputs,
      },
    }),
  );
  const results = prfResults(credential)?.results;
  if (results?.first === undefined || (nextSalt !== undefined && results.second === undefined)) {
    throw new DialError('invalid_data', {
      message:
        'This passkey did not give Dial your recovery key. Use the browser or device where you created it.',
    });
  }
  return {
    current: toArrayBuffer(results.first),
    ...(results.second !== undefined ? { next: toArrayBuffer(results.second) } : {}),
  };
}

interface PrfOutputs {
  enabled?: boolean;
  results?: { first?: BufferSource; second?: BufferSource };
}

function prfResults(credential: PublicKeyCredential): PrfOutputs | undefined {
  return (credential.getClientExtensionResults() as { prf?: PrfOutputs }).prf;
}

function toArrayBuffer(source: BufferSource): ArrayBuffer {
  const view = ArrayBuffer.isView(source)
    ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    : new Uint8Array(source);
  return view.slice().buffer;
}
