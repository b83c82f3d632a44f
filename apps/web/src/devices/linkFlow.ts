import {
  combineWalletShares,
  DialError,
  decodeShare,
  encodeShare,
  type LinkKeyPair,
  linkWords,
  newLinkKeyPair,
  normalizeLinkCode,
  openLinkShare,
  sealLinkShare,
  splitWalletKey,
} from '@dial/core';
import { callApi } from '../api/client';
import { deviceStore } from '../keys/deviceStore';
import { signWalletProof } from '../keys/signWalletProof';
import { currentWalletKey } from '../keys/walletKey';
import { SCREEN_PATHS } from '../navigation/routes';
import {
  cancelDeviceLink,
  claimDeviceLink,
  confirmDeviceLink,
  createDeviceLink,
  type DeviceInfo,
  type DeviceLink,
} from './devicesApi';

// Adding a device by QR code (docs/SECURITY.md, "Devices"): the old browser (a device of the wallet) starts a
// link and shows its code; the new browser enters it; both show the same words; the old one confirms and
// seals the new device's held share for the new browser, which opens it, checks it and keeps it.

/** A link this browser started (the old browser): its X25519 key pair never leaves the page. */
export interface StartedLink {
  id: string;
  /** As shown: `ABCD-EFGH`. */
  code: string;
  expiresAt: string;
  keys: LinkKeyPair;
}

/** Starts a link from this browser. */
export async function startLink(): Promise<StartedLink> {
  const keys = newLinkKeyPair();
  const { id, code, expiresAt } = await createDeviceLink(keys.publicKey);
  return { id, code, expiresAt, keys };
}

/** The URL the link's QR code holds: this app's `/link` with the code, which the new browser opens. */
export function linkUrl(origin: string, code: string): string {
  return `${origin}${SCREEN_PATHS['link-device']}?code=${encodeURIComponent(normalizeLinkCode(code) ?? code)}`;
}

/**
 * Confirms a claimed link from the old browser, once the person saw the same words on both screens: rebuilds
 * the wallet's key through this device, makes the new device's split, seals its held share for the new
 * browser (only it can open it), and sends the auth share with the key's proof, bound to the new browser's
 * secret hash. The key and the shares are dropped after.
 *
 * @returns the new device.
 */
export async function confirmLink(
  userId: string,
  link: StartedLink,
  claimant: NonNullable<DeviceLink['claimant']>,
): Promise<DeviceInfo> {
  const { wallet, privateKey } = await currentWalletKey(userId);
  const { heldShare, authShare } = await splitWalletKey(privateKey);
  try {
    const sealedShare = await sealLinkShare(
      { privateKey: link.keys.privateKey, peerPublicKey: claimant.publicKey, linkId: link.id },
      heldShare,
    );
    const device = { authShare, secretHash: claimant.secretHash };
    const proof = await signWalletProof(privateKey, {
      purpose: 'enroll-device',
      userId,
      address: wallet.address,
      fromGeneration: wallet.generation,
      authShare: null,
      recovery: null,
      device,
    });
    const answer = await confirmDeviceLink(link.id, {
      address: wallet.address,
      device: { authShare: encodeShare(authShare), secretHash: claimant.secretHash },
      sealedShare,
      proof,
    });
    return answer.device;
  } finally {
    heldShare.fill(0);
    authShare.fill(0);
  }
}

/** A link this browser claimed (the new browser): its key pair and the unlock secret it will keep. */
export interface ClaimedLink {
  id: string;
  ownerPublicKey: string;
  ownerName: string;
  expiresAt: string;
  keys: LinkKeyPair;
  secret: string;
  /** The words this side shows. */
  words: string[];
}

/**
 * Enters a link's code in this (the new) browser: makes the key pair and the unlock secret, sends the public
 * key and the secret's hash, and derives the words to show.
 *
 * @throws {DialError} `invalid_data` for a code that cannot be one; `device_link_not_found` from the server.
 */
export async function claimLink(code: string): Promise<ClaimedLink> {
  const normalized = normalizeLinkCode(code);
  if (normalized === null) {
    throw new DialError('invalid_data', {
      message: 'A link code is 8 letters and digits, like ACDE-FGHJ. Check it on your other device.',
    });
  }
  const keys = newLinkKeyPair();
  const { secret, secretHash } = await deviceStore.newSecret();
  const claimed = await claimDeviceLink({ code: normalized, publicKey: keys.publicKey, secretHash });
  const words = await linkWords(claimed.id, claimed.ownerPublicKey, keys.publicKey);
  return { ...claimed, keys, secret, words };
}

/**
 * Finishes a confirmed link in the new browser: opens the sealed share, checks with the server's answer to this
 * device's first unlock that it rebuilds the wallet's key, and keeps the device in this browser.
 *
 * @throws {DialError} `invalid_data` when the sealed share was not sealed for this browser (a swapped key);
 *   `wallet_mismatch` when it does not rebuild the wallet's key.
 */
export async function finishLink(userId: string, link: ClaimedLink, confirmed: DeviceLink): Promise<void> {
  if (confirmed.sealedShare === null || confirmed.device === null) {
    throw new DialError('internal_error', { details: 'finishLink needs a confirmed link' });
  }
  const heldShare = await openLinkShare(
    { privateKey: link.keys.privateKey, peerPublicKey: link.ownerPublicKey, linkId: link.id },
    confirmed.sealedShare,
  );
  try {
    const unlocked = await callApi('unlockDevice', {
      params: { id: confirmed.device.id },
      body: { secret: link.secret },
    });
    const authShare = decodeShare(unlocked.authShare);
    try {
      // Checks the pair against the address; the key itself is dropped at once.
      await combineWalletShares([heldShare, authShare], unlocked.address);
    } finally {
      authShare.fill(0);
    }
    await deviceStore.save(userId, {
      deviceId: confirmed.device.id,
      address: unlocked.address,
      secret: link.secret,
      heldShare,
    });
  } finally {
    heldShare.fill(0);
  }
}

/**
 * Cancels the link `id` this browser started or claimed, from either side, when the person leaves it
 * (Cancel, "They differ"), and never fails: a link the server has settled already, or a request that does not
 * get through, changes nothing for the person, since the link expires by itself within 5 minutes and no share
 * is sealed without the old browser's confirmation. `null` (no link made yet) asks nothing.
 */
export async function cancelLinkQuietly(id: string | null): Promise<void> {
  if (id === null) return;
  try {
    await cancelDeviceLink(id);
  } catch {
    // It expires by itself; the screen already says nothing was shared.
  }
}
