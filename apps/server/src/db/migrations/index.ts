import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001_initial.js';
import * as recoveryAndRotation from './0002_recovery_and_rotation.js';
import * as activity from './0003_activity.js';
import * as onramp from './0004_onramp.js';
import * as walletProofs from './0005_wallet_proofs.js';
import * as codesDevicesNotices from './0006_codes_devices_notices.js';
import * as transferChecks from './0007_transfer_checks.js';
import * as walletSignInMethodsSessions from './0008_wallet_sign_in_methods_sessions.js';
import * as liveWalletHistory from './0009_live_wallet_history.js';
import * as identitiesByKind from './0010_identities_by_kind.js';
import * as userDisplayColumns from './0011_user_display_columns.js';
import * as historyPageIndexes from './0012_history_page_indexes.js';
import * as accountOwnership from './0013_account_ownership.js';
import * as walletDevices from './0014_wallet_devices.js';
import * as passkeys from './0015_passkeys.js';
import * as sponsorships from './0016_sponsorships.js';

/**
 * Every migration, by name, in the order they run. A static list rather than a folder read at run time, so
 * the same code migrates from `src/` under Vitest and from `dist/` in production.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_recovery_and_rotation': recoveryAndRotation,
  '0003_activity': activity,
  '0004_onramp': onramp,
  '0005_wallet_proofs': walletProofs,
  '0006_codes_devices_notices': codesDevicesNotices,
  '0007_transfer_checks': transferChecks,
  '0008_wallet_sign_in_methods_sessions': walletSignInMethodsSessions,
  '0009_live_wallet_history': liveWalletHistory,
  '0010_identities_by_kind': identitiesByKind,
  '0011_user_display_columns': userDisplayColumns,
  '0012_history_page_indexes': historyPageIndexes,
  '0013_account_ownership': accountOwnership,
  '0014_wallet_devices': walletDevices,
  '0015_passkeys': passkeys,
  '0016_sponsorships': sponsorships,
};

/** Kysely's `MigrationProvider` over {@link MIGRATIONS}. */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return { ...MIGRATIONS };
  },
};
