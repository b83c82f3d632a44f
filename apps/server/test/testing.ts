/**
 * What other workspaces' tests take of the server, as `@dial/server/testing` (a `source` export: run by
 * Vitest, type-checked by tsc, never built): the real app as the server's own tests build it (a fresh
 * database for each test, a recording transport for the codes, a clock the test moves), and its database's
 * types. The web app's key tests send its client's requests to it.
 */
export type { Database } from '../src/db/database.js';
export { type TestDialect, useTestDatabase } from './databases.js';
export { type SoftAuthenticator, softAuthenticator } from './softAuthenticator.js';
export { createTestApp, ORIGIN, PHONE, type TestApp } from './testApp.js';
