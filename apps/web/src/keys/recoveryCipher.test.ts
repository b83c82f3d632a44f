import {
  DialError,
  decodeShare,
  deriveRecoveryOprfKey,
  encodeShare,
  evaluateRecoveryOprf,
  SCRYPT_COST,
} from '@dial/core';
import { describe, expect, it } from 'vitest';
import type { PasskeyKdf, ProtectedRecoveryShare } from '../api/types';
import { openWithPrf, protectWithPrf } from './passkeyKey';
import { openWithPassword, protectWithPassword } from './passwordKey';
import { hardenPassword } from './passwordOprf';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const PASSWORD = 'correct horse battery staple';
/** The cheapest cost the server accepts: enough to test the format without waiting for 2^17 each time. */
const FAST = { N: 2 ** 15, r: 8, p: 1 };
/** This user's OPRF key, as the server derives it; the evaluation is the server route's own function. */
const OPRF_KEY = deriveRecoveryOprfKey(crypto.getRandomValues(new Uint8Array(32)), 'user-1');
const harden = (password: string) =>
  hardenPassword(password, async (blinded) => evaluateRecoveryOprf(OPRF_KEY, blinded));

async function protectFast(secret: Uint8Array, password: string): Promise<ProtectedRecoveryShare> {
  return protectWithPassword(secret, ADDRESS, password, await harden(password), undefined, FAST);
}

/** Opens as the app does: the OPRF output of the password typed, then scrypt. */
async function open(
  stored: ProtectedRecoveryShare,
  password: string,
  address = ADDRESS,
): Promise<Uint8Array> {
  return openWithPassword(stored, address, password, await harden(password));
}

function share(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(33));
}

async function expectWrongPassword(attempt: Promise<unknown>): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DialError);
  expect((error as DialError).code).toBe('wrong_recovery_password');
}

/** The same ciphertext with one bit flipped at `index` (counted from the start of iv ‖ ciphertext). */
function flipBit(stored: ProtectedRecoveryShare, index: number): ProtectedRecoveryShare {
  const bytes = decodeShare(stored.ciphertext);
  bytes[index] = (bytes[index] ?? 0) ^ 1;
  return { ...stored, ciphertext: encodeShare(bytes) };
}

describe('recovery password', () => {
  it('round-trips with the real cost (scrypt N=2^17, r=8, p=1), reporting progress up to 1', async () => {
    const secret = share();
    const progress: number[] = [];
    const stored = await protectWithPassword(secret, ADDRESS, PASSWORD, await harden(PASSWORD), (f) =>
      progress.push(f),
    );
    expect(stored.method).toBe('password');
    expect(stored.kdf).toEqual({
      name: 'scrypt',
      ...SCRYPT_COST,
      salt: expect.any(String),
      oprf: 'ristretto255-sha512',
    });
    expect(decodeShare((stored.kdf as { salt: string }).salt)).toHaveLength(16);
    // iv (12) + share (33) + tag (16), and the share is not in it in the clear.
    expect(decodeShare(stored.ciphertext)).toHaveLength(12 + 33 + 16);
    expect(stored.ciphertext).not.toContain(encodeShare(secret));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(1);

    await expect(openWithPassword(stored, ADDRESS, PASSWORD, await harden(PASSWORD))).resolves.toEqual(
      secret,
    );
  }, 30_000);

  it('uses a new salt and IV each time, so the same share and password never give the same ciphertext', async () => {
    const secret = share();
    const a = await protectFast(secret, PASSWORD);
    const b = await protectFast(secret, PASSWORD);
    expect((a.kdf as { salt: string }).salt).not.toBe((b.kdf as { salt: string }).salt);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('refuses a wrong password with wrong_recovery_password', async () => {
    const stored = await protectFast(share(), PASSWORD);
    await expectWrongPassword(open(stored, 'correct horse battery stapler'));
    await expectWrongPassword(open(stored, ''));
  });

  it('normalizes the password (NFKC): the same characters typed differently unlock it', async () => {
    const secret = share();
    const stored = await protectFast(secret, 'ｐａｓｓｗｏｒｄ１２３４');
    await expect(open(stored, 'password1234')).resolves.toEqual(secret);
  });

  it('refuses a tampered ciphertext, IV or tag', async () => {
    const stored = await protectFast(share(), PASSWORD);
    await expectWrongPassword(open(flipBit(stored, 0), PASSWORD)); // IV
    await expectWrongPassword(open(flipBit(stored, 20), PASSWORD)); // ciphertext
    await expectWrongPassword(open(flipBit(stored, 12 + 33 + 15), PASSWORD)); // tag
    await expectWrongPassword(open({ ...stored, ciphertext: stored.ciphertext.slice(0, 16) }, PASSWORD));
  });

  it('binds the ciphertext to the wallet address (additional data): another wallet cannot use it', async () => {
    const secret = share();
    const stored = await protectFast(secret, PASSWORD);
    await expectWrongPassword(open(stored, PASSWORD, OTHER_ADDRESS));
    // The address's case does not matter (EIP-55 or lower-case).
    await expect(open(stored, PASSWORD, ADDRESS.toLowerCase())).resolves.toEqual(secret);
  });

  it('does not take a changed salt or cost: the key would differ', async () => {
    const stored = await protectFast(share(), PASSWORD);
    await expectWrongPassword(
      open({ ...stored, kdf: { ...stored.kdf, N: 2 ** 16 } as typeof stored.kdf }, PASSWORD),
    );
    const salt = encodeShare(new Uint8Array(16).fill(7));
    await expectWrongPassword(
      open({ ...stored, kdf: { ...stored.kdf, salt } as typeof stored.kdf }, PASSWORD),
    );
  });
});

describe('recovery passkey (PRF output → HKDF → AES-GCM)', () => {
  const kdf: PasskeyKdf = {
    name: 'webauthn-prf',
    credentialId: 'AbC-_123',
    salt: encodeShare(crypto.getRandomValues(new Uint8Array(32))),
  };
  const prf = () => crypto.getRandomValues(new Uint8Array(32)).buffer;

  it('round-trips with the same PRF output and refuses another one', async () => {
    const secret = share();
    const output = prf();
    const stored = await protectWithPrf(secret, ADDRESS, output, kdf);
    expect(stored).toMatchObject({ method: 'passkey', kdf });
    await expect(openWithPrf(stored, ADDRESS, output)).resolves.toEqual(secret);
    await expectWrongPassword(openWithPrf(stored, ADDRESS, prf()));
  });

  it('binds to the address and to the method', async () => {
    const output = prf();
    const stored = await protectWithPrf(share(), ADDRESS, output, kdf);
    await expectWrongPassword(openWithPrf(stored, OTHER_ADDRESS, output));
    await expectWrongPassword(openWithPrf(flipBit(stored, 30), ADDRESS, output));
    // The same HKDF salt with another PRF salt recorded: a different key.
    const moved = { ...stored, kdf: { ...kdf, salt: encodeShare(new Uint8Array(32)) } };
    await expectWrongPassword(openWithPrf(moved, ADDRESS, output));
  });
});
