import type { NoticeKind } from '@dial/api';
import type { Channel } from '@dial/core';
import type { ColumnType, Generated } from 'kysely';

/**
 * The tables, as Kysely sees them. The schema is portable between SQLite and PostgreSQL: ids are text UUIDs
 * (`crypto.randomUUID()`), times are ISO 8601 strings in UTC with milliseconds (`Date#toISOString()`), which
 * sort and compare as text in both, and binary values are base64 text.
 */
export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  otp_codes: OtpCodesTable;
  sessions: SessionsTable;
  wallets: WalletsTable;
  recovery_shares: RecoverySharesTable;
  rate_limits: RateLimitsTable;
  outbox_messages: OutboxMessagesTable;
  transfers: TransfersTable;
  onramp_sessions: OnrampSessionsTable;
  known_devices: KnownDevicesTable;
  proof_of_work_uses: ProofOfWorkUsesTable;
  account_events: AccountEventsTable;
  wallet_challenges: WalletChallengesTable;
  siwe_nonces: SiweNoncesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  wallet_events: WalletEventsTable;
  wallet_credits: WalletCreditsTable;
  chain_watch: ChainWatchTable;
  price_quotes: PriceQuotesTable;
  account_changes: AccountChangesTable;
  wallet_devices: WalletDevicesTable;
  wallet_links: WalletLinksTable;
  sponsorships: SponsorshipsTable;
  sponsor_usage: SponsorUsageTable;
}

export interface UsersTable {
  id: string;
  created_at: string;
  /**
   * The user's first phone number (E.164): the earliest linked, then the lower value; null when none. Kept by
   * the database's triggers on `identities` (migration 0011), never written by the code.
   */
  phone: DisplayColumn;
  /** The user's first e-mail address, in the same order; null when none. Kept like {@link phone}. */
  email: DisplayColumn;
  /** The first wallet the user linked as a sign-in method, in the same order; null when none. Kept like {@link phone}. */
  linked_wallet: DisplayColumn;
  /** The address of the user's embedded wallet; null when none. Kept by the triggers on `wallets`. */
  embedded_wallet: DisplayColumn;
}

/** A column the database's triggers keep: read, never inserted or updated by the code. */
type DisplayColumn = ColumnType<string | null, never, never>;

/**
 * How a user signs in (a sign-in method): a phone number (E.164), an e-mail address (lower-case), a wallet
 * they already had (its EIP-55 checksummed address, proven by a Sign-In with Ethereum signature) or a passkey
 * (its WebAuthn credential id, base64url; the rest in `passkeys`, migration 0015).
 */
export type IdentityKind = 'phone' | 'email' | 'wallet' | 'passkey';

export interface IdentitiesTable {
  /** A UUID naming the method in URLs (`/api/auth/methods/:id`) without its value. */
  id: string;
  /** E.164, the normalised e-mail address or the checksummed address; unique across all users. */
  value: string;
  kind: IdentityKind;
  user_id: string;
  /**
   * 1: others may find this phone number's owner for send-to-phone; 0: the owner turned that off. Only a
   * phone number's is read.
   */
  findable: ColumnType<number, number | undefined, number>;
  /**
   * 1: the account started with this method, or linked it with the key's proof (and every method linked
   * before migration 0013); 0: linked after a cooling-off without proof. An untrusted method cannot remove a
   * trusted one, and only a trusted wallet becomes the account's wallet.
   */
  trusted: ColumnType<number, number | undefined, number>;
  created_at: string;
}

/**
 * What a one-time code is for: signing in, confirming a sensitive action of a signed-in user, or proving a
 * phone number or e-mail address a signed-in user links to their account.
 */
export type CodePurpose = 'sign-in' | 'reauth' | 'link';

/**
 * The one live code of a purpose, channel, identifier and browser; a new code from the same browser replaces
 * the row.
 */
export interface OtpCodesTable {
  purpose: CodePurpose;
  channel: Channel;
  /** E.164 or the normalised e-mail address, never anything else. */
  identifier: string;
  /**
   * SHA-256 of the `dial_device` cookie of the browser that asked for the code, hex; '' for a code stored
   * before migration 0006 (no browser).
   */
  device_hash: string;
  /** HMAC-SHA256 of purpose, channel, identifier, device hash and code, hex. Never the code itself. */
  code_hash: string;
  expires_at: string;
  /** Wrong tries so far. */
  attempts: Generated<number>;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token, hex. Never the token itself. */
  token_hash: string;
  /** A UUID naming the session in the sessions list and its URLs; never the token or its hash. */
  id: string;
  /** The browser's `User-Agent` at sign-in, at most 512 characters; null when it sent none. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  /** The kind of sign-in method that started the session; null for sessions from before migration 0008. */
  method: ColumnType<IdentityKind | null, IdentityKind | null | undefined, IdentityKind | null>;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end: created_at + SESSION_MAX_DAYS. */
  expires_at: string;
  /** When this session last proved its owner with a fresh one-time code (`/api/auth/reauth/verify`). */
  reauthenticated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The sign-in method (identities.id) that started it; removing the method ends it. Null before 0013. */
  identity_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 of the browser's `dial_device` cookie; forgetting the browser ends it. Null before 0013. */
  device_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WalletsTable {
  user_id: string;
  /** EIP-55 checksummed. */
  address: string;
  /** AES-256-GCM ciphertext followed by its 16-byte tag, base64. */
  auth_share_ciphertext: string;
  /** The 12-byte GCM nonce, base64. */
  iv: string;
  /** Which derived key encrypted it; 1 so far. */
  key_version: number;
  /** Which split of the key the auth share belongs to: 1 at registration, +1 at every share rotation. */
  share_generation: Generated<number>;
  created_at: string;
  /**
   * 1 for a wallet registered before devices (migration 0014): its one auth share is also its only device's,
   * so `GET /api/wallet` gives it (`legacyAuthShare`) until the first device is enrolled or the recovery pair
   * replaced, which set it to 0 for good. 0 for every wallet registered with devices.
   */
  legacy_split: ColumnType<number, number | undefined, number>;
}

/** How a device came to open the wallet. */
export type DeviceHow = 'created' | 'recovered' | 'linked' | 'adopted';

/**
 * A browser that can open the user's wallet (issue 28): it holds one half of a 2-of-2 split of the key, the
 * server keeps the other half here and gives it only to whoever shows the device's unlock secret.
 */
export interface WalletDevicesTable {
  /** A UUID naming the device in URLs and in the browser's own store. */
  id: string;
  user_id: string;
  /** The browser and system when it was enrolled ("Chrome on macOS"), from its User-Agent. */
  name: string;
  how: DeviceHow;
  /** SHA-256 of the device's 32-byte unlock secret, hex; unique. Never the secret itself. */
  secret_hash: string;
  /**
   * The device's auth share: AES-256-GCM ciphertext with its tag, base64, bound to the user AND this device's
   * id (`shareCipher`); null once the device is removed.
   */
  auth_share_ciphertext: string | null;
  /** Its 12-byte nonce, base64; null once removed. */
  iv: string | null;
  /** Which derived key encrypted it; null once removed. */
  key_version: number | null;
  enrolled_at: string;
  /** Its latest unlock, written at most once a minute. */
  last_used_at: string;
  /** When it was removed; null while it opens the wallet. */
  removed_at: string | null;
}

/** Where a link between two browsers stands (`expired` is read from `expires_at`, never stored). */
export type WalletLinkState = 'waiting' | 'claimed' | 'confirmed' | 'cancelled';

/**
 * Adding a device from another by QR code: 5 minutes, one claim. The server relays public keys and the
 * sealed share, none of which it can use.
 */
export interface WalletLinksTable {
  id: string;
  user_id: string;
  /** SHA-256 (hex) of the normalized code (upper case, no spaces or dashes). Never the code. */
  code_hash: string;
  /** SHA-256 of the creating session's token: only it confirms. */
  owner_session_hash: string;
  /** The old browser's X25519 public key, base64. */
  owner_public_key: string;
  owner_name: string;
  /** SHA-256 of the claiming session's token; null until claimed. */
  claimant_session_hash: string | null;
  claimant_public_key: string | null;
  /** SHA-256 (hex) of the new browser's future unlock secret; the confirmed device must carry it. */
  claimant_secret_hash: string | null;
  claimant_name: string | null;
  /** The new device's held share sealed for the claimant (base64); null until confirmed. */
  sealed_share: string | null;
  /** The device the confirmation made; null until then. */
  device_id: string | null;
  state: WalletLinkState;
  created_at: string;
  expires_at: string;
  claimed_at: string | null;
  confirmed_at: string | null;
}

/** How a recovery share is protected in the browser. */
export type RecoveryMethod = 'password' | 'passkey';

/** The user's recovery share, encrypted in the browser: the server stores it but cannot read it. */
export interface RecoverySharesTable {
  user_id: string;
  /** The wallet's `share_generation` this share belongs to. */
  generation: number;
  method: RecoveryMethod;
  /** The browser's ciphertext, base64, opaque to the server. */
  ciphertext: string;
  /** The browser's KDF parameters, JSON (checked against the route schema before it is stored). */
  kdf: string;
  created_at: string;
}

/** Fixed-window counters: one row per limit and subject. */
export interface RateLimitsTable {
  key: string;
  window_start: string;
  count: number;
}

export interface OutboxMessagesTable {
  id: string;
  channel: Channel;
  recipient: string;
  subject: string;
  body: string;
  code: string | null;
  created_at: string;
}

/** What a transfer moved: the chain's native coin or USDC. */
export type TransferAsset = 'native' | 'usdc';

/**
 * Where a transfer stands, as the server read it from the chain: `pending` until it has seen the
 * transaction mined, then the receipt's `confirmed` or `failed` (final).
 */
export type TransferStatus = 'pending' | 'confirmed' | 'failed';

/**
 * A transaction a Dial user says they sent (`POST /api/activity`), checked by the server on the chain; a
 * record the chain contradicts is deleted.
 */
export interface TransfersTable {
  id: string;
  sender_user_id: string;
  chain_id: number;
  /** 0x and 64 hex digits, lower-case; unique with `chain_id` and `sender_user_id`. */
  tx_hash: string;
  /** The sender's registered wallet, EIP-55 checksummed. */
  from_address: string;
  /** EIP-55 checksummed. */
  to_address: string;
  asset: TransferAsset;
  /** Base units (wei, or USDC's 6-decimal units) as a decimal string without leading zeros. */
  amount: string;
  /** The Dial user whose wallet `to_address` was when the transfer was recorded. */
  recipient_user_id: string | null;
  /** E.164, when the sender chose the recipient by phone number. */
  recipient_phone: string | null;
  status: TransferStatus;
  created_at: string;
  updated_at: string;
  /** When the next chain check is due; null once settled. */
  next_check_at: string | null;
  /** Chain checks started so far (the backoff grows with it). */
  check_attempts: Generated<number>;
  /** When the last chain check started. */
  checked_at: string | null;
  /** A server is checking it until then; others leave it alone. */
  claimed_until: string | null;
  /** Since when the RPC has answered that it does not know the transaction (null: it does, or not asked). */
  missing_since: string | null;
}

/** A session token the on-ramp sandbox issued (`POST /api/onramp/session`), single use, 5 minutes. */
export interface OnrampSessionsTable {
  /** SHA-256 of the token, hex. Never the token itself. */
  token_hash: string;
  user_id: string;
  /** The user's wallet when the token was issued, EIP-55 checksummed: the only address it credits. */
  wallet_address: string;
  /** `USDC`, `ETH`, `POL`. */
  asset: string;
  /** The provider network the user picked, e.g. `base`; the sandbox credits the local chain. */
  network: string;
  /** A decimal string with a digit before any point, e.g. `25` or `0.5`. */
  amount: string;
  experience: 'buy' | 'send';
  expires_at: string;
  /** When the checkout paid with it; null while unused. */
  used_at: string | null;
  /** `credited` or `failed` once paid; null before. */
  outcome: 'credited' | 'failed' | null;
  created_at: string;
}

/** What a wallet proof is for (core's `WalletProofPurpose`). */
export type WalletChallengePurpose = 'register-wallet' | 'rotate-shares' | 'enroll-device' | 'account-change';

/** A challenge for the wallet's key to sign: single use, short-lived, bound to a user, session and purpose. */
export interface WalletChallengesTable {
  /** SHA-256 of the challenge, hex. */
  challenge_hash: string;
  user_id: string;
  /** SHA-256 of the session token that asked for it: another session cannot use it. */
  session_hash: string;
  purpose: WalletChallengePurpose;
  expires_at: string;
  created_at: string;
}

/** A browser a user signed in from: its requests for codes get a budget of their own. */
export interface KnownDevicesTable {
  user_id: string;
  /** SHA-256 of the browser's `dial_device` cookie, hex. Never the cookie itself. */
  device_hash: string;
  /** A UUID naming the browser in the browsers list and its URLs; never the cookie or its hash. */
  id: string;
  /** The browser's `User-Agent` at its latest sign-in (at most 512 characters), for its name; null if none. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  /** The latest sign-in from it. */
  last_seen_at: string;
}

/** A proof-of-work challenge whose solution was accepted: each works once, on every server. */
export interface ProofOfWorkUsesTable {
  /** SHA-256 of the challenge's signature, hex. */
  challenge_hash: string;
  /** When the challenge expires; the row is useless (and swept) after it. */
  expires_at: string;
}

/** What the owner of an account is told about (`notifyOwner`): the contract's notice kinds, one list. */
export type AccountEventKind = NoticeKind;

/** An event the owner was sent a notice about, and sees in the app's notices list. */
export interface AccountEventsTable {
  id: string;
  user_id: string;
  kind: AccountEventKind;
  created_at: string;
  /** JSON: what the notice names (the method linked, the change asked for…); null when nothing. */
  details: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the owner saw it in the app's notices list; null while unread. */
  read_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Where a change asked for without the key's proof stands. */
export type AccountChangeStatus = 'pending' | 'applied' | 'cancelled' | 'failed';

/**
 * A change to the account asked for by a session without the key's proof: it waits out the cooling-off
 * period (`COOLING_OFF_HOURS`), then is applied, unless a session with proof cancels it first.
 */
export interface AccountChangesTable {
  id: string;
  user_id: string;
  /** What it does: core's `AccountChangeAction`. */
  action: string;
  /** JSON: the change's own fields (the method to link, the method to remove…). */
  details: string;
  /** The public id of the session that asked. */
  requested_by_session: string | null;
  /** The sign-in method (identities.id) that session started with. */
  requested_by_identity: string | null;
  /** The asking browser's name ("Chrome on Linux"). */
  requested_from: string | null;
  status: AccountChangeStatus;
  created_at: string;
  /** When the cooling-off period ends. */
  applies_at: string;
  settled_at: string | null;
  /** A failed change's error code; 'cancelled' changes: who cancelled. */
  outcome: string | null;
}

/** What a Sign-In with Ethereum nonce is for: signing in, or linking a wallet to the signed-in account. */
export type SiweNoncePurpose = 'sign-in' | 'link';

/**
 * A nonce for a Sign-In with Ethereum message: single use, 10 minutes. A sign-in nonce is bound to the
 * browser that asked for it, a link nonce to the session that asked for it.
 */
export interface SiweNoncesTable {
  /** SHA-256 of the nonce, hex. Never the nonce itself. */
  nonce_hash: string;
  purpose: SiweNoncePurpose;
  /** SHA-256 of the `dial_device` cookie that asked (sign-in); null for a link nonce. */
  device_hash: string | null;
  /** SHA-256 of the session token that asked (link); null for a sign-in nonce. */
  session_hash: string | null;
  expires_at: string;
  /** When a message with it was accepted; null while unused. Kept (until swept) so a replay is told apart. */
  used_at: string | null;
  created_at: string;
}

/**
 * A passkey (WebAuthn credential) of an account (migration 0015): one row per identity of kind `passkey`,
 * deleted with it. What verifying its assertions needs, and what its owner sees of it.
 */
export interface PasskeysTable {
  identity_id: string;
  user_id: string;
  /** base64url, as the authenticator gave it (equal to the identity's value). */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The signature counter last seen (0 for authenticators that keep none). */
  counter: ColumnType<number | string | bigint, number, number>;
  /** JSON array of the transports the browser reported (`internal`, `hybrid`, `usb`…). */
  transports: string;
  /** The WebAuthn user handle it was made with (base64url): a random id of the account, never its UUID. */
  user_handle: string;
  /** The authenticator model's AAGUID (all zeros when it gives none). */
  aaguid: string;
  /** The name its owner gave it, or one made from the AAGUID and the browser. */
  name: string;
  /** 1 when the authenticator said the credential is backed up (synced). */
  backed_up: number;
  created_at: string;
  last_used_at: string | null;
}

/** What a WebAuthn challenge is for (migration 0015). */
export type WebauthnChallengePurpose = 'sign-up' | 'sign-in' | 'link';

/**
 * A single-use challenge of a passkey ceremony, 5 minutes: sign-up and sign-in bound to the browser that
 * asked, link to the session that asked. Deleted when used.
 */
export interface WebauthnChallengesTable {
  /** SHA-256 of the challenge, hex. */
  challenge_hash: string;
  purpose: WebauthnChallengePurpose;
  /** SHA-256 of the `dial_device` cookie that asked (sign-up, sign-in); null for link. */
  device_hash: string | null;
  /** SHA-256 of the session token that asked (link); null otherwise. */
  session_hash: string | null;
  /** The user handle the new credential is made with (sign-up, link); null for sign-in. */
  user_handle: string | null;
  expires_at: string;
  created_at: string;
}

/**
 * What changed in a user's wallet, in order (migration 0009), for the live stream (`GET /api/events`). Any
 * server appends a row; any server streams it.
 */
export interface WalletEventsTable {
  /** The order of events (an identity column): a stream resumes after the last one it sent. */
  seq: Generated<number | string>;
  user_id: string;
  /** What changed: `activity` (a history entry added or settled), `keys` (the key shares were split anew). */
  kind: string;
  /** JSON: what the browser needs to react, never another person's identity. */
  payload: string;
  created_at: string;
}

/** Where money that was not a Dial send came from (see {@link WalletCreditsTable}). */
export type CreditSource = 'faucet' | 'onramp' | 'outside' | 'balance';

/**
 * Money that reached an account's wallet other than by a Dial send: the dev faucet, an on-ramp purchase or
 * deposit, a USDC `Transfer` log or native value from any outside address, or a balance change seen without
 * its transaction (`source` 'balance': no hash or sender, the block it was seen in).
 */
export interface WalletCreditsTable {
  id: string;
  user_id: string;
  /** The account's wallet it reached, EIP-55 checksummed. */
  wallet_address: string;
  chain_id: number;
  /** Lower-case; null for a balance change. */
  tx_hash: string | null;
  /** The `Transfer` log's index in its block; null for a transaction's own value or a balance change. */
  log_index: number | null;
  /**
   * One row per credit however many times it is found: `<chain>:<tx hash>:<log index or -1>:<wallet>`, or
   * `<chain>:balance:<wallet>:<block>`.
   */
  dedupe_key: string;
  source: CreditSource;
  asset: TransferAsset;
  /** Base units as a decimal string without leading zeros. */
  amount: string;
  /** EIP-55; null for a balance change. */
  from_address: string | null;
  /** The block it was mined (or seen) in; null while pending. */
  block_number: number | string | null;
  status: TransferStatus;
  /** The on-ramp session (its token hash) it paid, for an on-ramp credit. */
  onramp_session: string | null;
  created_at: string;
  updated_at: string;
}

/** The chain watcher's place on one chain. */
export interface ChainWatchTable {
  chain_id: number;
  /** The next block to scan. */
  next_block: number | string;
  /** A server is scanning until then; others leave the chain alone. */
  claimed_until: string | null;
  updated_at: string;
}

/** The last price read for an asset (`ETH`, `POL`, `USDC`) in a currency (`USD`), shared by every server. */
export interface PriceQuotesTable {
  symbol: string;
  currency: string;
  /** A decimal string. */
  price: string;
  fetched_at: string;
}

/**
 * A user operation whose network fee the server agreed to pay (migration 0016): one per chain, sender and
 * nonce, since only one operation with that nonce can ever run.
 */
export interface SponsorshipsTable {
  id: string;
  user_id: string;
  chain_id: number;
  /** EIP-55 checksummed: the account's embedded wallet. */
  sender: string;
  /** The operation's nonce, a decimal string (key and sequence: up to 256 bits). */
  nonce: string;
  /** The EntryPoint's hash of the operation (without the account's signature), lower-case hex. */
  user_op_hash: string;
  /** The paymaster that pays, EIP-55 checksummed. */
  paymaster: string;
  /** All gas limits × max fee per gas, in wei, a decimal string. */
  max_cost_wei: string;
  /** The UTC day it counts in, `YYYY-MM-DD`. */
  day: string;
  created_at: string;
  /** From the EntryPoint's `UserOperationEvent` once read from the chain; null until then. */
  actual_cost_wei: string | null;
  tx_hash: string | null;
}

/** One account's or one chain's sponsorships on one UTC day: what the limits are checked against. */
export interface SponsorUsageTable {
  kind: 'account' | 'chain';
  /** The user id, or the chain id as text. */
  subject: string;
  day: string;
  count: number;
  /** The summed max cost in wei, a decimal string. */
  cost_wei: string;
}
