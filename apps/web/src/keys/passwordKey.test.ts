import { describe, expect, it } from 'vitest';
import { openWithPassword, protectWithPassword } from './passwordKey';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PASSWORD = 'plum orchard lantern 42';
/** Any 64 bytes stand for the OPRF output here: these tests are about the scrypt parameters. */
const OPRF_OUTPUT = new Uint8Array(64).fill(9);

describe('scrypt parameters from the server', () => {
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
