import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { OnrampProvider } from './onrampProvider.js';
import { issueSandboxToken } from './sandboxSessions.js';

/** Where the sandbox checkout lives on this server. */
export const SANDBOX_BUY_PATH = '/onramp/sandbox/buy';
export const SANDBOX_PAY_PATH = '/onramp/sandbox/pay';
/** The sandbox's `appId`: it has no provider project. */
export const SANDBOX_APP_ID = 'dial-sandbox';

/** The sandbox provider: tokens issued and stored by this server, for its own checkout page. */
export function createSandboxProvider(
  db: Kysely<Database>,
  publicUrl: string,
  now: () => Date,
): OnrampProvider {
  return {
    name: 'sandbox',
    appId: SANDBOX_APP_ID,
    payUrl: `${publicUrl}${SANDBOX_BUY_PATH}`,
    createSessionToken: (request) => issueSandboxToken(db, request, now()),
  };
}
