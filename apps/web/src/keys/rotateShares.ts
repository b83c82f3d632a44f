import {
  combineWalletShares,
  createWalletShares,
  DialError,
  decodeShare,
  encodeShare,
  isDialError,
} from '@dial/core';
import type { Hex } from 'viem';
import { putShares, type ShareRotation } from '../api/shareEndpoints';
import type { ProtectedRecoveryShare } from '../api/types';
import { type ShareSlot, splitId } from './deviceShareRecords';
import { deviceShareStore } from './deviceShareStore';
import { signWalletProof } from './signWalletProof';
import { withWalletLock } from './walletLock';

/** A new split whose device share is saved in this browser, waiting for the server to take the others. */
export interface PendingRotation {
  userId: string;
  address: `0x${string}`;
  /** The generation the new split becomes once the server takes it. */
  generation: number;
  /** The new split's id (hash of its auth share), which tells it apart from other splits of its generation. */
  split: string;
  /** The store entry holding the new device share. */
  entry: string;
  body: ShareRotation;
}

/**
 * Splits the wallet's key into three NEW shares (generation + 1): saves the new device share in this
 * browser first, beside the current one, and encrypts the new recovery share with `protect`. Nothing
 * changes on the server yet: {@link commitRotation} sends the rest.
 *
 * The caller drops `privateKey` right after. What the pending rotation holds (one share for the server,
 * one encrypted) cannot rebuild the key without the device share, which page scripts can read anyway.
 */
export async function prepareRotation(
  userId: string,
  address: `0x${string}`,
  fromGeneration: number,
  privateKey: Hex,
  protect: (recoveryShare: Uint8Array) => Promise<ProtectedRecoveryShare>,
): Promise<PendingRotation> {
  const shares = await createWalletShares(privateKey);
  const generation = fromGeneration + 1;
  try {
    const recovery = await protect(shares.recoveryShare);
    // Saved BEFORE the server hears of this split: if the answer is lost after the server took it, the
    // next opening finds the share of the server's new generation here.
    const split = await splitId(shares.authShare);
    const entry = await deviceShareStore.save(userId, { address, generation, split }, shares.deviceShare);
    return {
      userId,
      address,
      generation,
      split,
      entry,
      body: {
        expectedGeneration: fromGeneration,
        address,
        authShare: encodeShare(shares.authShare),
        recovery,
      },
    };
  } finally {
    shares.deviceShare.fill(0);
    shares.authShare.fill(0);
    shares.recoveryShare.fill(0);
  }
}

/** The message when a prepared rotation's device share is gone: nothing was sent, the person starts again. */
const PENDING_SHARE_GONE =
  'The new key share this browser saved for this change is gone (your wallet may have been changed in another tab), so nothing was changed. Please start again.';

/**
 * Sends a prepared rotation: the server replaces the auth and recovery shares in one step if it is still
 * at the generation the split was made from. Then the new device share is kept, and older generations
 * and other splits of the new generation are forgotten (newer ones, which other tabs may be preparing,
 * stay).
 *
 * Before sending, checks that the new device share is still stored here and rebuilds the key with the new
 * auth share: the person may have waited minutes for a confirmation code meanwhile, and a split the server
 * takes without this browser holding its device share would leave the wallet unopenable here. If it is
 * gone, nothing is sent (`device_share_missing`) and the person starts again, which prepares a new split.
 * The rebuilt key then signs the change over a fresh server challenge (proof of possession: the server
 * takes new shares only from whoever holds the key), and is dropped.
 *
 * The check, the PUT and the pruning run under the wallet's Web Lock, so no other tab's opening prunes
 * the stored shares in between. (Not the whole prepare → commit: waiting for a code under the lock would
 * keep every other tab from opening the wallet meanwhile.)
 *
 * - `reauthentication_required`: nothing changed; the new device share stays so the same rotation can be
 *   sent again after the person confirmed with a code. Likewise `too_many_requests` and
 *   `wallet_proof_expired` (the challenge was refused or ran out: sending again asks for a new one).
 * - `stale_share_generation` (another device or tab rotated first) and other refusals: the new share is
 *   forgotten, the current one stays.
 * - No answer (network): both shares stay, since the server may have taken it; the next opening uses
 *   whichever the server holds.
 *
 * @returns the new generation.
 * @throws {DialError} `device_share_missing` (nothing sent), or the server's refusal.
 */
export function commitRotation(pending: PendingRotation): Promise<number> {
  return withWalletLock(pending.userId, () => sendRotation(pending));
}

async function sendRotation(pending: PendingRotation): Promise<number> {
  const { userId, address, generation, split, entry } = pending;
  const privateKey = await checkPendingShare(pending);
  let answer: { generation: number };
  try {
    const proof = await signWalletProof(privateKey, {
      purpose: 'rotate-shares',
      userId,
      address,
      fromGeneration: pending.body.expectedGeneration,
      authShare: decodeShare(pending.body.authShare),
      recovery: pending.body.recovery ?? null,
    });
    answer = await putShares({ ...pending.body, proof });
  } catch (error) {
    const refused =
      isDialError(error) &&
      error.status < 500 &&
      error.code !== 'reauthentication_required' &&
      error.code !== 'too_many_requests' &&
      error.code !== 'wallet_proof_expired' &&
      error.code !== 'network_error';
    if (refused) await deviceShareStore.discard(userId, entry);
    throw error;
  }
  if (answer.generation === generation) {
    const slot: ShareSlot = { address, generation, split };
    await deviceShareStore.prune(userId, slot, entry);
  } else {
    // Not the generation asked for (never expected): forget only what is surely older.
    await deviceShareStore.pruneOlder(userId, address, answer.generation);
  }
  return answer.generation;
}

/**
 * Throws `device_share_missing` unless the pending device share still loads and rebuilds the key.
 *
 * @returns the key, for signing the change once; the caller drops it.
 */
async function checkPendingShare(pending: PendingRotation): Promise<Hex> {
  const deviceShare = await deviceShareStore.load(pending.userId, pending.entry);
  if (deviceShare === null) {
    throw new DialError('device_share_missing', {
      message: PENDING_SHARE_GONE,
      details: 'pending share gone',
    });
  }
  const authShare = decodeShare(pending.body.authShare);
  try {
    return await combineWalletShares([deviceShare, authShare], pending.address);
  } catch (error) {
    throw new DialError('device_share_missing', { message: PENDING_SHARE_GONE, cause: error });
  } finally {
    deviceShare.fill(0);
    authShare.fill(0);
  }
}
