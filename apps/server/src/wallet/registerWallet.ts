import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { registerDeviceLinkRoutes } from './deviceLinkRoutes.js';
import { registerDeviceRoutes } from './deviceRoutes.js';
import { registerRecipientRoutes } from './recipientRoutes.js';
import { registerRecoveryOprfRoutes } from './recoveryOprfRoutes.js';
import { registerWalletRoutes } from './walletRoutes.js';

/**
 * The embedded wallet: its registration, shares and recovery (with the password's OPRF), the devices that
 * open it and their links by QR code, and recipients.
 */
export function registerWallet(app: TypedApp, ctx: AppContext): void {
  registerWalletRoutes(app, ctx);
  registerDeviceRoutes(app, ctx);
  registerDeviceLinkRoutes(app, ctx);
  registerRecoveryOprfRoutes(app, ctx);
  registerRecipientRoutes(app, ctx);
}
