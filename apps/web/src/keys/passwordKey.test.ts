import { describe, expect, it } from 'vitest';
import {
  checkScryptCost,
  openWithPassword,
  protectWithPassword,
  SCRYPT_COST,
  SCRYPT_LIMITS,
} from './passwordKey';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PASSWORD = 'plum orchard lantern 42';
/** Any 64 bytes stand for the OPRF output here: these tests are about the scrypt parameters. */
const OPRF_OUTPUT = new Uint8Array(64).fill(9);

describe('scrypt parameters from the server', () => {
  it('accepts what Dial writes and the range around it', () => {
    expect(checkScryptCost(SCRYPT_COST)).toBeNull();
    expect(checkScryptCost({ N: SCRYPT_LIMITS.minN, r: 8, p: 1 })).toBeNull();
    expect(checkScryptCost({ N: SCRYPT_LIMITS.maxN, r: 16, p: 4 })).toBeNull();
  });

  it.each([
    ['N below 2^15', { N: 2 ** 14, r: 8, p: 1 }],
    ['N above 2^20', { N: 2 ** 21, r: 8, p: 1 }],
    ['N of 2^30', { N: 2 ** 30, r: 8, p: 1 }],
    ['N not a power of two', { N: 2 ** 16 + 1, r: 8, p: 1 }],
    ['r above 16', { N: 2 ** 15, r: 17, p: 1 }],
    ['r of 0', { N: 2 ** 15, r: 0, p: 1 }],
    ['p above 4', { N: 2 ** 15, r: 8, p: 5 }],
    ['p not an integer', { N: 2 ** 15, r: 8, p: 1.5 }],
  ])('refuses %s', (_label, cost) => {
    expect(checkScryptCost(cost)).toMatch(/out of range/);
  });

  it('refuses a tampered record before running scrypt, with a clear invalid_data error', async () => {
    const stored = await protectWithPassword(
      new Uint8Array(33).fill(1),
      ADDRESS,
      PASSWORD,
      OPRF_OUTPUT,
      undefined,
      {
        N: 2 ** 15,
        r: 8,
        p: 1,
      },
    );
    if (stored.kdf.name !== 'scrypt') throw new Error('expected scrypt');
    // Costs scrypt could run (slowly) but that Dial never writes, or an OPRF it does not know: refused, not
    // run, not "wrong password".
    for (const kdf of [
      { ...stored.kdf, r: 17 },
      { ...stored.kdf, p: 5 },
      { ...stored.kdf, N: 2 ** 14 },
      { ...stored.kdf, oprf: 'p256-sha256' as 'ristretto255-sha512' },
    ]) {
      const opened = openWithPassword({ ...stored, kdf }, ADDRESS, PASSWORD, OPRF_OUTPUT);
      await expect(opened).rejects.toMatchObject({ code: 'invalid_data' });
      await expect(opened).rejects.toThrow(/settings this app does not accept/);
    }
    // The untampered record still opens.
    await expect(openWithPassword(stored, ADDRESS, PASSWORD, OPRF_OUTPUT)).resolves.toEqual(
      new Uint8Array(33).fill(1),
    );
  });
});
