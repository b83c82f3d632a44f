import { ristretto255_oprf } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import {
  blindRecoveryPassword,
  deriveRecoveryOprfKey,
  evaluateRecoveryOprf,
  finalizeRecoveryPassword,
  RECOVERY_OPRF_OUTPUT_LENGTH,
} from './recoveryOprf.js';

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const fromHex = (text: string) =>
  Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
const SEED = new Uint8Array(32).fill(0xa3);
const PASSWORD = 'plum orchard lantern 42';

/** Runs the whole protocol: the browser blinds, the server evaluates, the browser finalizes. */
function roundTrip(password: string, key: Uint8Array): Uint8Array {
  const { blind, blindedElement } = blindRecoveryPassword(password);
  return finalizeRecoveryPassword(password, blind, evaluateRecoveryOprf(key, blindedElement));
}

function expectInvalidData(run: () => unknown): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DialError);
  expect((caught as DialError).code).toBe('invalid_data');
}

describe('the recovery password OPRF (RFC 9497, ristretto255-SHA512, base mode)', () => {
  it("is RFC 9497's suite: appendix A.1.1's key and outputs", () => {
    // DeriveKeyPair(Seed, "test key"), then the appendix's two inputs (0x00 and 17 times 0x5a, which are
    // the passwords "\0" and "ZZZ…") through blind, evaluate and finalize: the blind does not change the output.
    const { secretKey } = ristretto255_oprf.oprf.deriveKeyPair(SEED, new TextEncoder().encode('test key'));
    expect(hex(secretKey)).toBe('5ebcea5ee37023ccb9fc2d2019f9d7737be85591ae8652ffa9ef0f4d37063b0e');
    expect(hex(roundTrip('\0', secretKey))).toBe(
      '527759c3d9366f277d8c6020418d96bb393ba2afb20ff90df23fb7708264e2f3ab9135e3bd69955851de4b1f9fe8a0973396719b7912ba9ee8aa7d0b5e24bcf6',
    );
    expect(hex(roundTrip('Z'.repeat(17), secretKey))).toBe(
      'f4a74c9c592497375e796aa837e907b1a045d34306a749db9f34221f7e750cb4f2a6413a6bf6fa5e19ba6348eb673934a722a7ede2e7621306d18951e7cf2c73',
    );
  });

  it('gives the same output for the same password and key, whatever the blind', () => {
    const key = deriveRecoveryOprfKey(SEED, 'user-1');
    const first = roundTrip(PASSWORD, key);
    expect(first).toHaveLength(RECOVERY_OPRF_OUTPUT_LENGTH);
    expect(roundTrip(PASSWORD, key)).toEqual(first);
    // NFKC: the same characters typed differently ("ﬁ" ligature) are the same password.
    expect(roundTrip('ﬁg orchard lantern 42', key)).toEqual(roundTrip('fig orchard lantern 42', key));
    expect(roundTrip(`${PASSWORD}!`, key)).not.toEqual(first);
  });

  it('blinds: the element sent differs every time and is not the hashed password', () => {
    const one = blindRecoveryPassword(PASSWORD).blindedElement;
    const two = blindRecoveryPassword(PASSWORD).blindedElement;
    expect(one).toHaveLength(32);
    expect(hex(one)).not.toBe(hex(two));
  });

  it('derives one key per user and per seed', () => {
    const output = roundTrip(PASSWORD, deriveRecoveryOprfKey(SEED, 'user-1'));
    expect(roundTrip(PASSWORD, deriveRecoveryOprfKey(SEED, 'user-2'))).not.toEqual(output);
    expect(roundTrip(PASSWORD, deriveRecoveryOprfKey(new Uint8Array(32).fill(1), 'user-1'))).not.toEqual(
      output,
    );
    expect(deriveRecoveryOprfKey(SEED, 'user-1')).toEqual(deriveRecoveryOprfKey(SEED, 'user-1'));
  });

  it.each([
    ['the identity', new Uint8Array(32)],
    ['a non-canonical encoding (2^255 - 18)', fromHex(`ed${'ff'.repeat(30)}7f`)],
    ['a negative field element', fromHex(`01${'00'.repeat(31)}`)],
    ['bytes that decode to no point', fromHex('ff'.repeat(32))],
    ['31 bytes', new Uint8Array(31).fill(2)],
    ['33 bytes', new Uint8Array(33).fill(2)],
    ['nothing', new Uint8Array(0)],
  ])('refuses %s as a blinded or an evaluated element with invalid_data', (_label, element) => {
    const key = deriveRecoveryOprfKey(SEED, 'user-1');
    expectInvalidData(() => evaluateRecoveryOprf(key, element));
    const { blind } = blindRecoveryPassword(PASSWORD);
    expectInvalidData(() => finalizeRecoveryPassword(PASSWORD, blind, element));
  });
});
