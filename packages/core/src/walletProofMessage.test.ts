import { describe, expect, it } from 'vitest';
import { hashRecoveryShare, type WalletProofFields, walletProofMessage } from './walletProofMessage.js';

const FIELDS: WalletProofFields = {
  purpose: 'rotate-shares',
  challenge: 'c2FtcGxlLWNoYWxsZW5nZQ',
  userId: '6f1c1a3e-3d2b-4a57-9a41-0c1f2b3d4e5f',
  address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
  fromGeneration: 3,
  authShare: new Uint8Array(33).fill(7),
  recovery: { method: 'password', ciphertext: 'AAAA', kdf: { name: 'scrypt', N: 131072, r: 8, p: 1 } },
  device: null,
};

const DEVICE = { authShare: new Uint8Array(33).fill(9), secretHash: 'ab'.repeat(32) };

describe('walletProofMessage', () => {
  it('names the action, the address, the account, the generation, both share hashes and the challenge', () => {
    const lines = walletProofMessage(FIELDS).split('\n');
    expect(lines[0]).toBe('Dial wallet key proof');
    expect(lines).toContain('Action: rotate-shares');
    expect(lines).toContain('Address: 0x8ba1f109551bd432803012645ac136ddd64dba72');
    expect(lines).toContain(`Account: ${FIELDS.userId}`);
    expect(lines).toContain('Replaces generation: 3');
    expect(lines).toContain(`Challenge: ${FIELDS.challenge}`);
    expect(lines.find((line) => line.startsWith('Auth share: '))).toMatch(/^Auth share: [0-9a-f]{64}$/);
    expect(lines).toContain(`Recovery share: ${hashRecoveryShare(FIELDS.recovery!)}`);
    expect(lines).toContain('Device: none');
  });

  it("names an enrolled device's auth share hash and secret hash, and no recovery pair share", () => {
    const lines = walletProofMessage({
      ...FIELDS,
      purpose: 'enroll-device',
      authShare: null,
      recovery: null,
      device: DEVICE,
    }).split('\n');
    expect(lines).toContain('Action: enroll-device');
    expect(lines).toContain('Auth share: none');
    expect(lines.find((line) => line.startsWith('Device: '))).toMatch(
      new RegExp(`^Device: [0-9a-f]{64} ${DEVICE.secretHash}$`),
    );
  });

  it('changes with every bound field', () => {
    const base = walletProofMessage(FIELDS);
    const variants: Partial<WalletProofFields>[] = [
      { purpose: 'register-wallet' },
      { challenge: 'other' },
      { userId: '00000000-0000-4000-8000-000000000000' },
      { address: '0x0000000000000000000000000000000000000001' },
      { fromGeneration: 4 },
      { authShare: new Uint8Array(33).fill(8) },
      { recovery: null },
      { recovery: { ...FIELDS.recovery!, ciphertext: 'AAAB' } },
      { recovery: { ...FIELDS.recovery!, kdf: { name: 'scrypt', N: 32768, r: 8, p: 1 } } },
      { purpose: 'enroll-device' },
      { authShare: null },
      { device: DEVICE },
      { device: { ...DEVICE, authShare: new Uint8Array(33).fill(10) } },
    ];
    for (const variant of variants) {
      expect(walletProofMessage({ ...FIELDS, ...variant })).not.toBe(base);
    }
    const withDevice = walletProofMessage({ ...FIELDS, device: DEVICE });
    expect(walletProofMessage({ ...FIELDS, device: { ...DEVICE, secretHash: 'cd'.repeat(32) } })).not.toBe(
      withDevice,
    );
  });

  it('hashes a recovery record the same whatever the order of its keys', () => {
    const a = hashRecoveryShare({ method: 'password', ciphertext: 'AAAA', kdf: { r: 8, N: 2, salt: 's' } });
    const b = hashRecoveryShare({ kdf: { salt: 's', N: 2, r: 8 }, ciphertext: 'AAAA', method: 'password' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(
      hashRecoveryShare({ method: 'password', ciphertext: 'AAAA', kdf: { r: 8, N: 2, salt: 't' } }),
    ).not.toBe(a);
  });
});
