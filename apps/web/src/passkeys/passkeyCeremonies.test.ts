import { type SoftAuthenticator, softAuthenticator } from '@dial/server/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDialServer } from '../keys/testing/dialServer';

/**
 * The web app's passkey ceremonies against the real server (its routes, `@simplewebauthn/server`'s checks):
 * `navigator.credentials` is played by the server tests' software authenticator, behind an adapter that
 * gives the browser's objects (ArrayBuffers, `getTransports()`), so what is tested is the app's conversion of
 * the server's JSON options to WebAuthn's and of the credential back, which the server then verifies.
 */
const dialServer = withDialServer();
const { linkPasskey, signInWithPasskey, signUpWithPasskey } = await import('./passkeyCeremonies');

const toBase64Url = (bytes: BufferSource) =>
  Buffer.from(
    ArrayBuffer.isView(bytes)
      ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
      : bytes,
  ).toString('base64url');
const toBytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

/** `navigator.credentials` backed by `authenticator`; records what the app asked. */
function browserWith(authenticator: SoftAuthenticator) {
  const asked: { create: CredentialCreationOptions[]; get: CredentialRequestOptions[] } = {
    create: [],
    get: [],
  };
  const credentials = {
    async create(options: CredentialCreationOptions) {
      asked.create.push(options);
      const publicKey = options.publicKey!;
      const made = authenticator.register({
        challenge: toBase64Url(publicKey.challenge),
        user: { id: toBase64Url(publicKey.user.id) },
      });
      return {
        id: made.id,
        rawId: toBytes(made.rawId).buffer,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: toBytes(made.response.clientDataJSON).buffer,
          attestationObject: toBytes(made.response.attestationObject).buffer,
          getTransports: () => ['internal'],
        },
      };
    },
    async get(options: CredentialRequestOptions) {
      asked.get.push(options);
      const made = authenticator.assert(toBase64Url(options.publicKey!.challenge));
      return {
        id: made.id,
        rawId: toBytes(made.rawId).buffer,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: toBytes(made.response.clientDataJSON).buffer,
          authenticatorData: toBytes(made.response.authenticatorData).buffer,
          signature: toBytes(made.response.signature).buffer,
          userHandle:
            made.response.userHandle === undefined ? null : toBytes(made.response.userHandle).buffer,
        },
      };
    },
  };
  vi.stubGlobal('navigator', { credentials });
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('passkey ceremonies (the web client against the real server)', () => {
  it('signs up with a passkey alone, asking for a discoverable, user-verified credential, then signs in with it', async () => {
    const authenticator = softAuthenticator();
    const asked = browserWith(authenticator);
    const signedUp = await signUpWithPasskey();
    expect(signedUp.isNewUser).toBe(true);
    expect(asked.create[0]?.publicKey).toMatchObject({
      rp: { id: 'localhost', name: 'Dial' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });

    const signedIn = await signInWithPasskey();
    expect(signedIn?.user.id).toBe(signedUp.user.id);
    expect(asked.get[0]?.publicKey).toMatchObject({ userVerification: 'required', allowCredentials: [] });
  });

  it('adds a passkey to the signed-in account (asked for, without proof), excluding none yet', async () => {
    const authenticator = softAuthenticator();
    const asked = browserWith(authenticator);
    const answer = await linkPasskey('Laptop', async () => null);
    expect(answer).toMatchObject({
      pending: { action: 'link-method', summary: 'Link the passkey "Laptop"' },
    });
    expect(asked.create[0]?.publicKey?.excludeCredentials).toEqual([]);
    expect(dialServer().count('POST /api/auth/methods/passkey', 202)).toBe(1);
  });

  it('fails silently when the autofill cannot start, and says why when a picked passkey is refused', async () => {
    vi.stubGlobal('navigator', {
      credentials: {
        get: async () => {
          throw new DOMException('not now', 'NotAllowedError');
        },
      },
    });
    await expect(signInWithPasskey({ conditional: true })).resolves.toBeNull();
    await expect(signInWithPasskey()).rejects.toMatchObject({ code: 'user_rejected' });

    browserWith(softAuthenticator());
    await expect(signInWithPasskey({ conditional: true })).rejects.toMatchObject({ code: 'passkey_unknown' });
  });
});
