/**
 * Dial's HTTP API contract: each route's method, path, request schemas, answers by status and the error
 * codes it may answer, declared once with TypeBox. The server registers its routes with these schemas (so it
 * validates, serializes and documents them); clients import the static types only (`import type`), and the
 * routes' methods and URLs from `@dial/api/endpoints`, which holds no schema.
 */
export * from './account.js';
export * from './accountChanges.js';
export * from './activity.js';
export * from './auth.js';
export * from './browsers.js';
export * from './defineRoute.js';
export * from './dev.js';
export * from './devices.js';
export * from './endpoints.js';
export * from './events.js';
export * from './notices.js';
export * from './onramp.js';
export * from './passkeys.js';
export * from './prices.js';
export * from './recipients.js';
export * from './recovery.js';
export * from './routes.js';
export * from './routeTypes.js';
export * from './shapes.js';
export * from './siwe.js';
export * from './sponsorship.js';
export * from './system.js';
export * from './wallet.js';
export * from './webauthnShapes.js';
