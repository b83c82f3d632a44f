import { describe, expect, it } from 'vitest';
import {
  deviceAdditionalData,
  type HeldDevice,
  newDeviceSecret,
  openDevice,
  openPendingDevice,
  sealDevice,
  sealPendingDevice,
  secretHashOf,
} from './deviceRecords';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DEVICE_ID = '2b1f0c3e-6d1a-4c52-9a0e-4f3a2d1c0b9e';
const OTHER_ID = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

const newKey = () =>
  crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

async function device(): Promise<HeldDevice> {
  const { secret } = await newDeviceSecret();
  return {
    deviceId: DEVICE_ID,
    address: ADDRESS,
    secret,
    heldShare: crypto.getRandomValues(new Uint8Array(33)),
  };
}

describe('a device secret', () => {
  it('is 32 random bytes in base64url without padding, with the SHA-256 of those bytes in hex', async () => {
    const { secret, secretHash } = await newDeviceSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secretHash).toMatch(/^[0-9a-f]{64}$/);
    const bytes = Uint8Array.from(atob(secret.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    expect(secretHash).toBe(Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''));
    await expect(secretHashOf(secret)).resolves.toBe(secretHash);
    expect((await newDeviceSecret()).secret).not.toBe(secret);
  });
});

describe('a sealed device', () => {
  it('opens to the same id, address, secret and held share for its user, with neither in clear', async () => {
    const key = await newKey();
    const held = await device();
    const sealed = await sealDevice(key, 'user-1', held);
    expect(sealed).toMatchObject({ deviceId: DEVICE_ID, address: ADDRESS });
    expect(Object.keys(sealed).sort()).toEqual(['address', 'ciphertext', 'deviceId', 'iv']);
    await expect(openDevice(key, 'user-1', sealed)).resolves.toEqual(held);
  });

  it('does not open for another user, as another device or wallet, under another key, or tampered with', async () => {
    const key = await newKey();
    const sealed = await sealDevice(key, 'user-1', await device());
    await expect(openDevice(key, 'user-2', sealed)).resolves.toBeNull();
    await expect(openDevice(key, 'user-1', { ...sealed, deviceId: OTHER_ID })).resolves.toBeNull();
    await expect(
      openDevice(key, 'user-1', { ...sealed, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
    ).resolves.toBeNull();
    await expect(openDevice(await newKey(), 'user-1', sealed)).resolves.toBeNull();
    const flipped = new Uint8Array(sealed.ciphertext.slice(0));
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    await expect(openDevice(key, 'user-1', { ...sealed, ciphertext: flipped.buffer })).resolves.toBeNull();
  });

  it('binds the user, the device and the address (case aside) as additional data', () => {
    const text = new TextDecoder().decode(deviceAdditionalData('user-1', DEVICE_ID, ADDRESS));
    expect(JSON.parse(text)).toEqual(['dial-device', 1, 'user-1', DEVICE_ID, ADDRESS.toLowerCase()]);
  });

  it('refuses a secret or share of the wrong length', async () => {
    const key = await newKey();
    const held = await device();
    await expect(sealDevice(key, 'u', { ...held, heldShare: new Uint8Array(32) })).rejects.toThrow();
    await expect(sealDevice(key, 'u', { ...held, secret: 'AAAA' })).rejects.toThrow();
  });
});

describe('a pending device', () => {
  it('opens for its user and secret hash only', async () => {
    const key = await newKey();
    const { secret, secretHash } = await newDeviceSecret();
    const pending = { address: ADDRESS, secret, secretHash, heldShare: new Uint8Array(33).fill(7) };
    const sealed = await sealPendingDevice(key, 'user-1', pending);
    await expect(openPendingDevice(key, 'user-1', sealed)).resolves.toEqual(pending);
    await expect(openPendingDevice(key, 'user-2', sealed)).resolves.toBeNull();
    const other = await newDeviceSecret();
    await expect(
      openPendingDevice(key, 'user-1', { ...sealed, secretHash: other.secretHash }),
    ).resolves.toBeNull();
  });
});
