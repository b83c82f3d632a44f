import { randomBytes } from 'node:crypto';
import { encodeShare, SHARE_LENGTH } from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, type RequestOptions, type TestApp } from './testApp.js';
import { registerWallet, testWallet } from './walletProof.js';

const ADDRESS = testWallet(1).address;
const OTHER_PHONE = '+447400123457';

function lookup(t: TestApp, phone: string, options?: RequestOptions): Promise<LightMyRequestResponse> {
  const url = new URL('/api/users/lookup', 'http://localhost');
  url.searchParams.set('phone', phone);
  return t.get(`${url.pathname}${url.search}`, options);
}

/** A recipient: a phone user with a wallet. */
async function recipient(t: TestApp): Promise<void> {
  const { token } = await t.signIn('sms', PHONE);
  const authShare = encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
  expect((await registerWallet(t, token, { authShare })).response.statusCode).toBe(201);
}

describe.each(DIALECTS)('the phone look-up on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it.each([
    ['E.164', PHONE],
    ['as typed, with spaces', '+44 7400 123456'],
    ['as typed, with 00 and dashes', '0044-7400-123-456'],
  ])(
    'finds the wallet of a verified number given %s: the address and the masked number only',
    async (_name, typed) => {
      const t = await createTestApp(db());
      await recipient(t);
      const sender = await t.signIn('email', 'ada@example.com');
      const response = await lookup(t, typed, { token: sender.token });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ address: ADDRESS, phone: '*3456' });
    },
  );

  it('answers 404 recipient_not_found for a number no Dial user verified', async () => {
    const t = await createTestApp(db());
    await recipient(t);
    const sender = await t.signIn('email', 'ada@example.com');
    expectError(await lookup(t, OTHER_PHONE, { token: sender.token }), 404, 'recipient_not_found');
  });

  it('answers the same 404 for a user who has no wallet yet', async () => {
    const t = await createTestApp(db());
    await t.signIn('sms', OTHER_PHONE);
    const sender = await t.signIn('email', 'ada@example.com');
    expectError(await lookup(t, OTHER_PHONE, { token: sender.token }), 404, 'recipient_not_found');
  });

  it('does not find a wallet by an e-mail account’s address', async () => {
    const t = await createTestApp(db());
    const emailUser = await t.signIn('email', 'bob@example.com');
    const authShare = encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
    await registerWallet(t, emailUser.token, { authShare });
    expectError(await lookup(t, 'bob@example.com', { token: emailUser.token }), 400, 'invalid_phone');
  });

  it.each([
    ['letters', 'call me'],
    ['too short a number', '+44123'],
    ['too many digits', '+4474001234567890'],
    ['a number of no country', '+800 1234 5678'],
  ])('refuses %s with 400 invalid_phone', async (_name, typed) => {
    const t = await createTestApp(db());
    const sender = await t.signIn('email', 'ada@example.com');
    expectError(await lookup(t, typed, { token: sender.token }), 400, 'invalid_phone');
  });

  it('refuses a national number, read in no country, as sign-in refuses it: 400 invalid_phone', async () => {
    const t = await createTestApp(db());
    // An American number with a wallet: a national number read as American (as before) would find it.
    const { token } = await t.signIn('sms', '+12015550123');
    const authShare = encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
    expect((await registerWallet(t, token, { authShare })).response.statusCode).toBe(201);
    const sender = await t.signIn('email', 'ada@example.com');
    expect((await lookup(t, '+1 201 555 0123', { token: sender.token })).statusCode).toBe(200);
    for (const typed of ['(201) 555-0123', '2015550123', '07400 123456']) {
      const found = await lookup(t, typed, { token: sender.token });
      const signIn = await t.post('/api/auth/otp/start', { channel: 'sms', to: typed });
      expectError(found, 400, 'invalid_phone');
      expectError(signIn, 400, 'invalid_phone');
      expect(found.json()).toEqual(signIn.json());
    }
  });

  it('refuses a missing or empty phone parameter with 400 invalid_data', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', 'ada@example.com');
    expectError(await t.get('/api/users/lookup', { token }), 400, 'invalid_data');
    expectError(await t.get('/api/users/lookup?phone=', { token }), 400, 'invalid_data');
  });

  it('answers 401 when signed out', async () => {
    const t = await createTestApp(db());
    await recipient(t);
    expectError(await lookup(t, PHONE), 401, 'unauthorized');
  });

  it('refuses a user’s look-ups beyond the limit with 429 and Retry-After, found or not', async () => {
    const t = await createTestApp(db());
    await recipient(t);
    const { token } = await t.signIn('email', 'ada@example.com');
    for (let i = 0; i < RATE_LIMITS.walletLookupsPerUser.max; i++) {
      const response = await lookup(t, i % 2 === 0 ? PHONE : OTHER_PHONE, { token, ip: '203.0.113.1' });
      expect(response.statusCode).toBe(i % 2 === 0 ? 200 : 404);
    }
    const refused = await lookup(t, PHONE, { token, ip: '203.0.113.2' });
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBe('3600');
  });

  it('refuses look-ups from one address beyond its limit, whichever user asks', async () => {
    const t = await createTestApp(db());
    await recipient(t);
    const perUser = RATE_LIMITS.walletLookupsPerUser.max;
    const users = Math.ceil(RATE_LIMITS.walletLookupsPerIp.max / perUser);
    let sent = 0;
    for (let u = 0; u < users; u++) {
      const { token } = await t.signIn('email', `user${u}@example.com`);
      for (let i = 0; i < perUser && sent < RATE_LIMITS.walletLookupsPerIp.max; i++, sent++) {
        expect((await lookup(t, PHONE, { token, ip: '203.0.113.9' })).statusCode).toBe(200);
      }
    }
    const fresh = await t.signIn('email', 'fresh@example.com');
    expectError(await lookup(t, PHONE, { token: fresh.token, ip: '203.0.113.9' }), 429, 'too_many_requests');
    expect((await lookup(t, PHONE, { token: fresh.token, ip: '203.0.113.10' })).statusCode).toBe(200);
  });
});
