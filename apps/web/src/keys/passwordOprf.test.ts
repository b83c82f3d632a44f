import {
  DialError,
  decodeShare,
  deriveRecoveryOprfKey,
  encodeShare,
  evaluateRecoveryOprf,
  isDialError,
} from '@dial/core';
import { scryptAsync } from '@noble/hashes/scrypt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProtectedRecoveryShare, ScryptKdf } from '../api/types';
import { derivePasswordKey, openWithPassword, protectWithPassword } from './passwordKey';
import { type EvaluateBlinded, hardenPassword } from './passwordOprf';
import { decryptRecoveryShare, encryptRecoveryShare, importAesKey } from './recoveryCipher';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PASSWORD = 'plum orchard lantern 42';
const FAST = { N: 2 ** 15, r: 8, p: 1 };

/** The server's evaluation under `key`: the very function `POST /api/wallet/recovery/oprf` runs. */
const evaluateUnder =
  (key: Uint8Array): EvaluateBlinded =>
  async (blinded) =>
    evaluateRecoveryOprf(key, blinded);
const SERVER_KEY = deriveRecoveryOprfKey(crypto.getRandomValues(new Uint8Array(32)), 'user-1');
const server = evaluateUnder(SERVER_KEY);

function share(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(33));
}

async function rejection(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => {
      throw new Error('expected a rejection');
    },
    (reason: unknown) => reason,
  );
}

async function expectWrongPassword(attempt: Promise<unknown>): Promise<void> {
  const error = await rejection(attempt);
  expect(error).toBeInstanceOf(DialError);
  expect((error as DialError).code).toBe('wrong_recovery_password');
}

/** An AES key from `material` by the app's HKDF construction, as an attacker missing one half would try. */
async function hkdfKey(material: Uint8Array, salt: string): Promise<CryptoKey> {
  const secret = await crypto.subtle.importKey('raw', new Uint8Array(material), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(decodeShare(salt)),
      info: new TextEncoder().encode('dial-recovery-share/password-oprf/1'),
    },
    secret,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  );
}

/** A recovery share as Dial wrote it before the OPRF: scrypt's output is the key, no `oprf` in the record. */
async function protectBeforeOprf(secret: Uint8Array, password: string): Promise<ProtectedRecoveryShare> {
  const kdf: ScryptKdf = {
    name: 'scrypt',
    ...FAST,
    salt: encodeShare(crypto.getRandomValues(new Uint8Array(16))),
  };
  const key = await derivePasswordKey(password, kdf, null);
  return {
    method: 'password',
    kdf,
    ciphertext: await encryptRecoveryShare(secret, key, 'password', ADDRESS),
  };
}

describe('a stolen recovery record (what the database holds) with the right password', () => {
  it('cannot be opened by scrypt alone, nor by the OPRF alone: only by both, so an offline guess cannot be checked', async () => {
    const secret = share();
    const written = await protectWithPassword(
      secret,
      ADDRESS,
      PASSWORD,
      await hardenPassword(PASSWORD, server),
      undefined,
      FAST,
    );
    // Exactly what the server stores and a thief copies: the ciphertext and the KDF record, as JSON.
    const stolen = JSON.parse(JSON.stringify(written)) as ProtectedRecoveryShare;
    if (stolen.kdf.name !== 'scrypt') throw new Error('expected scrypt');
    expect(stolen.kdf.oprf).toBe('ristretto255-sha512');

    // scrypt of the RIGHT password with the stored parameters, the whole of the old scheme's key: it fails.
    const scryptOutput = await scryptAsync(PASSWORD, decodeShare(stolen.kdf.salt), { ...FAST, dkLen: 32 });
    await expectWrongPassword(
      decryptRecoveryShare(
        stolen.ciphertext,
        await importAesKey(new Uint8Array(scryptOutput)),
        'password',
        ADDRESS,
      ),
    );
    await expectWrongPassword(
      decryptRecoveryShare(
        stolen.ciphertext,
        await hkdfKey(scryptOutput, stolen.kdf.salt),
        'password',
        ADDRESS,
      ),
    );
    // The record with its marker dropped (read as an old one) does not open either.
    const { oprf: _marker, ...scryptOnly } = stolen.kdf;
    await expectWrongPassword(openWithPassword({ ...stolen, kdf: scryptOnly }, ADDRESS, PASSWORD, null));
    // The app will not even try without the server's evaluation.
    expect(await rejection(openWithPassword(stolen, ADDRESS, PASSWORD, null))).toMatchObject({
      code: 'invalid_data',
    });
    // Guessing the server's half: zeros, or the OPRF under another server's (or user's) key.
    await expectWrongPassword(openWithPassword(stolen, ADDRESS, PASSWORD, new Uint8Array(64)));
    const otherKey = deriveRecoveryOprfKey(crypto.getRandomValues(new Uint8Array(32)), 'user-1');
    const otherOutput = await hardenPassword(PASSWORD, evaluateUnder(otherKey));
    await expectWrongPassword(openWithPassword(stolen, ADDRESS, PASSWORD, otherOutput));
    // The server's half alone (what a malicious server computes without the scrypt work): it fails too.
    const oprfOutput = await hardenPassword(PASSWORD, server);
    await expectWrongPassword(
      decryptRecoveryShare(
        stolen.ciphertext,
        await hkdfKey(oprfOutput, stolen.kdf.salt),
        'password',
        ADDRESS,
      ),
    );

    // With the server's evaluation of the right password, and scrypt, it opens.
    await expect(openWithPassword(stolen, ADDRESS, PASSWORD, oprfOutput)).resolves.toEqual(secret);
    // With the server's evaluation of a wrong password it does not: each guess costs one evaluation.
    const guess = await hardenPassword('plum orchard lantern 43', server);
    await expectWrongPassword(openWithPassword(stolen, ADDRESS, 'plum orchard lantern 43', guess));
  });
});

describe('recovery records written before the OPRF', () => {
  it('still open with the right password (scrypt alone) and refuse a wrong one', async () => {
    const secret = share();
    const old = JSON.parse(
      JSON.stringify(await protectBeforeOprf(secret, PASSWORD)),
    ) as ProtectedRecoveryShare;
    expect(old.kdf).not.toHaveProperty('oprf');
    await expect(openWithPassword(old, ADDRESS, PASSWORD, null)).resolves.toEqual(secret);
    // An OPRF output the caller happens to hold is not mixed into an old record's key.
    await expect(openWithPassword(old, ADDRESS, PASSWORD, new Uint8Array(64).fill(3))).resolves.toEqual(
      secret,
    );
    await expectWrongPassword(openWithPassword(old, ADDRESS, 'plum orchard lantern 43', null));
  });
});

describe('hardenPassword', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends only the blinded element to POST /api/wallet/recovery/oprf and finalizes the answer', async () => {
    const sent: string[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
      expect(`${init?.method} ${String(input)}`).toBe('POST /api/wallet/recovery/oprf');
      const body = JSON.parse(String(init?.body)) as { blindedElement: string };
      expect(Object.keys(body)).toEqual(['blindedElement']);
      sent.push(body.blindedElement);
      const evaluatedElement = encodeShare(
        evaluateRecoveryOprf(SERVER_KEY, decodeShare(body.blindedElement)),
      );
      return new Response(JSON.stringify({ evaluatedElement }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetch);
    const output = await hardenPassword(PASSWORD);
    expect(output).toEqual(await hardenPassword(PASSWORD, server));
    await hardenPassword(PASSWORD);
    // Blinded anew each time: the server cannot even tell that the same password came twice.
    expect(sent).toHaveLength(2);
    expect(sent[0]).not.toBe(sent[1]);
    for (const element of sent) expect(element).not.toContain(PASSWORD);
  });

  it('passes on the server refusing past the hour’s tries, with the wait', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof globalThis.fetch>(
        async () =>
          new Response(JSON.stringify(new DialError('too_many_requests').toBody()), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '1200' },
          }),
      ),
    );
    const error = await rejection(hardenPassword(PASSWORD));
    expect(isDialError(error, 'too_many_requests')).toBe(true);
    expect((error as DialError).retryAfterSeconds).toBe(1200);
  });

  it('refuses an answer that is not a valid element with invalid_data', async () => {
    const error = await rejection(hardenPassword(PASSWORD, async () => new Uint8Array(32)));
    expect(isDialError(error, 'invalid_data')).toBe(true);
  });
});
