import { accountChangeMessage, accountChangeTarget, DialError, isDialError } from '@dial/core';
import { stringToHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getWallet } from '../api/endpoints';
import type { AccountProof, StepUpProof, StoredWallet } from '../api/types';
import { findWalletFor } from '../connect/findWalletFor';
import { walletError } from '../connect/walletError';
import type { DiscoveredWallet } from '../connect/walletProvider';
import { reportDeviceRemoved } from '../keys/deviceRemoval';
import { keyFromUnlocked, unlockHeldDevice } from '../keys/rebuildKey';
import { withWalletLock } from '../keys/walletLock';
import { getProofChallenge } from './accountChangesApi';

/** One change to the account, as core's `accountChangeTarget` names it (what the proof signs). */
export type AccountChangeRequest = Parameters<typeof accountChangeTarget>[0];

/** Why this browser could give no proof: the change can then only be asked for (it waits). */
export type NoProofReason =
  /** The account has an embedded wallet, and this browser is not (or no longer) one of its devices. */
  | 'no-device-share'
  /** A wallet-only account: none of its trusted wallets is reachable in this browser. */
  | 'wallet-not-connected'
  /** The account has no key that counts (no embedded wallet, no trusted wallet). */
  | 'no-signer';

export type ProofAttempt = { proof: StepUpProof } | { proof: null; reason: NoProofReason };

export interface ProveOptions {
  /** Finds the wallet app holding an address (the browser's, by default). */
  findWallet?: (address: string) => Promise<DiscoveredWallet | null>;
  /**
   * Whether one of the account's passkeys may prove the change when the key cannot here (default true). The
   * key export takes the key's proof only.
   */
  passkey?: boolean;
}

/**
 * The account key's proof of one change (`POST /api/account/proof`'s challenge, signed over core's
 * `accountChangeMessage`):
 *
 * - an account with an embedded wallet: its key is rebuilt through this browser's device (its held share
 *   and the auth share the server gives that device only, under the wallet's Web Lock), signs, and is
 *   dropped. No prompt: being a device of the wallet is the proof.
 * - a wallet-only account: the first of its trusted wallets found in this browser is asked to sign
 *   (`personal_sign`): the wallet app prompts.
 *
 * When neither is possible here and the account has trusted passkeys, one of them is asked for its assertion
 * over core's `passkeyChangeChallenge` (the browser prompts: fingerprint, face or screen lock); the passkey
 * code is a chunk of its own, loaded then. When nothing can prove it here, no proof (`proof: null` and why):
 * the caller sends the change without one, and it waits out the cooling-off period.
 *
 * @throws {DialError} `user_rejected` when the person declines in their wallet; an API error.
 */
export async function proveAccountChange(
  userId: string,
  change: AccountChangeRequest,
  options: ProveOptions = {},
): Promise<ProofAttempt> {
  const attempt = await proveWithKey(userId, change, options);
  if (attempt.proof !== null) return attempt;
  if (options.passkey === false || attempt.passkeys.length === 0) {
    return { proof: null, reason: attempt.reason };
  }
  const { provePasskey } = await import('../passkeys/passkeyCeremonies');
  const { challenge } = await getProofChallenge(change.action);
  const proof = await provePasskey(
    { action: change.action, target: accountChangeTarget(change), challenge, userId },
    attempt.passkeys,
  );
  return { proof };
}

/** The key's proof, else why not and which passkeys of the account could give one. */
async function proveWithKey(
  userId: string,
  change: AccountChangeRequest,
  options: ProveOptions,
): Promise<{ proof: AccountProof } | { proof: null; reason: NoProofReason; passkeys: string[] }> {
  let signers: `0x${string}`[];
  let passkeys: string[];
  let challenge: string;
  let wallet: StoredWallet | null;
  try {
    // A server older than passkeys names none.
    [{ challenge, signers, passkeys = [] }, wallet] = await Promise.all([
      getProofChallenge(change.action),
      embeddedWallet(),
    ]);
  } catch (error) {
    if (isDialError(error, 'account_proof_required'))
      return { proof: null, reason: 'no-signer', passkeys: [] };
    throw error;
  }
  const fields = { action: change.action, target: accountChangeTarget(change), challenge, userId };

  const embedded =
    wallet === null ? undefined : signers.find((signer) => sameAddress(signer, wallet.address));
  if (wallet !== null && embedded !== undefined) {
    const unlocked = await withWalletLock(userId, () => unlockHeldDevice(userId));
    if (unlocked.status !== 'unlocked') {
      if (unlocked.status === 'removed') reportDeviceRemoved();
      return { proof: null, reason: 'no-device-share', passkeys };
    }
    const account = privateKeyToAccount(await keyFromUnlocked(unlocked));
    const signature = await account.signMessage({
      message: accountChangeMessage({ ...fields, address: account.address }),
    });
    return { proof: { challenge, address: account.address, signature } };
  }

  if (signers.length === 0) return { proof: null, reason: 'no-signer', passkeys };
  const found = await firstReachable(signers, options.findWallet ?? ((address) => findWalletFor(address)));
  if (found === null) return { proof: null, reason: 'wallet-not-connected', passkeys };
  const message = accountChangeMessage({ ...fields, address: found.address });
  let signature: unknown;
  try {
    signature = await found.wallet.provider.request({
      method: 'personal_sign',
      params: [stringToHex(message), found.address],
    });
  } catch (error) {
    throw walletError(error);
  }
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    throw new DialError('internal_error', {
      details: 'the wallet answered personal_sign without a signature',
    });
  }
  return { proof: { challenge, address: found.address, signature } };
}

/**
 * The key's proof of a change that cannot be asked for without one ("Secure my account", exporting the key).
 *
 * @throws {DialError} `account_proof_required` (saying why) when this browser can give none.
 */
export async function requireAccountProof(
  userId: string,
  change: AccountChangeRequest,
  options?: ProveOptions,
): Promise<AccountProof> {
  const attempt = await proveWithKey(userId, change, options ?? {});
  if (attempt.proof !== null) return attempt.proof;
  throw new DialError('account_proof_required', {
    message: NO_PROOF_MESSAGES[attempt.reason],
    details: attempt.reason,
  });
}

/** Why a change needing the key's proof cannot be made here, and what would make it possible. */
export const NO_PROOF_MESSAGES: Record<NoProofReason, string> = {
  'no-device-share':
    'This browser is not one of the devices that open your wallet, so it cannot confirm this change. Do it on a device that opens your wallet, add this browser from there (Settings › Devices › Add a device), or recover your wallet here first.',
  'wallet-not-connected':
    'Your wallet is not connected in this browser, so it cannot confirm this change. Open Dial in the browser with your wallet, or connect it, and try again.',
  'no-signer':
    'Your account has no wallet that can confirm this change: only a wallet linked with confirmation can.',
};

/** The account's embedded wallet (its address), or null when it has none. */
async function embeddedWallet(): Promise<StoredWallet | null> {
  try {
    return await getWallet();
  } catch (error) {
    if (isDialError(error, 'wallet_not_found')) return null;
    throw error;
  }
}

/** The first of `addresses` (in their order) that a wallet of this browser holds, looked for together. */
async function firstReachable(
  addresses: readonly `0x${string}`[],
  findWallet: (address: string) => Promise<DiscoveredWallet | null>,
): Promise<{ address: `0x${string}`; wallet: DiscoveredWallet } | null> {
  const wallets = await Promise.all(addresses.map((address) => findWallet(address)));
  const index = wallets.findIndex((wallet) => wallet !== null);
  const address = addresses[index];
  const wallet = wallets[index];
  return address === undefined || wallet == null ? null : { address, wallet };
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
