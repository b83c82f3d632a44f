import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { registerOtpRoutes } from './otpRoutes.js';
import { registerPasskeyRoutes } from './passkeys/passkeyRoutes.js';
import { registerReauthRoutes } from './reauthRoutes.js';
import { registerSessionRoutes } from './sessionRoutes.js';
import { registerSessions } from './sessions.js';
import { registerSiweRoutes } from './siwe/siweRoutes.js';

/**
 * Sign-in: the session every request carries (`request.user`, `app.requireUser`: register this before any
 * route that asks for a signed-in user), one-time codes, Sign-In with Ethereum, passkeys, the session's own routes
 * (`/api/me`, sign-out) and re-authentication.
 */
export function registerAuth(app: TypedApp, ctx: AppContext): void {
  registerSessions(app, ctx);
  registerOtpRoutes(app, ctx);
  registerSiweRoutes(app, ctx);
  registerPasskeyRoutes(app, ctx);
  registerSessionRoutes(app, ctx);
  registerReauthRoutes(app, ctx);
}
