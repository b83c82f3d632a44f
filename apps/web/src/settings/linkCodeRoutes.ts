import type { SignInMethod } from '../api/types';
import type { CodeRoutes } from '../sign-in/codeRoutes';
import { startLinkCode, verifyLinkCode } from './accountApi';

/**
 * Linking a phone number or e-mail address to the signed-in account: the code goes to it, and the right
 * code links it (no proof of work: the person is signed in, and the routes' own rate limits apply).
 */
export const linkCodeRoutes: CodeRoutes<SignInMethod> = {
  send: (channel, to) => startLinkCode(channel, to),
  verify: verifyLinkCode,
};
