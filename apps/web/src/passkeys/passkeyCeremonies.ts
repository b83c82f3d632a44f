import { passkeyChangeChallenge } from '@dial/core';
import { callApi } from '../api/client';
import type { StepUpProof, User } from '../api/types';
import { createPasskey, getAssertion } from './webauthn';

/**
 * The passkey ceremonies against the server (each options request, then the browser, then the check), in
 * the lazy chunk the sign-in screen and settings load when a passkey is used.
 */

/**
 * Signs in with a passkey: a prompt, or (`conditional`) the passkey autofill until `signal` aborts it. The
 * autofill is offered in the background on every visit of the form, so until a passkey is picked it fails
 * silently (`null`: no options, a rate limit, a browser that refuses): the person asked for nothing yet.
 */
export async function signInWithPasskey(
  how: { conditional?: boolean; signal?: AbortSignal } = {},
): Promise<{ user: User; isNewUser: boolean } | null> {
  let credential: Awaited<ReturnType<typeof getAssertion>>;
  try {
    const { options } = await callApi('passkeySignInOptions', { signal: how.signal });
    credential = await getAssertion(options, how);
  } catch (error) {
    if (how.conditional) return null;
    throw error;
  }
  return callApi('passkeySignIn', { body: { credential } });
}

/** Creates a new account with a passkey alone. */
export async function signUpWithPasskey(): Promise<{ user: User; isNewUser: boolean }> {
  const { options } = await callApi('passkeySignUpOptions');
  const credential = await createPasskey(options);
  return callApi('passkeySignUp', { body: { credential } });
}

/** Adds a passkey to the signed-in account, `proof` making it at once (else it waits: 202). */
export async function linkPasskey(
  name: string,
  prove: (credentialId: string) => Promise<StepUpProof | null>,
) {
  const { options } = await callApi('linkPasskeyOptions');
  const credential = await createPasskey(options);
  const proof = await prove(credential.id);
  return callApi('linkPasskey', {
    body: {
      credential,
      ...(name.trim() === '' ? {} : { name: name.trim() }),
      ...(proof === null ? {} : { proof }),
    },
  });
}

/**
 * A passkey's step-up proof of one change: one of the account's trusted passkeys signs core's
 * `passkeyChangeChallenge` over it. The challenge names the passkey, so it must be chosen before the browser
 * is asked: each passkey of the account is asked in turn (`allowCredentials` naming it alone), and the first
 * that answers proves the change. A device holding only a later one of them may show the browser's "no
 * passkey" prompt for the earlier ones first; a refusal of the last is what is thrown.
 */
export async function provePasskey(
  fields: {
    action: Parameters<typeof passkeyChangeChallenge>[0]['action'];
    target: string;
    challenge: string;
    userId: string;
  },
  passkeys: readonly string[],
): Promise<StepUpProof> {
  let lastError: unknown;
  for (const credentialId of passkeys) {
    try {
      const passkey = await getAssertion(
        { challenge: passkeyChangeChallenge({ ...fields, credentialId }) },
        { allow: [credentialId] },
      );
      return { challenge: fields.challenge, passkey };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
