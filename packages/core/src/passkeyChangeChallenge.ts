import type { AccountChangeFields } from './accountChangeMessage.js';

/** What a passkey's step-up proof binds: the account key's fields, with the passkey in place of the key. */
export interface PasskeyChangeFields extends Omit<AccountChangeFields, 'address'> {
  /** The passkey's credential id (base64url), exactly as the authenticator gave it: case matters. */
  credentialId: string;
}

/**
 * The WebAuthn challenge a passkey signs (its assertion) to prove a change to the account, the passkey's
 * counterpart of {@link accountChangeMessage}: the same lines (the server's single-use challenge, the account,
 * the action and its target) with the passkey's credential id in place of the key's address, as UTF-8 and
 * base64url (no padding), the form WebAuthn's `clientDataJSON.challenge` carries. An assertion over it cannot
 * be replayed (the challenge is used once), moved to another account or session, or used for another change.
 * The browser and the server build it with this function.
 *
 * @param fields - What the proof binds.
 * @returns The challenge, base64url.
 *
 * @example
 * ```ts
 * const challenge = passkeyChangeChallenge({ action: 'remove-method', target: id, challenge, userId, credentialId });
 * ```
 */
export function passkeyChangeChallenge(fields: PasskeyChangeFields): string {
  const text = [
    'Dial account change',
    'This passkey assertion changes nothing on any chain and costs nothing.',
    `Action: ${fields.action}`,
    `Target: ${fields.target}`,
    `Passkey: ${fields.credentialId}`,
    `Account: ${fields.userId}`,
    `Challenge: ${fields.challenge}`,
  ].join('\n');
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
