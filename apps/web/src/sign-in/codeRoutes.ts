import { verifyOtp } from '../api/endpoints';
import type { OtpChannel, OtpStarted, User } from '../api/types';
import { startOtpWithProof } from './startOtpWithProof';

/**
 * Where a code flow sends its one-time codes and checks them: sign-in's routes, or those that link a phone
 * number or e-mail address to the signed-in account (settings). The form, the code screen and their rules
 * (resend wait, wrong code, expired code) are the same for both.
 */
export interface CodeRoutes<Result> {
  /** Sends a code; `onChecking` is called if the server first asks this browser for a proof of work. */
  send(channel: OtpChannel, to: string, options: { onChecking(): void }): Promise<OtpStarted>;
  /** Checks the code sent to `to`. */
  verify(channel: OtpChannel, to: string, code: string): Promise<Result>;
}

/** Sign-in: a code (after a proof of work when the server asks for one), and the user it signs in. */
export const signInCodeRoutes: CodeRoutes<User> = {
  send: (channel, to, { onChecking }) => startOtpWithProof(channel, to, { onChecking }),
  verify: async (channel, to, code) => (await verifyOtp(channel, to, code)).user,
};
