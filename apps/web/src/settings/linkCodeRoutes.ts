import type { ChangeOutcome } from '../account/makeAccountChange';
import type { SignInMethod } from '../api/types';
import type { CodeRoutes } from '../sign-in/codeRoutes';
import { startLinkCode } from './accountApi';
import { linkByCode } from './provedChanges';

/**
 * Linking a phone number or e-mail address to the signed-in account `userId`: the code goes to it, and the
 * right code links it, with the account key's proof when this browser can give it (else the link waits).
 * No proof of work: the person is signed in, and the routes' own rate limits apply.
 */
export function linkCodeRoutes(userId: string): CodeRoutes<ChangeOutcome<SignInMethod>> {
  return {
    send: (channel, to) => startLinkCode(channel, to),
    verify: (channel, to, code) => linkByCode(userId, channel, to, code),
  };
}
