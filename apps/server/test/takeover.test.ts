// Issue 26: the key owns the account. Each attack here took an account on the code before it (a stolen cookie,
// one intercepted code, a linked wallet swapped in); each test ends with the owner holding the account, the
// wallet and every method they had, and the attacker with nothing but a pending change the owner cancelled.

import type { SiweNonce } from '@dial/api';
import { accountChangeTarget, LOCAL_CHAIN_ID } from '@dial/core';
import { type DevChain, startDevChain } from '@dial/devchain';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localChainConfig } from './activityPeople.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, sessionToken, type TestApp } from './testApp.js';
import { accountProof, registerWallet, type TestWallet, testWallet } from './walletProof.js';

const OWNER_EMAIL = 'owner@example.com';
const ATTACKER_EMAIL = 'mallory@example.com';
const HOUR = 3_600_000;

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});

/** Polls until `check` passes: the due-changes timer runs every 20 ms in these tests. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Signs in with a code sent to `to`, from a browser of its own (the attacker's, or the owner's new one). */
async function signInFrom(t: TestApp, channel: 'sms' | 'email', to: string, device: string) {
  const start = await t.post('/api/auth/otp/start', { channel, to }, { device });
  expect(start.statusCode).toBe(200);
  const code = t.transport.lastCode(start.json().to);
  const verify = await t.post('/api/auth/otp/verify', { channel, to, code }, { device });
  expect(verify.statusCode).toBe(200);
  return { token: sessionToken(verify), body: verify.json() };
}

/** Links `email` by its code, with `proof` or without. */
async function linkEmail(
  t: TestApp,
  token: string,
  email: string,
  device: string,
  proof?: Awaited<ReturnType<typeof accountProof>>,
) {
  const start = await t.post('/api/auth/methods/code', { channel: 'email', to: email }, { token, device });
  expect(start.statusCode).toBe(200);
  const code = t.transport.lastCode(email);
  return t.post(
    '/api/auth/methods/code/verify',
    { channel: 'email', to: email, code, ...(proof === undefined ? {} : { proof }) },
    { token, device },
  );
}

async function methodsOf(t: TestApp, token: string) {
  const response = await t.get('/api/auth/methods', { token });
  expect(response.statusCode).toBe(200);
  return response.json().methods as Array<{ id: string; kind: string; value: string; trusted: boolean }>;
}

/** An owner with a phone, an e-mail address and an embedded wallet, signed in from their own browser. */
async function ownerWithWallet(t: TestApp, wallet: TestWallet) {
  const ownerDevice = newDevice();
  const owner = await signInFrom(t, 'sms', PHONE, ownerDevice);
  const { response } = await registerWallet(t, owner.token, { wallet });
  expect(response.statusCode).toBe(201);
  const proof = await accountProof(t, owner.token, wallet, {
    action: 'link-method',
    target: accountChangeTarget({ action: 'link-method', kind: 'email', value: OWNER_EMAIL }),
  });
  expect((await linkEmail(t, owner.token, OWNER_EMAIL, ownerDevice, proof)).statusCode).toBe(200);
  return { ...owner, device: ownerDevice, userId: owner.body.user.id as string };
}

describe.each(DIALECTS)('the key owns the account, on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const app = () => createTestApp(db(), { deps: { accountChangeIntervalMs: 20 } });

  it('a stolen session cookie only asks: the link and the ending of sessions wait, the owner’s phone cannot be removed, every method is told, and the owner cancels them all with "Secure my account"', async () => {
    const t = await app();
    const wallet = testWallet(7);
    const owner = await ownerWithWallet(t, wallet);
    // The attacker replays the owner's cookie from a browser of their own.
    const attackerDevice = newDevice();
    const stolen = owner.token;
    t.transport.sent.length = 0;

    const link = await linkEmail(t, stolen, ATTACKER_EMAIL, attackerDevice);
    expect(link.statusCode).toBe(202);
    expect(link.json().pending).toMatchObject({ action: 'link-method', status: 'pending' });
    const phone = (await methodsOf(t, stolen)).find((method) => method.kind === 'phone')!;
    // The account's own phone goes only with the key: not even asked for.
    expectError(
      await t.post(`/api/auth/methods/${phone.id}/remove`, {}, { token: stolen }),
      403,
      'account_proof_required',
    );
    const endOthers = await t.post('/api/auth/sessions/end-others', {}, { token: stolen });
    expect(endOthers.statusCode).toBe(202);

    // Nothing changed yet: the attacker's address does not sign in, the owner's phone still does.
    expect((await methodsOf(t, stolen)).map((method) => method.value).sort()).toEqual(
      [OWNER_EMAIL, PHONE].sort(),
    );
    // Every method of the account heard of each request, the phone and the e-mail address alike.
    const told = t.transport.sent.filter((message) => message.subject.includes('asked to change'));
    expect(new Set(told.map((message) => message.to))).toEqual(new Set([PHONE, OWNER_EMAIL]));
    expect(told).toHaveLength(4);
    expect(told.some((message) => message.text.includes(ATTACKER_EMAIL))).toBe(true);
    // …and never the attacker's address.
    expect(t.transport.sent.some((message) => message.to === ATTACKER_EMAIL && !message.code)).toBe(false);

    // The owner, on their own browser with the device share, proves the key and secures the account.
    const listed = await t.get('/api/account/changes', { token: owner.token });
    expect(listed.json().changes.filter((c: { status: string }) => c.status === 'pending')).toHaveLength(2);
    const proof = await accountProof(t, owner.token, wallet, {
      action: 'secure-account',
      target: accountChangeTarget({ action: 'secure-account' }),
    });
    // The cookie is the same token: "Secure my account" ends every OTHER session, so the owner signs in anew
    // first, as they would after noticing; the stolen token is then another session.
    const fresh = await signInFrom(t, 'sms', PHONE, owner.device);
    const freshProof = await accountProof(t, fresh.token, wallet, {
      action: 'secure-account',
      target: accountChangeTarget({ action: 'secure-account' }),
    });
    expect((await t.post('/api/account/secure', { proof }, { token: fresh.token })).statusCode).toBe(400);
    const secured = await t.post('/api/account/secure', { proof: freshProof }, { token: fresh.token });
    expect(secured.statusCode).toBe(200);
    expect(secured.json()).toMatchObject({ cancelledChanges: 2 });
    expect(secured.json().endedSessions).toBeGreaterThanOrEqual(1);

    expectError(await t.get('/api/me', { token: stolen }), 401, 'unauthorized');
    // Long after the cooling-off period, nothing the attacker asked for happens.
    t.clock.advance(49 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // (Sessions idle out after 24 hours: the owner signs in again.)
    const later = await signInFrom(t, 'sms', PHONE, owner.device);
    const after = await methodsOf(t, later.token);
    expect(after.map((method) => method.value).sort()).toEqual([OWNER_EMAIL, PHONE].sort());
    const changes = (await t.get('/api/account/changes', { token: later.token })).json().changes;
    expect(changes.every((change: { status: string }) => change.status === 'cancelled')).toBe(true);
    const me = (await t.get('/api/me', { token: later.token })).json();
    expect(me.user.wallet).toEqual({ address: wallet.address, kind: 'embedded' });
  });

  it('one intercepted code (a SIM swap) signs in but cannot link, remove, end the owner’s sessions or export; the owner keeps account and wallet', async () => {
    const t = await app();
    const wallet = testWallet(8);
    const owner = await ownerWithWallet(t, wallet);
    const attacker = await signInFrom(t, 'sms', PHONE, newDevice());
    expect(attacker.body.isNewUser).toBe(false);

    // Without the key every change is only asked for; the owner's other session stays.
    expect((await linkEmail(t, attacker.token, ATTACKER_EMAIL, newDevice())).statusCode).toBe(202);
    expect((await t.post('/api/auth/sessions/end-others', {}, { token: attacker.token })).statusCode).toBe(
      202,
    );
    expect((await t.get('/api/me', { token: owner.token })).statusCode).toBe(200);
    // A proof by the attacker's own key is not the account's key.
    const forged = await accountProof(t, attacker.token, testWallet(9), {
      action: 'end-sessions',
      target: accountChangeTarget({ action: 'end-sessions', id: 'all-others' }),
    }).catch((error: Error) => error);
    expect(forged).toBeInstanceOf(Object);
    if (!(forged instanceof Error)) {
      expectError(
        await t.post('/api/auth/sessions/end-others', { proof: forged }, { token: attacker.token }),
        403,
        'wallet_proof_invalid',
      );
    }
    // The owner's proof cannot be replayed by the attacker's session: challenges are the session's own.
    const ownerProof = await accountProof(t, owner.token, wallet, {
      action: 'end-sessions',
      target: accountChangeTarget({ action: 'end-sessions', id: 'all-others' }),
    });
    expectError(
      await t.post('/api/auth/sessions/end-others', { proof: ownerProof }, { token: attacker.token }),
      400,
      'wallet_proof_expired',
    );
    // Nor used for another change than the one it names.
    const forOther = await accountProof(t, owner.token, wallet, {
      action: 'end-sessions',
      target: accountChangeTarget({ action: 'end-sessions', id: 'all-others' }),
    });
    const phone = (await methodsOf(t, owner.token)).find((method) => method.kind === 'phone')!;
    expectError(
      await t.post(`/api/auth/methods/${phone.id}/remove`, { proof: forOther }, { token: owner.token }),
      403,
      'wallet_proof_invalid',
    );
    // Export needs the key too, not only a fresh code.
    const reauth = await t.post('/api/auth/reauth/start', {}, { token: attacker.token });
    expect(reauth.statusCode).toBe(200);
    const code = t.transport.lastCode(PHONE);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token: attacker.token })).statusCode).toBe(
      200,
    );
    expect((await t.post('/api/wallet/export', {}, { token: attacker.token })).statusCode).toBe(400);

    // The owner ends it all with the key.
    const secure = await accountProof(t, owner.token, wallet, {
      action: 'secure-account',
      target: accountChangeTarget({ action: 'secure-account' }),
    });
    expect((await t.post('/api/account/secure', { proof: secure }, { token: owner.token })).statusCode).toBe(
      200,
    );
    expectError(await t.get('/api/me', { token: attacker.token }), 401, 'unauthorized');
    t.clock.advance(49 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The owner signs in with their phone to the same account, wallet and methods.
    const back = await signInFrom(t, 'sms', PHONE, owner.device);
    expect(back.body.isNewUser).toBe(false);
    expect(back.body.user.id).toBe(owner.userId);
    expect((await methodsOf(t, back.token)).map((method) => method.value).sort()).toEqual(
      [OWNER_EMAIL, PHONE].sort(),
    );
  });

  it('makes a change asked for without proof after the cooling-off period, as untrusted: it cannot remove a trusted method', async () => {
    const t = await app();
    const wallet = testWallet(10);
    const owner = await ownerWithWallet(t, wallet);
    const asked = await linkEmail(t, owner.token, ATTACKER_EMAIL, owner.device);
    expect(asked.statusCode).toBe(202);
    const appliesAt = Date.parse(asked.json().pending.appliesAt);
    expect(appliesAt - t.clock.now().getTime()).toBe(48 * HOUR);
    t.clock.advance(47 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // (Sessions idle out after 24 hours: the owner signs in again.)
    const ownerAgain = await signInFrom(t, 'sms', PHONE, owner.device);
    expect((await methodsOf(t, ownerAgain.token)).some((method) => method.value === ATTACKER_EMAIL)).toBe(
      false,
    );
    t.clock.advance(1 * HOUR);
    await eventually(async () => {
      const linked = (await methodsOf(t, ownerAgain.token)).find((method) => method.value === ATTACKER_EMAIL);
      expect(linked).toMatchObject({ trusted: false });
    });
    // The owner heard that it was made.
    await eventually(async () => {
      const subjects = t.transport.sent.map((message) => message.subject);
      expect(subjects.some((subject) => subject.includes('without your wallet was made'))).toBe(true);
    });

    // A session of the untrusted method cannot remove the owner's phone, nor even ask to.
    const attacker = await signInFrom(t, 'email', ATTACKER_EMAIL, newDevice());
    expect(attacker.body.user.id).toBe(owner.userId);
    const phone = (await methodsOf(t, attacker.token)).find((method) => method.kind === 'phone')!;
    expectError(
      await t.post(`/api/auth/methods/${phone.id}/remove`, {}, { token: attacker.token }),
      403,
      'method_outranked',
    );
    // The owner removes it with the key, and its sessions end with it.
    const untrusted = (await methodsOf(t, ownerAgain.token)).find(
      (method) => method.value === ATTACKER_EMAIL,
    )!;
    const proof = await accountProof(t, ownerAgain.token, wallet, {
      action: 'remove-method',
      target: accountChangeTarget({ action: 'remove-method', id: untrusted.id }),
    });
    expect(
      (await t.post(`/api/auth/methods/${untrusted.id}/remove`, { proof }, { token: ownerAgain.token }))
        .statusCode,
    ).toBe(200);
    expectError(await t.get('/api/me', { token: attacker.token }), 401, 'unauthorized');
  });

  it('a cancelled change is never made, and a second cancel answers change_not_pending', async () => {
    const t = await app();
    const wallet = testWallet(11);
    const owner = await ownerWithWallet(t, wallet);
    const asked = await linkEmail(t, owner.token, ATTACKER_EMAIL, owner.device);
    const id = asked.json().pending.id as string;
    // Without the key, a session cannot cancel (the attacker could cancel the owner's own requests).
    expectError(
      await t.post(`/api/account/changes/${id}/cancel`, {}, { token: owner.token }),
      403,
      'account_proof_required',
    );
    const cancel = () =>
      accountProof(t, owner.token, wallet, {
        action: 'cancel-change',
        target: accountChangeTarget({ action: 'cancel-change', id }),
      });
    const cancelled = await t.post(
      `/api/account/changes/${id}/cancel`,
      { proof: await cancel() },
      { token: owner.token },
    );
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().change).toMatchObject({ id, status: 'cancelled' });
    expectError(
      await t.post(`/api/account/changes/${id}/cancel`, { proof: await cancel() }, { token: owner.token }),
      409,
      'change_not_pending',
    );
    t.clock.advance(49 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ownerAgain = await signInFrom(t, 'sms', PHONE, owner.device);
    expect((await methodsOf(t, ownerAgain.token)).some((method) => method.value === ATTACKER_EMAIL)).toBe(
      false,
    );
    // Another user cannot see or cancel it.
    const other = await signInFrom(t, 'email', 'someone@example.com', newDevice());
    expect((await t.get('/api/account/changes', { token: other.token })).json().changes).toEqual([]);
    expectError(
      await t.post(`/api/account/changes/${id}/cancel`, {}, { token: other.token }),
      404,
      'not_found',
    );
  });

  it('a wallet linked by a stolen session never becomes the wallet of an account without one: payments to the phone do not reach it', async () => {
    const t = await createTestApp(db(), {
      config: localChainConfig(chain),
      deps: { accountChangeIntervalMs: 20 },
    });
    const ownerDevice = newDevice();
    const owner = await signInFrom(t, 'sms', PHONE, ownerDevice);
    // The account has no embedded wallet yet: no key, so every change waits.
    const thief = privateKeyToAccount(generatePrivateKey());
    const nonceAnswer = await t.post('/api/auth/methods/wallet/nonce', {}, { token: owner.token });
    expect(nonceAnswer.statusCode).toBe(200);
    const nonce = nonceAnswer.json() as SiweNonce;
    const message = createSiweMessage({
      domain: nonce.domain,
      uri: nonce.uri,
      address: thief.address,
      chainId: LOCAL_CHAIN_ID,
      nonce: nonce.nonce,
      issuedAt: t.clock.now(),
      statement: nonce.statement,
      version: '1',
    });
    const link = await t.post(
      '/api/auth/methods/wallet',
      { message, signature: await thief.signMessage({ message }) },
      { token: owner.token },
    );
    expect(link.statusCode).toBe(202);
    t.clock.advance(48 * HOUR);
    const ownerAgain = await signInFrom(t, 'sms', PHONE, ownerDevice);
    await eventually(async () => {
      const linked = (await methodsOf(t, ownerAgain.token)).find((method) => method.kind === 'wallet');
      expect(linked).toMatchObject({ value: thief.address, trusted: false });
    });
    // Linked after the cooling-off period, but not the account's wallet: nothing pays it.
    expect((await t.get('/api/me', { token: ownerAgain.token })).json().user.wallet).toBeNull();
    const sender = await signInFrom(t, 'email', 'payer@example.com', newDevice());
    const lookup = new URL('/api/users/lookup', 'http://localhost');
    lookup.searchParams.set('phone', PHONE);
    const found = await t.get(`${lookup.pathname}${lookup.search}`, { token: sender.token });
    expect(found.statusCode).not.toBe(200);
    // Making it the account's wallet is itself a change that waits and is told.
    const wallet = (await methodsOf(t, ownerAgain.token)).find((method) => method.kind === 'wallet')!;
    const use = await t.post(`/api/auth/methods/${wallet.id}/use-wallet`, {}, { token: ownerAgain.token });
    expect(use.statusCode).toBe(202);
  });

  it('an asked-for end of other sessions ends only those there were when it was asked, not the owner’s sign-ins since; a linked address is not told of its own link', async () => {
    const t = await app();
    const wallet = testWallet(12);
    const owner = await ownerWithWallet(t, wallet);
    const attacker = await signInFrom(t, 'sms', PHONE, newDevice());
    expect((await t.post('/api/auth/sessions/end-others', {}, { token: attacker.token })).statusCode).toBe(
      202,
    );
    // The owner signs in from another browser a day later (their first session has idled out meanwhile).
    t.clock.advance(47 * HOUR);
    const later = await signInFrom(t, 'sms', PHONE, newDevice());
    t.clock.advance(1 * HOUR);
    await eventually(async () => {
      const changes = (await t.get('/api/account/changes', { token: later.token })).json().changes;
      expect(changes).toEqual([expect.objectContaining({ action: 'end-sessions', status: 'applied' })]);
    });
    expect((await t.get('/api/me', { token: later.token })).statusCode).toBe(200);

    // The key links a new address: the account's addresses hear of it, the new one does not.
    t.transport.sent.length = 0;
    const proof = await accountProof(t, later.token, wallet, {
      action: 'link-method',
      target: accountChangeTarget({ action: 'link-method', kind: 'email', value: 'second@example.com' }),
    });
    expect((await linkEmail(t, later.token, 'second@example.com', newDevice(), proof)).statusCode).toBe(200);
    const notices = t.transport.sent.filter((message) => message.code === undefined);
    expect(new Set(notices.map((message) => message.to))).toEqual(new Set([PHONE, OWNER_EMAIL]));
    expect(owner.userId).toBe(later.body.user.id);
  });
});
