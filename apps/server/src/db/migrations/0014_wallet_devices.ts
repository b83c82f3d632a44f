import { type Kysely, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 28: one wallet on several browsers, each with a split of the key of its own.
// - wallet_devices: a browser that can open the wallet. It holds one half of a 2-of-2 split of the key;
//   the server keeps the other half (the device's auth share, AES-256-GCM under SHARE_ENCRYPTION_KEY, bound
//   to the user and the device id) and the SHA-256 of the unlock secret with which that browser asks for it.
//   Removing a device nulls its auth share and sets removed_at: its browser's half then rebuilds nothing. The
//   row stays (its secret hash too), so its browser is told `device_removed`, not "unknown".
// - wallet_links: adding a device from another by QR code. The old browser (owner) and the new one
//   (claimant, a session of the same user) exchange X25519 public keys through it; the old one confirms with
//   the new device's auth share (wallet_devices) and its held share sealed for the new one, which the server
//   relays without being able to open. The code is stored as its SHA-256 only (normalized: upper case, no
//   spaces or dashes). Swept an hour after it expires.
// - wallets.legacy_split: 1 for a wallet registered before devices (every wallet that exists now), whose
//   one auth share GET /api/wallet still gives until its first device is enrolled or its recovery pair is
//   replaced; 0 for every wallet registered from now on.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('wallet_devices')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('how', 'text', (column) =>
      column.notNull().check(sql`how in ('created', 'recovered', 'linked', 'adopted')`),
    )
    // SHA-256 (hex) of the device's unlock secret: one device per secret.
    .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
    // Null once the device is removed: nothing is left for its browser's share to combine with.
    .addColumn('auth_share_ciphertext', 'text')
    .addColumn('iv', 'text')
    .addColumn('key_version', 'integer')
    .addColumn('enrolled_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text', (column) => column.notNull())
    .addColumn('removed_at', 'text')
    .execute();
  await db.schema.createIndex('wallet_devices_user_id').on('wallet_devices').column('user_id').execute();

  await db.schema
    .createTable('wallet_links')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (column) => column.notNull().unique())
    // The old browser: its session (SHA-256 of the token), its X25519 public key and its name.
    .addColumn('owner_session_hash', 'text', (column) => column.notNull())
    .addColumn('owner_public_key', 'text', (column) => column.notNull())
    .addColumn('owner_name', 'text', (column) => column.notNull())
    // The new browser, once it entered the code.
    .addColumn('claimant_session_hash', 'text')
    .addColumn('claimant_public_key', 'text')
    .addColumn('claimant_secret_hash', 'text')
    .addColumn('claimant_name', 'text')
    // Once confirmed: the new device's held share sealed for the new browser, and the device made.
    .addColumn('sealed_share', 'text')
    .addColumn('device_id', 'text')
    .addColumn('state', 'text', (column) =>
      column.notNull().check(sql`state in ('waiting', 'claimed', 'confirmed', 'cancelled')`),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('claimed_at', 'text')
    .addColumn('confirmed_at', 'text')
    .execute();
  await db.schema.createIndex('wallet_links_user_id').on('wallet_links').column('user_id').execute();
  await db.schema.createIndex('wallet_links_expires_at').on('wallet_links').column('expires_at').execute();

  await db.schema
    .alterTable('wallets')
    .addColumn('legacy_split', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await sql`update wallets set legacy_split = 1`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('wallets').dropColumn('legacy_split').execute();
  await db.schema.dropTable('wallet_links').execute();
  await db.schema.dropTable('wallet_devices').execute();
}
