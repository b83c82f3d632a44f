import { bytesToHex, sha256, stringToBytes } from 'viem';

/**
 * What a wallet proof authorises: registering the wallet (with its first device), replacing the recovery
 * pair's shares, or letting one more device open the wallet.
 */
export type WalletProofPurpose = 'register-wallet' | 'rotate-shares' | 'enroll-device';

/** Every purpose, for schemas and checks. */
export const WALLET_PROOF_PURPOSES: readonly WalletProofPurpose[] = [
  'register-wallet',
  'rotate-shares',
  'enroll-device',
];

/**
 * A device's half of the key as the server will keep it: the device's auth share (the other half of a
 * two-share split whose first half only that browser holds) and the SHA-256 (hex) of the secret with which
 * that browser will ask for it.
 */
export interface DeviceShareRecord {
  authShare: Uint8Array;
  /** SHA-256 of the device's unlock secret, 64 lower-case hex digits. */
  secretHash: string;
}

/** A recovery share as it is stored: its method, its ciphertext and the KDF record (any JSON). */
export interface RecoveryShareRecord {
  method: string;
  ciphertext: string;
  kdf: unknown;
}

/** What a wallet proof binds: the server's challenge, who asks, and exactly what will be stored. */
export interface WalletProofFields {
  purpose: WalletProofPurpose;
  /** The single-use challenge the server issued for this session and purpose. */
  challenge: string;
  /** The Dial account (user id) the wallet is or becomes registered to. */
  userId: string;
  /** The wallet's address; the signature must recover to it. */
  address: string;
  /**
   * The recovery pair's generation the change replaces: 0 when registering, the current one when rotating
   * the recovery pair or enrolling a device (which replaces nothing, but is bound to the pair it was read with).
   */
  fromGeneration: number;
  /**
   * The recovery pair's auth share the server will store (registering, rotating), or `null` when the change
   * stores none (enrolling a device).
   */
  authShare: Uint8Array | null;
  /** The recovery share the server will store, or `null` when none is (registration, or a rotation without one). */
  recovery: RecoveryShareRecord | null;
  /** The device the server will let open the wallet (registering, enrolling), or `null` (rotating). */
  device: DeviceShareRecord | null;
}

/**
 * The text a wallet's key signs (EIP-191 `personal_sign`) to prove to a Dial server that the change it asks
 * for comes from whoever holds the key: registering the wallet, replacing its recovery pair (the auth share
 * and the recovery share), or enrolling one more device.
 *
 * It binds the server's single-use challenge, the account, the purpose, the generation being replaced, and
 * SHA-256 hashes of the auth share, of the recovery share record and of the device's auth share with its
 * secret's hash, so a signature cannot be replayed, moved
 * to another account, or reused to store other shares. The browser and the server both build it with this
 * function; the server recovers the signer from the signature and compares it with the registered address.
 *
 * @param fields - What the proof binds.
 * @returns The message, one `Name: value` line each.
 *
 * @example
 * ```ts
 * const message = walletProofMessage({ purpose: 'register-wallet', challenge, userId, address,
 *   fromGeneration: 0, authShare, recovery: null, device: { authShare: deviceAuthShare, secretHash } });
 * const signature = await account.signMessage({ message });
 * ```
 */
export function walletProofMessage(fields: WalletProofFields): string {
  return [
    'Dial wallet key proof',
    'This signature changes nothing on any chain and costs nothing.',
    `Action: ${fields.purpose}`,
    `Address: ${fields.address.toLowerCase()}`,
    `Account: ${fields.userId}`,
    `Replaces generation: ${fields.fromGeneration}`,
    `Auth share: ${fields.authShare === null ? 'none' : hashBytes(fields.authShare)}`,
    `Recovery share: ${fields.recovery === null ? 'none' : hashRecoveryShare(fields.recovery)}`,
    `Device: ${fields.device === null ? 'none' : `${hashBytes(fields.device.authShare)} ${fields.device.secretHash}`}`,
    `Challenge: ${fields.challenge}`,
  ].join('\n');
}

/**
 * SHA-256 of a recovery share record's canonical JSON (keys sorted at every level), hex: the same record
 * hashes the same whatever the order its keys were written in.
 */
export function hashRecoveryShare(recovery: RecoveryShareRecord): string {
  return hashBytes(stringToBytes(canonicalJson(recovery)));
}

function hashBytes(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes, 'bytes')).slice(2);
}

/** JSON with object keys sorted, so two equal values give the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
