import { x25519 } from '@noble/curves/ed25519.js';
import { english } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  formatLinkCode,
  LINK_CODE_ALPHABET,
  LINK_WORD_COUNT,
  linkWords,
  newLinkKeyPair,
  normalizeLinkCode,
  openLinkShare,
  sealLinkShare,
} from './deviceLink.js';

const LINK = '6f1c1a3e-3d2b-4a57-9a41-0c1f2b3d4e5f';
const SHARE = new Uint8Array(33).map((_, index) => index + 1);

describe('normalizeLinkCode', () => {
  it('reads a code typed in any case, with spaces or a dash, and refuses look-alikes and other lengths', () => {
    expect(normalizeLinkCode(' acde-fg hj ')).toBe('ACDEFGHJ');
    expect(normalizeLinkCode('ACDEFGHJ')).toBe('ACDEFGHJ');
    expect(normalizeLinkCode('ACDEFGH0')).toBeNull(); // 0 is not in the alphabet (O)
    expect(normalizeLinkCode('ACDEFGH')).toBeNull();
    expect(normalizeLinkCode('ACDEFGHJK')).toBeNull();
    expect(formatLinkCode('ACDEFGHJ')).toBe('ACDE-FGHJ');
    for (const lookAlike of '0O1IL5S2Z8B') expect(LINK_CODE_ALPHABET).not.toContain(lookAlike);
  });
});

describe('linkWords', () => {
  it('gives both sides the same words from the same keys, and other words when a key is swapped', async () => {
    const owner = newLinkKeyPair();
    const claimant = newLinkKeyPair();
    const intruder = newLinkKeyPair();
    const words = await linkWords(LINK, owner.publicKey, claimant.publicKey);
    expect(words).toHaveLength(LINK_WORD_COUNT);
    for (const word of words) expect(english).toContain(word);
    expect(await linkWords(LINK, owner.publicKey, claimant.publicKey)).toEqual(words);
    expect(await linkWords(LINK, intruder.publicKey, claimant.publicKey)).not.toEqual(words);
    expect(await linkWords(LINK, owner.publicKey, intruder.publicKey)).not.toEqual(words);
    expect(await linkWords(LINK, claimant.publicKey, owner.publicKey)).not.toEqual(words);
    expect(
      await linkWords('00000000-0000-4000-8000-000000000000', owner.publicKey, claimant.publicKey),
    ).not.toEqual(words);
  });

  it('reads the digest as 11-bit indexes, most significant bit first (a known answer)', async () => {
    const zeros = btoa(String.fromCharCode(...new Uint8Array(32)));
    const digest = new Uint8Array(
      await crypto.subtle.digest(
        'SHA-256',
        new Uint8Array([
          ...new TextEncoder().encode(`dial device link words v1\n${LINK}\n`),
          ...new Uint8Array(64),
        ]),
      ),
    );
    const bits = [...digest].map((byte) => byte.toString(2).padStart(8, '0')).join('');
    const expected = [0, 1, 2, 3].map(
      (index) => english[Number.parseInt(bits.slice(index * 11, index * 11 + 11), 2)],
    );
    expect(await linkWords(LINK, zeros, zeros)).toEqual(expected);
  });
});

describe('sealLinkShare / openLinkShare', () => {
  it('opens on the other side of the link what one side sealed, and nowhere else', async () => {
    const owner = newLinkKeyPair();
    const claimant = newLinkKeyPair();
    const sealed = await sealLinkShare(
      { privateKey: owner.privateKey, peerPublicKey: claimant.publicKey, linkId: LINK },
      SHARE,
    );
    expect(sealed).not.toContain(btoa(String.fromCharCode(...SHARE)).slice(0, 20));
    const opened = await openLinkShare(
      { privateKey: claimant.privateKey, peerPublicKey: owner.publicKey, linkId: LINK },
      sealed,
    );
    expect(opened).toEqual(SHARE);

    // The relaying server, with both public keys and a key pair of its own, cannot open it.
    const server = newLinkKeyPair();
    for (const keys of [
      { privateKey: server.privateKey, peerPublicKey: owner.publicKey, linkId: LINK },
      { privateKey: server.privateKey, peerPublicKey: claimant.publicKey, linkId: LINK },
      // Nor the right keys under another link's id.
      { privateKey: claimant.privateKey, peerPublicKey: owner.publicKey, linkId: `${LINK.slice(0, -1)}0` },
    ]) {
      await expect(openLinkShare(keys, sealed)).rejects.toMatchObject({ code: 'invalid_data' });
    }
  });

  it('refuses a sealed share that was altered, and a public key that is not one', async () => {
    const owner = newLinkKeyPair();
    const claimant = newLinkKeyPair();
    const keys = { privateKey: claimant.privateKey, peerPublicKey: owner.publicKey, linkId: LINK };
    const sealed = await sealLinkShare(
      { privateKey: owner.privateKey, peerPublicKey: claimant.publicKey, linkId: LINK },
      SHARE,
    );
    const bytes = Uint8Array.from(atob(sealed), (character) => character.charCodeAt(0));
    bytes[20]! ^= 1;
    await expect(openLinkShare(keys, btoa(String.fromCharCode(...bytes)))).rejects.toMatchObject({
      code: 'invalid_data',
    });
    const zeroKey = btoa(String.fromCharCode(...new Uint8Array(32)));
    await expect(
      sealLinkShare({ privateKey: owner.privateKey, peerPublicKey: zeroKey, linkId: LINK }, SHARE),
    ).rejects.toMatchObject({ code: 'invalid_data' });
    await expect(
      sealLinkShare({ privateKey: owner.privateKey, peerPublicKey: 'AAAA', linkId: LINK }, SHARE),
    ).rejects.toMatchObject({ code: 'invalid_data' });
    expect(x25519.getPublicKey(owner.privateKey)).toHaveLength(32);
  });
});
