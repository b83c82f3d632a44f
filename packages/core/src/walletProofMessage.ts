import { bytesToHex, sha256, stringToBytes } from 'viem';

/** What a wallet proof authorises: registering the wallet, or replacing its key shares. */
export type WalletProofPurpose = 'register-wallet' | 'rotate-shares';

/** Every purpose, for schemas and checks. */
export const WALLET_PROOF_PURPOSES: readonly WalletProofPurpose[] = ['register-wallet', 'rotate-shares'];

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
  /** The generation the shares replace: 0 when registering, the current one when rotating. */
  fromGeneration: number;
  /** The auth share the server will store. */
  authShare: Uint8Array;
  /** The recovery share the server will store, or `null` when none is (registration, or a rotation without one). */
  recovery: RecoveryShareRecord | null;
}

/**
 * The text a wallet's key signs (EIP-191 `personal_sign`) to prove to a Dial server that the change it asks
 * for comes from whoever holds the key: registering the wallet, or replacing its auth and recovery shares.
 *
 * It binds the server's single-use challenge, the account, the purpose, the generation being replaced, and
 * SHA-256 hashes of the auth share and of the recovery share record, so a signature cannot be replayed, moved
 * to another account, or reused to store other shares. The browser and the server both build it with this
 * function; the server recovers the signer from the signature and compares it with the registered address.
 *
 * @param fields - What the proof binds.
 * @returns The message, one `Name: value` line each.
 *
 * @example
 * ```ts
 * const message = walletProofMessage({ purpose: 'register-wallet', challenge, userId, address,
 *   fromGeneration: 0, authShare, recovery: null });
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
    `Auth share: ${hashBytes(fields.authShare)}`,
    `Recovery share: ${fields.recovery === null ? 'none' : hashRecoveryShare(fields.recovery)}`,
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
