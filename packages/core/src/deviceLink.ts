import { x25519 } from '@noble/curves/ed25519.js';
import { english } from 'viem/accounts';
import { decodeShare } from './decodeShare.js';
import { encodeShare } from './encodeShare.js';
import { DialError } from './errors.js';

// Linking a device by QR code (docs/SECURITY.md, "Devices"): the old browser seals the new device's held
// share for the new browser under a key both derive from an X25519 agreement, and both show confirmation
// words derived from the two public keys, so that a server which swapped in keys of its own shows two
// different sets of words. The same code runs in both browsers (and in tests, on Node's WebCrypto).

/** How many confirmation words each side shows: 4 of 2,048, 44 bits, one guess per link for a server. */
export const LINK_WORD_COUNT = 4;

/** The letters and digits of a link code: no 0/O, 1/I/L, 5/S, 2/Z, 8/B look-alikes. */
export const LINK_CODE_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';

/** A link code's length, without its dash. */
export const LINK_CODE_LENGTH = 8;

/** One browser's X25519 key pair for one link: the private key never leaves the page. */
export interface LinkKeyPair {
  privateKey: Uint8Array;
  /** Base64 (standard, padded) of the 32-byte public key, as the link routes take it. */
  publicKey: string;
}

/** A fresh X25519 key pair for one link. */
export function newLinkKeyPair(): LinkKeyPair {
  const privateKey = x25519.utils.randomSecretKey();
  return { privateKey, publicKey: toBase64(x25519.getPublicKey(privateKey)) };
}

/**
 * A link code as a person may type it (any case, with spaces or dashes) in its canonical form: upper case,
 * {@link LINK_CODE_LENGTH} characters of {@link LINK_CODE_ALPHABET}; `null` when it cannot be one.
 *
 * @example
 * ```ts
 * normalizeLinkCode(' acde-fg hj '); // 'ACDEFGHJ'
 * ```
 */
export function normalizeLinkCode(code: string): string | null {
  const compact = code.replace(/[\s-]/g, '').toUpperCase();
  if (compact.length !== LINK_CODE_LENGTH) return null;
  for (const character of compact) if (!LINK_CODE_ALPHABET.includes(character)) return null;
  return compact;
}

/** A canonical link code as shown: two groups of four (`ACDE-FGHJ`). */
export function formatLinkCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The words both browsers show before the old one confirms: SHA-256 of the link's id and both public keys
 * (the old browser's first), read as {@link LINK_WORD_COUNT} 11-bit indexes into the BIP-39 English list.
 * The same keys give the same words on both sides; a key swapped by anyone in between gives other words.
 *
 * @param linkId - The link's id, as the server gave it.
 * @param ownerPublicKey - The old browser's public key (base64).
 * @param claimantPublicKey - The new browser's public key (base64).
 */
export async function linkWords(
  linkId: string,
  ownerPublicKey: string,
  claimantPublicKey: string,
): Promise<string[]> {
  const input = concat([
    new TextEncoder().encode(`dial device link words v1\n${linkId}\n`),
    fromBase64(ownerPublicKey, 32),
    fromBase64(claimantPublicKey, 32),
  ]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', input));
  const words: string[] = [];
  for (let index = 0; index < LINK_WORD_COUNT; index++) {
    // Bits 11·index … 11·index + 10 of the digest, most significant first.
    const bit = index * 11;
    const byte = bit >> 3;
    const window = (digest[byte]! << 16) | (digest[byte + 1]! << 8) | digest[byte + 2]!;
    words.push(english[(window >> (24 - 11 - (bit & 7))) & 0x7ff]!);
  }
  return words;
}

/** What sealing or opening a share takes: this side's private key, the other side's public key, the link. */
export interface LinkSealKeys {
  privateKey: Uint8Array;
  /** The other browser's public key (base64). */
  peerPublicKey: string;
  linkId: string;
}

/**
 * Seals a device's held share for the other browser of a link: AES-256-GCM under a key derived by
 * HKDF-SHA-256 from the X25519 shared secret (the link id in its info), with the link id as additional data
 * and a random 12-byte nonce written first. Base64.
 */
export async function sealLinkShare(keys: LinkSealKeys, share: Uint8Array): Promise<string> {
  const key = await linkKey(keys);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(keys.linkId) },
    key,
    new Uint8Array(share),
  );
  return toBase64(concat([iv, new Uint8Array(ciphertext)]));
}

/**
 * Opens what {@link sealLinkShare} sealed for this browser.
 *
 * @throws {DialError} `invalid_data` when it was not sealed for this key pair and link, or was altered.
 */
export async function openLinkShare(keys: LinkSealKeys, sealed: string): Promise<Uint8Array> {
  const bytes = fromBase64(sealed);
  if (bytes.length < 12 + 16) throw new DialError('invalid_data', { details: 'sealed share too short' });
  const key = await linkKey(keys);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: new TextEncoder().encode(keys.linkId) },
      key,
      bytes.subarray(12),
    );
    return new Uint8Array(plain);
  } catch (error) {
    throw new DialError('invalid_data', {
      details: 'sealed share does not open with this link',
      cause: error,
    });
  }
}

async function linkKey(keys: LinkSealKeys) {
  let shared: Uint8Array<ArrayBuffer>;
  try {
    shared = new Uint8Array(x25519.getSharedSecret(keys.privateKey, fromBase64(keys.peerPublicKey, 32)));
  } catch (error) {
    // A low-order point gives the all-zero secret, which noble refuses.
    throw new DialError('invalid_data', { details: 'unusable link public key', cause: error });
  }
  try {
    const material = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
    return await crypto.subtle.deriveKey(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: new Uint8Array(0),
        info: new TextEncoder().encode(`dial device link share v1\n${keys.linkId}`),
      },
      material,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
  } finally {
    shared.fill(0);
  }
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Bytes as base64 (standard, padded): core's share encoding, which is any bytes'. */
const toBase64 = encodeShare;

/** Base64 (standard, padded) as bytes, of `length` when given; `invalid_data` otherwise. */
function fromBase64(text: string, length?: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(decodeShare(text));
  if (length !== undefined && bytes.length !== length) {
    throw new DialError('invalid_data', { details: `expected ${length} bytes, got ${bytes.length}` });
  }
  return bytes;
}
