import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { registerAccountSessionRoutes } from './accountSessionRoutes.js';
import { registerBrowserRoutes } from './browserRoutes.js';
import { registerDeviceRemoveRoutes } from './deviceRemoveRoutes.js';
import { registerMethodRoutes } from './methodRoutes.js';
import { registerPasskeyLinkRoutes } from './passkeyLinkRoutes.js';
import { registerWalletLinkRoutes } from './walletLinkRoutes.js';

/**
 * The signed-in account's settings: its sign-in methods (listed, linked by a code or a wallet's signed
 * message, made findable, removed), its sessions, its browsers and the removal of a wallet's device. Every change goes through
 * `accountChanges/changeAccount.ts`: made at once with the account key's proof, else after the cooling-off
 * period.
 */
export function registerAccount(app: TypedApp, ctx: AppContext): void {
  registerMethodRoutes(app, ctx);
  registerWalletLinkRoutes(app, ctx);
  registerPasskeyLinkRoutes(app, ctx);
  registerAccountSessionRoutes(app, ctx);
  registerBrowserRoutes(app, ctx);
  registerDeviceRemoveRoutes(app, ctx);
}
