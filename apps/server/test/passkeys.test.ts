import { accountChangeTarget, passkeyChangeChallenge } from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { newDevice } from './browsers.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { type SoftAuthenticator, softAuthenticator, type Tamper } from './softAuthenticator.js';
import { createTestApp, PHONE, type RequestOptions, sessionToken, type TestApp } from './testApp.js';
import { accountProof, registerWallet, testWallet, userIdOf } from './walletProof.js';

const KEY = testWallet(1);
type Change = Parameters<typeof accountChangeTarget>[0];

/** Asks for sign-up options and answers them with `authenticator`: the whole passkey sign-up of a browser. */
async function signUp(
  t: TestApp,
  authenticator: SoftAuthenticator,
  options: { tamper?: Tamper; name?: string; request?: RequestOptions } = {},
): Promise<LightMyRequestResponse> {
  const asked = await t.post('/api/auth/passkey/sign-up/options', undefined, options.request);
  expect(asked.statusCode, asked.body).toBe(200);
  const credential = authenticator.register(asked.json().options, options.tamper);
  return t.post(
    '/api/auth/passkey/sign-up',
    { credential, ...(options.name === undefined ? {} : { name: options.name }) },
    options.request,
  );
}

/** Sign-in options' challenge for this browser. */
async function signInChallenge(t: TestApp, request?: RequestOptions): Promise<string> {
  const asked = await t.post('/api/auth/passkey/sign-in/options', undefined, request);
  expect(asked.statusCode, asked.body).toBe(200);
  const { options } = asked.json();
  expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required', allowCredentials: [] });
  return options.challenge;
}

async function signIn(
  t: TestApp,
  authenticator: SoftAuthenticator,
  options: { tamper?: Tamper; request?: RequestOptions } = {},
): Promise<LightMyRequestResponse> {
  const challenge = await signInChallenge(t, options.request);
  return t.post(
    '/api/auth/passkey/sign-in',
    { credential: authenticator.assert(challenge, options.tamper) },
    options.request,
  );
}

/** A passkey's step-up proof of exactly `change`, over a challenge of this session, as the web app makes it. */
async function passkeyProof(
  t: TestApp,
  token: string,
  authenticator: SoftAuthenticator,
  change: Change,
  tamper?: Tamper & { signedChange?: Change },
) {
  const asked = await t.post('/api/account/proof', { action: change.action }, { token });
  expect(asked.statusCode, asked.body).toBe(201);
  const { challenge } = asked.json();
  const signed = tamper?.signedChange ?? change;
  const webauthnChallenge = passkeyChangeChallenge({
    action: signed.action,
    target: accountChangeTarget(signed),
    challenge,
    userId: await userIdOf(t, token),
    credentialId: authenticator.credentialId,
  });
  return { challenge, passkey: authenticator.assert(webauthnChallenge, tamper) };
}

/** Asks for link options with this session and answers them with `authenticator`. */
async function linkCredential(t: TestApp, token: string, authenticator: SoftAuthenticator) {
  const asked = await t.post('/api/auth/methods/passkey/options', undefined, { token });
  expect(asked.statusCode, asked.body).toBe(200);
  return { options: asked.json().options, credential: authenticator.register(asked.json().options) };
}

async function methodsOf(t: TestApp, token: string) {
  const listed = await t.get('/api/auth/methods', { token });
  expect(listed.statusCode).toBe(200);
  return listed.json().methods as { id: string; kind: string; value: string; name: string | null }[];
}

/** A phone account with its embedded wallet (whose key proves changes) and a passkey linked with that proof. */
async function phoneAccountWithPasskey(t: TestApp, authenticator: SoftAuthenticator) {
  const { token } = await t.signIn('sms', PHONE);
  const registered = await registerWallet(t, token, { wallet: KEY });
  expect(registered.response.statusCode).toBe(201);
  const { credential } = await linkCredential(t, token, authenticator);
  const proof = await accountProof(t, token, KEY, {
    action: 'link-method',
    target: accountChangeTarget({
      action: 'link-method',
      kind: 'passkey',
      value: authenticator.credentialId,
    }),
  });
  const linked = await t.post('/api/auth/methods/passkey', { credential, name: 'Laptop', proof }, { token });
  expect(linked.statusCode, linked.body).toBe(200);
  return { token, method: linked.json().method as { id: string } };
}

async function noticeList(t: TestApp, token: string): Promise<{ kind: string }[]> {
  const listed = await t.get('/api/account/notices', { token });
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json().notices;
}

async function noticesOf(t: TestApp, token: string): Promise<string[]> {
  return (await noticeList(t, token)).map((notice) => notice.kind);
}

describe.each(DIALECTS.map((dialect) => [dialectLabel(dialect), dialect] as const))(
  'passkeys (%s)',
  (_, dialect) => {
    const db = useTestDatabase(dialect);

    describe('sign-up and sign-in with a passkey alone', () => {
      it('signs up with a passkey alone: a new account whose one sign-in method it is, with its name', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const asked = await t.post('/api/auth/passkey/sign-up/options');
        expect(asked.json().options).toMatchObject({
          rp: { id: 'localhost', name: 'Dial' },
          attestation: 'none',
          authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
          excludeCredentials: [],
        });
        const signedUp = await signUp(t, authenticator, { name: 'My phone' });
        expect(signedUp.statusCode, signedUp.body).toBe(200);
        expect(signedUp.json()).toMatchObject({ isNewUser: true, user: { phone: null, email: null } });
        const token = sessionToken(signedUp);
        expect(await methodsOf(t, token)).toEqual([
          expect.objectContaining({ kind: 'passkey', value: authenticator.credentialId, name: 'My phone' }),
        ]);
        const sessions = await t.get('/api/auth/sessions', { token });
        expect(sessions.json().sessions).toEqual([
          expect.objectContaining({ method: 'passkey', current: true }),
        ]);
      });

      it('signs in with it from another browser, to the same account, and tells the owner of the new browser', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const signedUp = await signUp(t, authenticator);
        const userId = signedUp.json().user.id;
        expect(await noticesOf(t, sessionToken(signedUp))).toEqual([]);

        const elsewhere = { device: newDevice() };
        const signedIn = await signIn(t, authenticator, { request: elsewhere });
        expect(signedIn.statusCode, signedIn.body).toBe(200);
        expect(signedIn.json()).toMatchObject({ isNewUser: false, user: { id: userId } });
        expect(await noticesOf(t, sessionToken(signedIn))).toEqual(['new-browser-sign-in']);
        const stored = await db()
          .selectFrom('passkeys')
          .select(['counter', 'last_used_at'])
          .executeTakeFirstOrThrow();
        expect({ counter: Number(stored.counter), lastUsedAt: stored.last_used_at }).toEqual({
          counter: 1,
          lastUsedAt: t.clock.now().toISOString(),
        });
      });

      it('signs in with an authenticator that keeps no counter (0 every time)', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator({ keepsNoCounter: true });
        expect((await signUp(t, authenticator)).statusCode).toBe(200);
        expect((await signIn(t, authenticator)).statusCode).toBe(200);
        expect((await signIn(t, authenticator)).statusCode).toBe(200);
      });

      it('applies the allowlist (a passkey alone is on none) and the user cap to passkey sign-ups', async () => {
        const listed = await createTestApp(db(), {
          config: { allowlist: { phones: [PHONE], emails: [], wallets: [] } },
        });
        expectError(await signUp(listed, softAuthenticator()), 403, 'allowlist_rejected');
        const capped = await createTestApp(db(), { config: { maxUsers: 1 } });
        expect((await signUp(capped, softAuthenticator())).statusCode).toBe(200);
        expectError(
          await signUp(capped, softAuthenticator(), { request: { device: newDevice() } }),
          403,
          'max_accounts_reached',
        );
        expect(await db().selectFrom('passkeys').select('credential_id').execute()).toHaveLength(1);
      });

      it("refuses a sign-up that registers another account's credential id (with its own key) as method_taken, and signs in nobody", async () => {
        const t = await createTestApp(db());
        const victim = softAuthenticator();
        expect((await signUp(t, victim)).statusCode).toBe(200);
        const attacker = softAuthenticator();
        attacker.credentialId = victim.credentialId;
        const attempt = await signUp(t, attacker, { request: { device: newDevice() } });
        expectError(attempt, 409, 'method_taken');
        expect(attempt.cookies.find((cookie) => cookie.name === 'dial_session')).toBeUndefined();
      });

      it('refuses a sign-up without user verification, or made for another origin or RP ID', async () => {
        const t = await createTestApp(db());
        for (const tamper of [
          { userVerified: false },
          { origin: 'https://evil.example' },
          { rpId: 'evil.example' },
          { origin: 'http://127.0.0.1:8080' },
        ]) {
          expectError(await signUp(t, softAuthenticator(), { tamper }), 401, 'passkey_invalid');
        }
        expect(await db().selectFrom('users').select('id').execute()).toEqual([]);
      });
    });

    describe('refused assertions', () => {
      async function signedUp() {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        expect((await signUp(t, authenticator)).statusCode).toBe(200);
        return { t, authenticator };
      }

      it('refuses a replayed assertion (the same challenge twice) as passkey_challenge_invalid', async () => {
        const { t, authenticator } = await signedUp();
        const challenge = await signInChallenge(t);
        const credential = authenticator.assert(challenge);
        expect((await t.post('/api/auth/passkey/sign-in', { credential })).statusCode).toBe(200);
        expectError(
          await t.post('/api/auth/passkey/sign-in', { credential }),
          400,
          'passkey_challenge_invalid',
        );
        // Nor with a counter moved on: the challenge is gone.
        expectError(
          await t.post('/api/auth/passkey/sign-in', { credential: authenticator.assert(challenge) }),
          400,
          'passkey_challenge_invalid',
        );
      });

      it.each([
        ['another origin', { origin: 'https://evil.example' }],
        ['another RP ID', { rpId: 'evil.example' }],
        ["the loopback alias's origin with this host's RP ID", { origin: 'http://127.0.0.1:8080' }],
        ['no user verification', { userVerified: false }],
        ['a registration type', { type: 'webauthn.create' }],
      ])('refuses an assertion for %s as passkey_invalid', async (_, tamper) => {
        const { t, authenticator } = await signedUp();
        expectError(await signIn(t, authenticator, { tamper }), 401, 'passkey_invalid');
      });

      it('refuses an assertion whose counter did not increase (a cloned authenticator)', async () => {
        const { t, authenticator } = await signedUp();
        expect((await signIn(t, authenticator)).statusCode).toBe(200);
        expect((await signIn(t, authenticator)).statusCode).toBe(200);
        expectError(await signIn(t, authenticator, { tamper: { counter: 2 } }), 401, 'passkey_invalid');
        expectError(await signIn(t, authenticator, { tamper: { counter: 1 } }), 401, 'passkey_invalid');
        expectError(await signIn(t, authenticator, { tamper: { counter: 0 } }), 401, 'passkey_invalid');
        expect((await signIn(t, authenticator, { tamper: { counter: 7 } })).statusCode).toBe(200);
      });

      it('refuses a signature by another key, and a user handle that is not the passkey’s', async () => {
        const { t, authenticator } = await signedUp();
        const forger = softAuthenticator();
        forger.credentialId = authenticator.credentialId;
        forger.userHandle = authenticator.userHandle;
        expectError(await signIn(t, forger), 401, 'passkey_invalid');
        expectError(
          await signIn(t, authenticator, { tamper: { userHandle: 'AAAA' } }),
          401,
          'passkey_invalid',
        );
      });

      it('refuses a challenge another browser asked for, and one past its 5 minutes', async () => {
        const { t, authenticator } = await signedUp();
        const theirs = await signInChallenge(t, { device: newDevice() });
        expectError(
          await t.post('/api/auth/passkey/sign-in', { credential: authenticator.assert(theirs) }),
          400,
          'passkey_challenge_invalid',
        );
        const late = await signInChallenge(t);
        t.clock.advance(5 * 60_000 + 1);
        expectError(
          await t.post('/api/auth/passkey/sign-in', { credential: authenticator.assert(late) }),
          400,
          'passkey_challenge_invalid',
        );
      });

      it('refuses a sign-in challenge for a sign-up, and a sign-up challenge for a sign-in', async () => {
        const { t, authenticator } = await signedUp();
        const signUpOptions = (await t.post('/api/auth/passkey/sign-up/options')).json().options;
        expectError(
          await t.post('/api/auth/passkey/sign-in', {
            credential: authenticator.assert(signUpOptions.challenge),
          }),
          400,
          'passkey_challenge_invalid',
        );
        const challenge = await signInChallenge(t);
        expectError(
          await t.post('/api/auth/passkey/sign-up', {
            credential: softAuthenticator().register({ challenge, user: { id: 'AAAA' } }),
          }),
          400,
          'passkey_challenge_invalid',
        );
      });

      it('answers passkey_unknown for a credential that is no account’s', async () => {
        const { t } = await signedUp();
        expectError(await signIn(t, softAuthenticator()), 401, 'passkey_unknown');
      });
    });

    describe('a passkey as a sign-in method of the account', () => {
      it('links a passkey to a phone account with the key’s proof, tells the phone, and signs in with it', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const { token } = await phoneAccountWithPasskey(t, authenticator);
        expect(await methodsOf(t, token)).toEqual([
          expect.objectContaining({ kind: 'phone', value: PHONE }),
          expect.objectContaining({ kind: 'passkey', value: authenticator.credentialId, name: 'Laptop' }),
        ]);
        expect(t.transport.sent.at(-1)).toMatchObject({
          to: PHONE,
          subject: expect.stringContaining('added'),
        });
        expect(JSON.stringify(await noticeList(t, token))).toContain('the passkey \\"Laptop\\" was linked');
        const signedIn = await signIn(t, authenticator, { request: { device: newDevice() } });
        expect(signedIn.statusCode, signedIn.body).toBe(200);
        expect(signedIn.json().user.phone).toBe(PHONE);
      });

      it('only asks to link a passkey without proof: it waits out the cooling-off period, then signs in', async () => {
        const t = await createTestApp(db());
        const { token } = await t.signIn('sms', PHONE);
        const authenticator = softAuthenticator();
        const { credential } = await linkCredential(t, token, authenticator);
        const asked = await t.post('/api/auth/methods/passkey', { credential }, { token });
        expect(asked.statusCode, asked.body).toBe(202);
        expect(asked.json().pending.summary).toMatch(/^Link the passkey "Passkey on /);
        expectError(await signIn(t, authenticator), 401, 'passkey_unknown');
        t.clock.advance(48 * 3_600_000);
        expect(await t.applyDueChanges()).toBe(1);
        expect((await signIn(t, authenticator)).statusCode).toBe(200);
      });

      it('excludes the account’s passkeys from new ones, and refuses a link challenge of another session', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const { token } = await phoneAccountWithPasskey(t, authenticator);
        const { options } = await linkCredential(t, token, softAuthenticator());
        expect(options.excludeCredentials).toEqual([{ id: authenticator.credentialId, type: 'public-key' }]);
        expect(options.user.id).toBe(authenticator.userHandle);

        const other = await t.signIn('sms', '+447400123457');
        const { credential } = await linkCredential(t, other.token, softAuthenticator());
        expectError(
          await t.post('/api/auth/methods/passkey', { credential }, { token }),
          400,
          'passkey_challenge_invalid',
        );
      });

      it('holds passkeys to the limit on methods, and refuses another account’s passkey as method_taken', async () => {
        const t = await createTestApp(db(), { config: { maxSignInMethods: 2 } });
        const { token } = await phoneAccountWithPasskey(t, softAuthenticator());
        expectError(
          await t.post('/api/auth/methods/passkey/options', undefined, { token }),
          409,
          'methods_limit_reached',
        );

        const owner = softAuthenticator();
        expect((await signUp(t, owner, { request: { device: newDevice() } })).statusCode).toBe(200);
        const second = await t.signIn('sms', '+447400123457');
        const taker = softAuthenticator();
        taker.credentialId = owner.credentialId;
        const { credential } = await linkCredential(t, second.token, taker);
        expectError(
          await t.post('/api/auth/methods/passkey', { credential }, { token: second.token }),
          409,
          'method_taken',
        );
      });

      it('removes a passkey with the proof: it signs in no more, its sessions end, and the owner is told', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const { token, method } = await phoneAccountWithPasskey(t, authenticator);
        const passkeySession = sessionToken(
          await signIn(t, authenticator, { request: { device: newDevice() } }),
        );
        const proof = await accountProof(t, token, KEY, { action: 'remove-method', target: method.id });
        const removed = await t.post(`/api/auth/methods/${method.id}/remove`, { proof }, { token });
        expect(removed.statusCode, removed.body).toBe(200);
        expect(await methodsOf(t, token)).toEqual([expect.objectContaining({ kind: 'phone' })]);
        expect(await db().selectFrom('passkeys').select('identity_id').execute()).toEqual([]);
        expect((await t.get('/api/me', { token: passkeySession })).statusCode).toBe(401);
        expectError(await signIn(t, authenticator), 401, 'passkey_unknown');
        expect(t.transport.sent.at(-1)).toMatchObject({
          to: PHONE,
          subject: expect.stringContaining('removed'),
        });
        expect(JSON.stringify(await noticeList(t, token))).toContain('the passkey \\"Laptop\\" was removed');
      });

      it('never removes the last method: a passkey-only account keeps its passkey', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const signedUp = await signUp(t, authenticator);
        const token = sessionToken(signedUp);
        const [method] = await methodsOf(t, token);
        const change = { action: 'remove-method', id: method!.id } as const;
        const proof = await passkeyProof(t, token, authenticator, change);
        expectError(
          await t.post(`/api/auth/methods/${method!.id}/remove`, { proof }, { token }),
          409,
          'last_method',
        );
      });
    });

    describe('a passkey’s assertion as the step-up proof', () => {
      it('proves a change at once: the passkey-only account ends its other sessions', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const token = sessionToken(await signUp(t, authenticator));
        const other = sessionToken(await signIn(t, authenticator, { request: { device: newDevice() } }));
        const asked = await t.post('/api/account/proof', { action: 'end-sessions' }, { token });
        expect(asked.json()).toMatchObject({ signers: [], passkeys: [authenticator.credentialId] });
        const proof = await passkeyProof(t, token, authenticator, {
          action: 'end-sessions',
          id: 'all-others',
        });
        const ended = await t.post('/api/auth/sessions/end-others', { proof }, { token });
        expect(ended.statusCode, ended.body).toBe(200);
        expect((await t.get('/api/me', { token: other })).statusCode).toBe(401);
        expect((await t.get('/api/me', { token })).statusCode).toBe(200);
      });

      it('proves the removal of a phone number that the passkey account linked', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const { token, method } = await phoneAccountWithPasskey(t, authenticator);
        const phone = (await methodsOf(t, token)).find((m) => m.kind === 'phone')!;
        const proof = await passkeyProof(t, token, authenticator, { action: 'remove-method', id: phone.id });
        const removed = await t.post(`/api/auth/methods/${phone.id}/remove`, { proof }, { token });
        expect(removed.statusCode, removed.body).toBe(200);
        expect((await methodsOf(t, sessionToken(await signIn(t, authenticator)))).map((m) => m.id)).toEqual([
          method.id,
        ]);
      });

      it('refuses a replayed proof, one over another change, and one by another account’s passkey', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const token = sessionToken(await signUp(t, authenticator));
        const change = { action: 'end-sessions', id: 'all-others' } as const;

        const proof = await passkeyProof(t, token, authenticator, change);
        expect((await t.post('/api/auth/sessions/end-others', { proof }, { token })).statusCode).toBe(200);
        expectError(
          await t.post('/api/auth/sessions/end-others', { proof }, { token }),
          400,
          'wallet_proof_expired',
        );

        const other = await passkeyProof(t, token, authenticator, change, {
          signedChange: { action: 'end-sessions', id: '00000000-0000-4000-8000-000000000000' },
        });
        expectError(
          await t.post('/api/auth/sessions/end-others', { proof: other }, { token }),
          401,
          'passkey_invalid',
        );

        const stranger = softAuthenticator();
        expect((await signUp(t, stranger, { request: { device: newDevice() } })).statusCode).toBe(200);
        const theirs = await passkeyProof(t, token, stranger, change);
        expectError(
          await t.post('/api/auth/sessions/end-others', { proof: theirs }, { token }),
          403,
          'wallet_proof_invalid',
        );

        const crossOrigin = await passkeyProof(t, token, authenticator, change, {
          origin: 'https://evil.example',
        });
        expectError(
          await t.post('/api/auth/sessions/end-others', { proof: crossOrigin }, { token }),
          401,
          'passkey_invalid',
        );
        const unverified = await passkeyProof(t, token, authenticator, change, { userVerified: false });
        expectError(
          await t.post('/api/auth/sessions/end-others', { proof: unverified }, { token }),
          401,
          'passkey_invalid',
        );
      });

      it('refuses a proof of another session’s challenge', async () => {
        const t = await createTestApp(db());
        const authenticator = softAuthenticator();
        const token = sessionToken(await signUp(t, authenticator));
        const other = sessionToken(await signIn(t, authenticator, { request: { device: newDevice() } }));
        const proof = await passkeyProof(t, other, authenticator, {
          action: 'end-sessions',
          id: 'all-others',
        });
        expectError(
          await t.post('/api/auth/sessions/end-others', { proof }, { token }),
          400,
          'wallet_proof_expired',
        );
      });

      it('never takes a passkey linked without proof (after a cooling-off) as proof', async () => {
        const t = await createTestApp(db());
        const { token } = await t.signIn('sms', PHONE);
        expect((await registerWallet(t, token, { wallet: KEY })).response.statusCode).toBe(201);
        const authenticator = softAuthenticator();
        const { credential } = await linkCredential(t, token, authenticator);
        expect((await t.post('/api/auth/methods/passkey', { credential }, { token })).statusCode).toBe(202);
        t.clock.advance(48 * 3_600_000);
        expect(await t.applyDueChanges()).toBe(1);
        const again = (await signIn(t, authenticator)).cookies.find((c) => c.name === 'dial_session')!.value;
        const proof = await passkeyProof(t, again, authenticator, {
          action: 'end-sessions',
          id: 'all-others',
        });
        expectError(
          await t.post('/api/auth/sessions/end-others', { proof }, { token: again }),
          403,
          'wallet_proof_invalid',
        );
      });
    });
  },
);
