import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { sweepExpiredRows } from '../src/db/sweepExpiredRows.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';
import {
  registerWallet,
  signedEnrollment,
  type TestDevice,
  testDevice,
  testWallet,
  unlockDevice,
} from './walletProof.js';

const WALLET = testWallet(1);
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** A code as shown: two groups of four characters of core's `LINK_CODE_ALPHABET`. */
/** A well-formed code (of the alphabet) that the tests' links are, in all likelihood (25^-8), not. */
const GUESS = 'CCCC-CCCC';
const CODE = /^[ACDEFGHJKMNPQRTUVWXY34679]{4}-[ACDEFGHJKMNPQRTUVWXY34679]{4}$/;

/** An X25519 public key's shape: 32 bytes, base64. */
function publicKey(): string {
  return randomBytes(32).toString('base64');
}

/** A sealed share's shape: nonce and ciphertext, base64. */
function sealedShare(): string {
  return randomBytes(61).toString('base64');
}

/** The owner's browser (a device of the wallet) and a second session of the same account (the new browser). */
async function twoBrowsers(t: TestApp) {
  const { token: ownerToken } = await t.signIn('sms', PHONE);
  expect((await registerWallet(t, ownerToken, { wallet: WALLET })).response.statusCode).toBe(201);
  const { token: newToken } = await t.signIn('sms', PHONE);
  return { ownerToken, newToken };
}

async function createLink(t: TestApp, token: string) {
  const response = await t.post(
    '/api/wallet/links',
    { publicKey: publicKey() },
    { token, headers: { 'user-agent': CHROME_MAC } },
  );
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; code: string; expiresAt: string };
}

function claim(t: TestApp, token: string, code: string, device: TestDevice, ip?: string) {
  return t.post(
    '/api/wallet/links/claim',
    { code, publicKey: publicKey(), secretHash: device.secretHash },
    { token, headers: { 'user-agent': SAFARI_IPHONE }, ...(ip === undefined ? {} : { ip }) },
  );
}

/** Confirms a link with `device`, the proof signed for `signedFor` (the same device unless a test swaps it). */
async function confirm(t: TestApp, token: string, id: string, device: TestDevice, signedFor = device) {
  const body = await signedEnrollment(t, token, WALLET, signedFor);
  return t.post(
    `/api/wallet/links/${id}/confirm`,
    {
      ...body,
      device: { authShare: device.authShare, secretHash: device.secretHash },
      sealedShare: sealedShare(),
    },
    { token },
  );
}

function expectNotFound(response: { statusCode: number; json(): { error: { code: string } } }) {
  expect(response.statusCode).toBe(404);
  expect(response.json().error.code).toBe('device_link_not_found');
}

describe.each(DIALECTS)('linking a device by QR code on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('links a new browser: code, claim, the other side’s key, confirmation, and the sealed share to the new browser only', async () => {
    const t = await createTestApp(db());
    const { ownerToken, newToken } = await twoBrowsers(t);
    const link = await createLink(t, ownerToken);
    expect(link.code).toMatch(CODE);
    expect(link.expiresAt).toBe(new Date(t.clock.now().getTime() + 5 * 60_000).toISOString());
    expect(JSON.stringify(await db().selectFrom('wallet_links').selectAll().execute())).not.toContain(
      link.code.replace('-', ''),
    );

    const device = testDevice();
    // Typed in lower case with spaces, as a person might.
    const claimed = await claim(t, newToken, ` ${link.code.toLowerCase().replace('-', ' ')} `, device);
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json()).toEqual({
      id: link.id,
      ownerPublicKey: expect.any(String),
      ownerName: 'Chrome on macOS',
      expiresAt: link.expiresAt,
    });

    const seen = (await t.get(`/api/wallet/links/${link.id}`, { token: ownerToken })).json();
    expect(seen).toMatchObject({
      state: 'claimed',
      claimant: { secretHash: device.secretHash, name: 'Safari on iPhone' },
      sealedShare: null,
      device: null,
    });

    const sealed = sealedShare();
    const body = await signedEnrollment(t, ownerToken, WALLET, device);
    const confirmed = await t.post(
      `/api/wallet/links/${link.id}/confirm`,
      { ...body, sealedShare: sealed },
      { token: ownerToken },
    );
    expect(confirmed.statusCode).toBe(200);
    const made = confirmed.json().device;
    expect(made).toMatchObject({ name: 'Safari on iPhone', how: 'linked' });

    // The owner sees it confirmed, but never the sealed share; the new browser gets it with its device.
    expect((await t.get(`/api/wallet/links/${link.id}`, { token: ownerToken })).json()).toMatchObject({
      state: 'confirmed',
      sealedShare: null,
      device: null,
    });
    expect((await t.get(`/api/wallet/links/${link.id}`, { token: newToken })).json()).toMatchObject({
      state: 'confirmed',
      sealedShare: sealed,
      device: made,
    });
    // The new browser opens the wallet with its own secret; the old one still does with its own.
    expect((await unlockDevice(t, newToken, made.id, device.secret)).json().authShare).toBe(device.authShare);
    expect((await t.get('/api/wallet', { token: ownerToken })).json().devices).toBe(2);
    const notices = (await t.get('/api/account/notices', { token: ownerToken })).json().notices;
    expect(notices[0]).toMatchObject({
      kind: 'device-enrolled',
      summary: 'Safari on iPhone, linked from another device',
    });
  });

  it('cannot be claimed from another account, twice, after expiry, by the creating session, or with a wrong code', async () => {
    const t = await createTestApp(db());
    const { ownerToken, newToken } = await twoBrowsers(t);
    const link = await createLink(t, ownerToken);
    const { token: eve } = await t.signIn('email', 'eve@example.com');
    expectNotFound(await claim(t, eve, link.code, testDevice()));
    expectNotFound(await claim(t, ownerToken, link.code, testDevice()));
    // A well-formed code that no link has.
    expectNotFound(
      await claim(t, newToken, link.code === 'ACDE-FGHJ' ? 'CDEF-GHJK' : 'ACDE-FGHJ', testDevice()),
    );
    // Look-alikes are not in the alphabet: no code has them.
    expectNotFound(await claim(t, newToken, 'ABCD-EFG0', testDevice()));
    expect((await claim(t, newToken, link.code, testDevice())).statusCode).toBe(200);
    const { token: third } = await t.signIn('sms', PHONE);
    expectNotFound(await claim(t, third, link.code, testDevice()));
    expectNotFound(await claim(t, newToken, link.code, testDevice()));

    const late = await createLink(t, ownerToken);
    t.clock.advance(5 * 60_000);
    expectNotFound(await claim(t, newToken, late.code, testDevice()));
    expect((await t.get(`/api/wallet/links/${late.id}`, { token: ownerToken })).json().state).toBe('expired');
  });

  it('shows a link to its two sessions only', async () => {
    const t = await createTestApp(db());
    const { ownerToken, newToken } = await twoBrowsers(t);
    const link = await createLink(t, ownerToken);
    // Before its claim, the new browser's session is a stranger to it too.
    expectNotFound(await t.get(`/api/wallet/links/${link.id}`, { token: newToken }));
    await claim(t, newToken, link.code, testDevice());
    const { token: third } = await t.signIn('sms', PHONE);
    const { token: eve } = await t.signIn('email', 'eve@example.com');
    for (const token of [third, eve]) {
      expectNotFound(await t.get(`/api/wallet/links/${link.id}`, { token }));
      expectNotFound(await t.post(`/api/wallet/links/${link.id}/cancel`, undefined, { token }));
    }
    expect((await t.get(`/api/wallet/links/${link.id}`, { token: newToken })).statusCode).toBe(200);
  });

  it('refuses a confirmation before the claim, by the claimant or another session, with another secret hash, after expiry or cancellation', async () => {
    const t = await createTestApp(db());
    const { ownerToken, newToken } = await twoBrowsers(t);
    const device = testDevice();
    const link = await createLink(t, ownerToken);

    const early = await confirm(t, ownerToken, link.id, device);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('device_link_not_claimed');
    await claim(t, newToken, link.code, device);

    // The claimant cannot confirm itself (it has no key to prove anyway), nor can any other session.
    expectNotFound(await confirm(t, newToken, link.id, device));
    const { token: third } = await t.signIn('sms', PHONE);
    expectNotFound(await confirm(t, third, link.id, device));

    // A device with another secret than the claimant's (a swapped device): 400 invalid_data, before the proof.
    const swapped = testDevice();
    const wrongHash = await confirm(t, ownerToken, link.id, swapped);
    expect(wrongHash.statusCode).toBe(400);
    expect(wrongHash.json().error.code).toBe('invalid_data');
    // Signed for another device than the one sent (the claimant's hash, another share): the proof fails.
    const mismatch = await confirm(t, ownerToken, link.id, device, {
      ...device,
      authShare: swapped.authShare,
    });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().error.code).toBe('wallet_proof_invalid');
    expect(await db().selectFrom('wallet_devices').selectAll().execute()).toHaveLength(1);

    t.clock.advance(5 * 60_000);
    expectNotFound(await confirm(t, ownerToken, link.id, device));

    const cancelled = await createLink(t, ownerToken);
    const other = testDevice();
    await claim(t, newToken, cancelled.code, other);
    const cancel = await t.post(`/api/wallet/links/${cancelled.id}/cancel`, undefined, { token: newToken });
    expect(cancel.json()).toEqual({ state: 'cancelled' });
    expectNotFound(await confirm(t, ownerToken, cancelled.id, other));
    expect(await db().selectFrom('wallet_devices').selectAll().execute()).toHaveLength(1);
  });

  it('cancels a waiting link from its creating session: it can no longer be claimed', async () => {
    const t = await createTestApp(db());
    const { ownerToken, newToken } = await twoBrowsers(t);
    const link = await createLink(t, ownerToken);
    const cancel = await t.post(`/api/wallet/links/${link.id}/cancel`, undefined, { token: ownerToken });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toEqual({ state: 'cancelled' });
    expectNotFound(await claim(t, newToken, link.code, testDevice()));
  });

  it('refuses a link to a user without a wallet', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.post('/api/wallet/links', { publicKey: publicKey() }, { token });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('wallet_not_found');
  });

  it('counts every claim per user and per IP address, so codes cannot be guessed', async () => {
    const t = await createTestApp(db());
    const { ownerToken, newToken } = await twoBrowsers(t);
    const link = await createLink(t, ownerToken);
    for (let i = 0; i < RATE_LIMITS.deviceLinkClaimsPerUser.max; i++) {
      expectNotFound(await claim(t, newToken, GUESS, testDevice()));
    }
    // Even the right code now waits: the guesses spent the budget.
    const limited = await claim(t, newToken, link.code, testDevice());
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('too_many_requests');

    // Across accounts from one address: the per-IP budget.
    const ip = '198.51.100.7';
    let answered = 0;
    for (let user = 0; answered < RATE_LIMITS.deviceLinkClaimsPerIp.max; user++) {
      const { token } = await t.signIn('email', `guess${user}@example.com`);
      for (let i = 0; i < 10 && answered < RATE_LIMITS.deviceLinkClaimsPerIp.max; i++, answered++) {
        expectNotFound(await claim(t, token, GUESS, testDevice(), ip));
      }
    }
    const { token: fresh } = await t.signIn('email', 'fresh@example.com');
    expect((await claim(t, fresh, GUESS, testDevice(), ip)).statusCode).toBe(429);
  });

  it('sweeps links an hour past their expiry', async () => {
    const t = await createTestApp(db());
    const { ownerToken } = await twoBrowsers(t);
    const link = await createLink(t, ownerToken);
    t.clock.advance(5 * 60_000 + 59 * 60_000);
    await sweepExpiredRows(db(), t.clock.now(), t.config);
    expect(await db().selectFrom('wallet_links').select('id').execute()).toEqual([{ id: link.id }]);
    t.clock.advance(60_000);
    await sweepExpiredRows(db(), t.clock.now(), t.config);
    expect(await db().selectFrom('wallet_links').select('id').execute()).toEqual([]);
  });
});
