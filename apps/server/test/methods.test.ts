import { randomUUID } from 'node:crypto';
import { accountChangeTarget } from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { linkMethod } from '../src/auth/linkMethod.js';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, ORIGIN, PHONE, type RequestOptions, type TestApp } from './testApp.js';
import { accountProof, registerWallet, testWallet } from './walletProof.js';

const EMAIL = 'ada@example.com';
const OTHER_PHONE = '+447400123457';
const THIRD_PHONE = '+447400123458';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOUR = 3_600_000;
/** The account's embedded wallet: its key signs the step-up proofs. */
const KEY = testWallet(1);

type Proof = Awaited<ReturnType<typeof accountProof>>;
type Change = Parameters<typeof accountChangeTarget>[0];

/** Signs in (up) and registers the account's embedded wallet, as the web app does right after a sign-up. */
async function signInWithKey(t: TestApp, channel: 'sms' | 'email', to: string) {
  const signedIn = await t.signIn(channel, to);
  const { response } = await registerWallet(t, signedIn.token, { wallet: KEY });
  expect(response.statusCode, response.body).toBe(201);
  return { token: signedIn.token, userId: signedIn.response.json().user.id as string };
}

/** The key's proof of exactly `change`, over a challenge of this session. */
function proofOf(t: TestApp, token: string, change: Change): Promise<Proof> {
  return accountProof(t, token, KEY, { action: change.action, target: accountChangeTarget(change) });
}

/** What a change asked for without proof answers: 202 and the pending change, due in 48 hours. */
function pendingAnswer(t: TestApp, action: string, summary: string) {
  return {
    pending: {
      id: expect.stringMatching(UUID),
      action,
      summary,
      status: 'pending',
      requestedFrom: 'Unknown browser',
      requestedHere: true,
      createdAt: t.clock.now().toISOString(),
      appliesAt: new Date(t.clock.now().getTime() + 48 * HOUR).toISOString(),
      settledAt: null,
      outcome: null,
    },
  };
}

/** The account's changes as stored: what was asked, and what became of it. */
async function storedChanges(t: TestApp, token: string) {
  const response = await t.get('/api/account/changes', { token });
  expect(response.statusCode).toBe(200);
  return (response.json().changes as { action: string; status: string; outcome: string | null }[]).map(
    ({ action, status, outcome }) => ({ action, status, outcome }),
  );
}

function startLink(
  t: TestApp,
  token: string,
  channel: 'sms' | 'email',
  to: string,
  options?: RequestOptions,
) {
  return t.post('/api/auth/methods/code', { channel, to }, { token, ...options });
}

function verifyLink(
  t: TestApp,
  token: string,
  body: { channel: 'sms' | 'email'; to: string; code: string; proof?: Proof },
  options?: RequestOptions,
) {
  return t.post('/api/auth/methods/code/verify', body, { token, ...options });
}

/**
 * Sends a link code and proves it: the whole link of a phone number or e-mail address, made at once with
 * the key's proof (`proven`: the account has the embedded wallet {@link KEY}), else asked for.
 */
async function link(
  t: TestApp,
  token: string,
  channel: 'sms' | 'email',
  to: string,
  how: 'proven' | 'asked' = 'proven',
) {
  const started = await startLink(t, token, channel, to);
  expect(started.statusCode, started.body).toBe(200);
  const value: string = started.json().to;
  const proof =
    how === 'proven'
      ? { proof: await proofOf(t, token, { action: 'link-method', kind: KIND[channel], value }) }
      : {};
  return verifyLink(t, token, { channel, to, code: t.transport.lastCode(value), ...proof });
}

const KIND = { sms: 'phone', email: 'email' } as const;

function remove(t: TestApp, token: string, id: string, proof?: Proof) {
  return t.post(`/api/auth/methods/${id}/remove`, proof === undefined ? {} : { proof }, { token });
}

async function methods(t: TestApp, token: string) {
  const response = await t.get('/api/auth/methods', { token });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    methods: {
      id: string;
      kind: string;
      value: string;
      findable: boolean | null;
      trusted: boolean;
      createdAt: string;
    }[];
    maxMethods: number;
  };
}

/** Signs in with a code from a browser of its own; returns the answer and, when it signed in, the token. */
async function signInElsewhere(t: TestApp, channel: 'sms' | 'email', to: string) {
  const browser = { device: newDevice() };
  await t.post('/api/auth/otp/start', { channel, to }, browser);
  const response = await t.post(
    '/api/auth/otp/verify',
    { channel, to, code: t.transport.lastCode(to) },
    browser,
  );
  const token = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '';
  return { token, json: () => response.json() };
}

function lookup(t: TestApp, token: string, phone: string): Promise<LightMyRequestResponse> {
  const url = new URL('/api/users/lookup', 'http://localhost');
  url.searchParams.set('phone', phone);
  return t.get(`${url.pathname}${url.search}`, { token });
}

describe.each(DIALECTS)('linked sign-in methods on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  describe('listing', () => {
    it('lists the person’s own methods in full, oldest first, with whether each is trusted, and the cap', async () => {
      const t = await createTestApp(db(), { config: { maxSignInMethods: 4 } });
      const { token } = await signInWithKey(t, 'sms', PHONE);
      t.clock.advance(60_000);
      expect((await link(t, token, 'email', 'Ada@Example.com')).statusCode).toBe(200);

      expect(await methods(t, token)).toEqual({
        methods: [
          {
            id: expect.stringMatching(UUID),
            kind: 'phone',
            value: PHONE,
            findable: true,
            trusted: true,
            createdAt: '2030-01-01T12:00:00.000Z',
          },
          {
            id: expect.stringMatching(UUID),
            kind: 'email',
            value: EMAIL,
            findable: null,
            trusted: true,
            createdAt: '2030-01-01T12:01:00.000Z',
          },
        ],
        maxMethods: 4,
      });
    });

    it('shows nobody else’s methods, and nothing without a session', async () => {
      const t = await createTestApp(db());
      await t.signIn('sms', PHONE);
      const other = await t.signIn('email', EMAIL);
      expect((await methods(t, other.token)).methods.map((method) => method.value)).toEqual([EMAIL]);
      expectError(await t.get('/api/auth/methods'), 401, 'unauthorized');
    });
  });

  describe('linking a phone number or e-mail address by code', () => {
    it('links an e-mail address with a link code and the key’s proof, and that address then signs in to the same account', async () => {
      const t = await createTestApp(db());
      const { token, userId } = await signInWithKey(t, 'sms', PHONE);

      const started = await startLink(t, token, 'email', ' Ada@Example.com ');
      expect(started.json()).toEqual({
        ok: true,
        channel: 'email',
        to: EMAIL,
        resendAfterSeconds: 30,
        expiresInSeconds: 600,
      });
      const message = t.transport.sent.at(-1);
      expect(message).toMatchObject({ channel: 'email', to: EMAIL });
      expect(message?.subject).toContain('code to link this address');
      const stored = await db().selectFrom('otp_codes').select(['purpose', 'identifier']).execute();
      expect(stored).toContainEqual({ purpose: 'link', identifier: EMAIL });

      const proof = await proofOf(t, token, { action: 'link-method', kind: 'email', value: EMAIL });
      const verified = await verifyLink(t, token, {
        channel: 'email',
        to: EMAIL,
        code: message!.code!,
        proof,
      });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual({
        method: {
          id: expect.stringMatching(UUID),
          kind: 'email',
          value: EMAIL,
          findable: null,
          trusted: true,
          createdAt: t.clock.now().toISOString(),
        },
      });
      expect((await t.get('/api/me', { token })).json().user).toMatchObject({ phone: PHONE, email: EMAIL });
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);

      // Another browser signs in with the new address and reaches the same account.
      const signIn = await signInElsewhere(t, 'email', EMAIL);
      expect(signIn.json()).toMatchObject({ isNewUser: false, user: { id: userId } });
    });

    it('asks for a link proven by its code but not by the key: nothing is linked for 48 hours, then the address signs in as an untrusted method', async () => {
      const t = await createTestApp(db());
      const { token, userId } = await signInWithKey(t, 'sms', PHONE);
      const sentBefore = t.transport.sent.length;

      const asked = await link(t, token, 'email', EMAIL, 'asked');
      expect(asked.statusCode).toBe(202);
      expect(asked.json()).toEqual(pendingAnswer(t, 'link-method', `Link the e-mail address ${EMAIL}`));
      // The code went to the new address; the request's notice to the account's own phone, never to it.
      expect(t.transport.sent.slice(sentBefore + 1)).toEqual([
        expect.objectContaining({
          channel: 'sms',
          to: PHONE,
          subject: 'Dial: someone asked to change your account',
        }),
      ]);
      expect((await methods(t, token)).methods.map((method) => method.value)).toEqual([PHONE]);
      expect((await t.get('/api/me', { token })).json().user.email).toBeNull();

      // A minute before the 48 hours, nothing is due; at 48 hours it is made. (The owner signs in again to
      // look: a session idle for 24 hours has ended.)
      t.clock.advance(48 * HOUR - 60_000);
      expect(await t.applyDueChanges()).toBe(0);
      expect(await db().selectFrom('identities').select('value').execute()).toEqual([{ value: PHONE }]);
      t.clock.advance(60_000);
      expect(await t.applyDueChanges()).toBe(1);
      const back = (await t.signIn('sms', PHONE)).token;
      expect((await methods(t, back)).methods.find((method) => method.kind === 'email')).toEqual({
        id: expect.stringMatching(UUID),
        kind: 'email',
        value: EMAIL,
        findable: null,
        trusted: false,
        createdAt: t.clock.now().toISOString(),
      });
      expect(await storedChanges(t, back)).toEqual([
        { action: 'link-method', status: 'applied', outcome: null },
      ]);
      // Made once: the timer finds nothing more.
      expect(await t.applyDueChanges()).toBe(0);

      const signIn = await signInElsewhere(t, 'email', EMAIL);
      expect(signIn.json()).toMatchObject({ isNewUser: false, user: { id: userId } });
    });

    it('links a phone number, findable by send-to-phone at once', async () => {
      const t = await createTestApp(db());
      const { token } = await signInWithKey(t, 'email', EMAIL);
      const linked = await link(t, token, 'sms', OTHER_PHONE);
      expect(linked.json().method).toMatchObject({
        kind: 'phone',
        value: OTHER_PHONE,
        findable: true,
        trusted: true,
      });
      expect(
        t.transport.sent.find((sent) => sent.code !== undefined && sent.to === OTHER_PHONE)?.text,
      ).toMatch(/^Your Dial code to link this number to an account is \d{6}\./);
    });

    it('keeps link codes and sign-in codes apart: neither works for the other', async () => {
      const t = await createTestApp(db());
      const { token } = await signInWithKey(t, 'sms', PHONE);
      const proof = () => proofOf(t, token, { action: 'link-method', kind: 'email', value: EMAIL });
      // A sign-in code for the address, from this very browser, cannot link it, even with the key's proof…
      await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      const signInCode = t.transport.lastCode(EMAIL);
      expectError(
        await verifyLink(t, token, { channel: 'email', to: EMAIL, code: signInCode, proof: await proof() }),
        400,
        'code_expired',
      );
      // …and a link code cannot sign in.
      t.clock.advance(60_000);
      await startLink(t, token, 'email', EMAIL);
      const linkCode = t.transport.lastCode(EMAIL);
      expectError(
        await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: linkCode }),
        400,
        'invalid_code',
      );
      const linked = await verifyLink(t, token, {
        channel: 'email',
        to: EMAIL,
        code: linkCode,
        proof: await proof(),
      });
      expect(linked.statusCode).toBe(200);
    });

    it('refuses before sending a method that is already the person’s, and one past the cap', async () => {
      const t = await createTestApp(db(), { config: { maxSignInMethods: 2 } });
      const { token } = await signInWithKey(t, 'sms', PHONE);
      const sent = t.transport.sent.length;
      expectError(await startLink(t, token, 'sms', '+44 7400 123456'), 409, 'method_already_linked');
      expect(t.transport.sent).toHaveLength(sent);
      expect((await link(t, token, 'email', EMAIL)).statusCode).toBe(200);
      const linkedSent = t.transport.sent.length;
      expectError(await startLink(t, token, 'sms', OTHER_PHONE), 409, 'methods_limit_reached');
      // No code went out for either refusal.
      expect(t.transport.sent).toHaveLength(linkedSent);
      expect(t.transport.sent.filter((message) => message.code !== undefined)).toHaveLength(2);
    });

    it('answers start for another account’s number as for a free one, and refuses it only after the code: method_taken, asked for nothing', async () => {
      const t = await createTestApp(db());
      await t.signIn('sms', OTHER_PHONE);
      // An account without a key: its link is asked for, and refused at once, not in two days.
      const { token } = await t.signIn('email', EMAIL);

      const taken = await startLink(t, token, 'sms', OTHER_PHONE);
      const free = await startLink(t, token, 'sms', THIRD_PHONE);
      expect(taken.statusCode).toBe(200);
      expect({ ...taken.json(), to: '' }).toEqual({ ...free.json(), to: '' });

      expectError(
        await verifyLink(t, token, {
          channel: 'sms',
          to: OTHER_PHONE,
          code: t.transport.lastCode(OTHER_PHONE),
        }),
        409,
        'method_taken',
      );
      const owner = await db()
        .selectFrom('identities')
        .select('user_id')
        .where('value', '=', OTHER_PHONE)
        .execute();
      expect(owner).toHaveLength(1);
      expect((await methods(t, token)).methods.map((method) => method.value)).toEqual([EMAIL]);
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
    });

    it('refuses another account’s number with the key’s proof too: method_taken', async () => {
      const t = await createTestApp(db());
      await t.signIn('sms', OTHER_PHONE);
      const { token } = await signInWithKey(t, 'email', EMAIL);
      await startLink(t, token, 'sms', OTHER_PHONE);
      const code = t.transport.lastCode(OTHER_PHONE);
      const proof = await proofOf(t, token, { action: 'link-method', kind: 'phone', value: OTHER_PHONE });
      expectError(
        await verifyLink(t, token, { channel: 'sms', to: OTHER_PHONE, code, proof }),
        409,
        'method_taken',
      );
      expect((await methods(t, token)).methods.map((method) => method.value)).toEqual([EMAIL]);
    });

    describe('an attacker with a session of their own', () => {
      it('cannot link someone else’s number without its code: wrong codes, then the code is dead', async () => {
        const t = await createTestApp(db());
        const attacker = await t.signIn('email', 'mallory@example.com');
        await startLink(t, attacker.token, 'sms', PHONE);
        const right = t.transport.lastCode(PHONE);
        const wrong = right === '000000' ? '111111' : '000000';
        for (let i = 0; i < 4; i++) {
          expectError(
            await verifyLink(t, attacker.token, { channel: 'sms', to: PHONE, code: wrong }),
            400,
            'invalid_code',
          );
        }
        expectError(
          await verifyLink(t, attacker.token, { channel: 'sms', to: PHONE, code: wrong }),
          400,
          'code_attempts_exceeded',
        );
        expectError(
          await verifyLink(t, attacker.token, { channel: 'sms', to: PHONE, code: right }),
          400,
          'code_attempts_exceeded',
        );
        const linked = await db()
          .selectFrom('identities')
          .select('value')
          .where('value', '=', PHONE)
          .execute();
        expect(linked).toEqual([]);
        // Not even asked for.
        expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
      });

      it('cannot use a link code from another browser, even the right one for their own account', async () => {
        const t = await createTestApp(db());
        const { token } = await t.signIn('email', EMAIL);
        await startLink(t, token, 'sms', PHONE);
        const code = t.transport.lastCode(PHONE);
        // The same session's cookie carried to another browser (no device cookie, or another one).
        expectError(
          await verifyLink(t, token, { channel: 'sms', to: PHONE, code }, { device: newDevice() }),
          400,
          'code_expired',
        );
        expectError(
          await verifyLink(t, token, { channel: 'sms', to: PHONE, code }, { device: null }),
          400,
          'code_expired',
        );
        expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
        // From the browser that asked, the code is right: the link is asked for (the account has no key).
        const asked = await verifyLink(t, token, { channel: 'sms', to: PHONE, code });
        expect(asked.statusCode).toBe(202);
        expect(asked.json().pending).toMatchObject({ action: 'link-method', status: 'pending' });
      });

      it('cannot flood a number with link codes from many accounts: 5 an hour to one number', async () => {
        const t = await createTestApp(db());
        for (let i = 0; i < 5; i++) {
          const { token } = await t.signIn('email', `mallory${i}@example.com`);
          expect((await startLink(t, token, 'sms', PHONE)).statusCode).toBe(200);
          // Past the 30 s between codes of this browser's slot.
          t.clock.advance(31_000);
        }
        const { token } = await t.signIn('email', 'mallory5@example.com');
        const refused = await startLink(t, token, 'sms', PHONE);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.code).toBe('too_many_requests');
      });

      it('cannot ask for more than 5 link codes an hour for one account', async () => {
        const t = await createTestApp(db());
        const { token } = await t.signIn('email', EMAIL);
        for (let i = 0; i < 5; i++) {
          expect((await startLink(t, token, 'sms', `+4474001234${60 + i}`)).statusCode).toBe(200);
        }
        expect((await startLink(t, token, 'sms', '+447400123470')).statusCode).toBe(429);
      });
    });

    it('holds the cap under concurrency: of two links proven at once past the cap, one is refused', async () => {
      const t = await createTestApp(db(), { config: { maxSignInMethods: 2 } });
      const { token } = await signInWithKey(t, 'email', EMAIL);
      await startLink(t, token, 'sms', PHONE);
      await startLink(t, token, 'sms', OTHER_PHONE);
      const proofs = [
        await proofOf(t, token, { action: 'link-method', kind: 'phone', value: PHONE }),
        await proofOf(t, token, { action: 'link-method', kind: 'phone', value: OTHER_PHONE }),
      ];
      const answers = await Promise.all(
        [PHONE, OTHER_PHONE].map((to, i) =>
          verifyLink(t, token, { channel: 'sms', to, code: t.transport.lastCode(to), proof: proofs[i] }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.map((answer) => answer.json().error?.code).filter(Boolean)).toEqual([
        'methods_limit_reached',
      ]);
      expect((await methods(t, token)).methods).toHaveLength(2);
    });

    it('holds the cap for links asked for: both wait, and the one made second fails with methods_limit_reached', async () => {
      const t = await createTestApp(db(), { config: { maxSignInMethods: 2 } });
      const { token } = await signInWithKey(t, 'email', EMAIL);
      expect((await link(t, token, 'sms', PHONE, 'asked')).statusCode).toBe(202);
      t.clock.advance(60_000);
      expect((await link(t, token, 'sms', OTHER_PHONE, 'asked')).statusCode).toBe(202);

      t.clock.advance(48 * HOUR);
      expect(await t.applyDueChanges()).toBe(2);
      const back = (await t.signIn('email', EMAIL)).token;
      expect((await methods(t, back)).methods.map((method) => method.value)).toEqual([EMAIL, PHONE]);
      // Newest first.
      expect(await storedChanges(t, back)).toEqual([
        { action: 'link-method', status: 'failed', outcome: 'methods_limit_reached' },
        { action: 'link-method', status: 'applied', outcome: null },
      ]);
      expect(t.transport.sent).toContainEqual(
        expect.objectContaining({
          to: EMAIL,
          subject: 'Dial: a change asked for on your account was not made',
        }),
      );
    });

    it('tells the owner at every address the account had before the link', async () => {
      const t = await createTestApp(db());
      const { token } = await signInWithKey(t, 'email', EMAIL);
      expect((await link(t, token, 'sms', PHONE)).statusCode).toBe(200);
      const toOwner = t.transport.sent.filter((sent) => sent.code === undefined && sent.to === EMAIL);
      expect(toOwner).toEqual([
        {
          channel: 'email',
          to: EMAIL,
          subject: 'Dial: a new way to sign in was added to your account',
          text: expect.stringContaining(`The phone number ${PHONE} was linked.`),
        },
      ]);
      const events = await db().selectFrom('account_events').select('kind').execute();
      expect(events).toEqual([{ kind: 'method-linked' }]);
    });
  });

  describe('findability', () => {
    it('turns a phone number’s findability off and on with the key’s proof: send-to-phone stops and starts finding it', async () => {
      const t = await createTestApp(db());
      const owner = await signInWithKey(t, 'sms', PHONE);
      const sender = await t.signIn('email', EMAIL);
      expect((await lookup(t, sender.token, PHONE)).json()).toEqual({ address: KEY.address, phone: '*3456' });

      const phoneId = (await methods(t, owner.token)).methods[0]!.id;
      const offProof = await proofOf(t, owner.token, {
        action: 'set-findable',
        id: phoneId,
        findable: false,
      });
      const off = await patch(t, owner.token, phoneId, { findable: false, proof: offProof });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toEqual({ method: expect.objectContaining({ id: phoneId, findable: false }) });
      expectError(await lookup(t, sender.token, PHONE), 404, 'recipient_not_found');
      expect((await methods(t, owner.token)).methods[0]?.findable).toBe(false);

      const onProof = await proofOf(t, owner.token, { action: 'set-findable', id: phoneId, findable: true });
      const on = await patch(t, owner.token, phoneId, { findable: true, proof: onProof });
      expect(on.json().method.findable).toBe(true);
      expect((await lookup(t, sender.token, PHONE)).statusCode).toBe(200);
    });

    it('refuses a proof signed for the other way: a proof to turn findability off does not turn it on', async () => {
      const t = await createTestApp(db());
      const owner = await signInWithKey(t, 'sms', PHONE);
      const phoneId = (await methods(t, owner.token)).methods[0]!.id;
      const offProof = await proofOf(t, owner.token, {
        action: 'set-findable',
        id: phoneId,
        findable: false,
      });
      expectError(
        await patch(t, owner.token, phoneId, { findable: true, proof: offProof }),
        403,
        'wallet_proof_invalid',
      );
      expect((await methods(t, owner.token)).methods[0]?.findable).toBe(true);
    });

    it('asks for a change of findability without the proof: the number stays findable for 48 hours', async () => {
      const t = await createTestApp(db());
      const owner = await signInWithKey(t, 'sms', PHONE);
      const sender = await t.signIn('email', EMAIL);
      const phoneId = (await methods(t, owner.token)).methods[0]!.id;

      const asked = await patch(t, owner.token, phoneId, { findable: false });
      expect(asked.statusCode).toBe(202);
      expect(asked.json()).toEqual(pendingAnswer(t, 'set-findable', `Stop others finding you by ${PHONE}`));
      expect((await lookup(t, sender.token, PHONE)).statusCode).toBe(200);

      t.clock.advance(48 * HOUR);
      expect(await t.applyDueChanges()).toBe(1);
      const back = await t.signIn('sms', PHONE);
      expect((await methods(t, back.token)).methods[0]?.findable).toBe(false);
      const senderBack = await t.signIn('email', EMAIL);
      expectError(await lookup(t, senderBack.token, PHONE), 404, 'recipient_not_found');
    });

    it('refuses findability for an e-mail address or a wallet with 400 invalid_data and a clear message, with the proof or without', async () => {
      const t = await createTestApp(db());
      const { token, userId } = await signInWithKey(t, 'email', EMAIL);
      await linkMethod(
        db(),
        userId,
        { kind: 'wallet', value: testWallet(2).address },
        5,
        t.clock.now(),
        true,
      );
      for (const method of (await methods(t, token)).methods) {
        const proof = await proofOf(t, token, { action: 'set-findable', id: method.id, findable: true });
        for (const body of [{ findable: true, proof }, { findable: true }]) {
          const answer = await patch(t, token, method.id, body);
          expect(answer.statusCode).toBe(400);
          expect(answer.json().error).toEqual({
            code: 'invalid_data',
            message:
              'Only a phone number can be found by others (for send-to-phone); e-mail addresses and wallets never are.',
          });
        }
      }
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
    });

    it('answers 404 not_found to an attacker turning another user’s number off, with their own key’s proof or without, and changes nothing', async () => {
      const t = await createTestApp(db());
      const victim = await t.signIn('sms', PHONE);
      const victimPhone = (await methods(t, victim.token)).methods[0]!.id;
      const attacker = await signInWithKey(t, 'email', 'mallory@example.com');
      const proof = await proofOf(t, attacker.token, {
        action: 'set-findable',
        id: victimPhone,
        findable: false,
      });
      expectError(await patch(t, attacker.token, victimPhone, { findable: false, proof }), 404, 'not_found');
      expectError(await patch(t, attacker.token, victimPhone, { findable: false }), 404, 'not_found');
      expectError(await patch(t, attacker.token, randomUUID(), { findable: false }), 404, 'not_found');
      expect((await methods(t, victim.token)).methods[0]?.findable).toBe(true);
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
      const malformed = await patch(t, attacker.token, 'not-a-uuid', { findable: false });
      expect(malformed.json().error.code).toBe('invalid_data');
    });
  });

  describe('removing', () => {
    it('removes a method with the key’s proof: it no longer signs in to the account, its sessions end, and the owner and the removed number hear of it', async () => {
      const t = await createTestApp(db());
      const { token, userId } = await signInWithKey(t, 'email', EMAIL);
      await link(t, token, 'sms', PHONE);
      const phoneId = (await methods(t, token)).methods.find((method) => method.kind === 'phone')!.id;
      // A session the number started, in another browser.
      const phoneSession = await signInElsewhere(t, 'sms', PHONE);
      expect(phoneSession.json().user.id).toBe(userId);
      const before = t.transport.sent.length;

      const proof = await proofOf(t, token, { action: 'remove-method', id: phoneId });
      const removed = await remove(t, token, phoneId, proof);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ ok: true });
      expect((await methods(t, token)).methods.map((method) => method.value)).toEqual([EMAIL]);
      expect(t.transport.sent.slice(before)).toEqual([
        expect.objectContaining({
          channel: 'email',
          to: EMAIL,
          subject: 'Dial: a way to sign in was removed from your account',
        }),
        expect.objectContaining({
          channel: 'sms',
          to: PHONE,
          subject: 'Dial: a way to sign in was removed from your account',
        }),
      ]);
      const sessions = await db()
        .selectFrom('sessions')
        .select('identity_id')
        .where('user_id', '=', userId)
        .execute();
      expect(sessions.map((session) => session.identity_id)).not.toContain(phoneId);
      expect(sessions).toHaveLength(1);

      // Signing in with the number now makes a new account.
      const signIn = await signInElsewhere(t, 'sms', PHONE);
      expect(signIn.json().isNewUser).toBe(true);
      expect(signIn.json().user.id).not.toBe(userId);
    });

    it('asks to remove a method linked without proof: it signs in for 48 hours more, then it is removed with its sessions', async () => {
      const t = await createTestApp(db());
      const { token: first, userId } = await signInWithKey(t, 'email', EMAIL);
      await link(t, first, 'sms', PHONE, 'asked');
      t.clock.advance(48 * HOUR);
      expect(await t.applyDueChanges()).toBe(1);
      const { token } = await t.signIn('email', EMAIL);
      const phone = (await methods(t, token)).methods.find((method) => method.kind === 'phone')!;
      expect(phone.trusted).toBe(false);
      const phoneSession = await signInElsewhere(t, 'sms', PHONE);
      expect(phoneSession.json().user.id).toBe(userId);

      const asked = await remove(t, token, phone.id);
      expect(asked.statusCode).toBe(202);
      expect(asked.json()).toEqual(pendingAnswer(t, 'remove-method', `Remove the phone number ${PHONE}`));
      expect((await methods(t, token)).methods).toHaveLength(2);

      // The number's session is kept alive meanwhile, yet it ends with the number.
      for (const hours of [20, 20]) {
        t.clock.advance(hours * HOUR);
        expect((await t.get('/api/me', { token: phoneSession.token })).statusCode).toBe(200);
      }
      expect(await t.applyDueChanges()).toBe(0);
      t.clock.advance(8 * HOUR);
      expect(await t.applyDueChanges()).toBe(1);
      expect((await t.get('/api/me', { token: phoneSession.token })).statusCode).toBe(401);
      const back = (await t.signIn('email', EMAIL)).token;
      expect((await methods(t, back)).methods.map((method) => method.value)).toEqual([EMAIL]);
      const sessions = await db()
        .selectFrom('sessions')
        .select('identity_id')
        .where('user_id', '=', userId)
        .execute();
      expect(sessions.map((session) => session.identity_id)).not.toContain(phone.id);
    });

    it('removes a trusted method only with the key’s proof: asked without it, 403 account_proof_required and nothing recorded', async () => {
      const t = await createTestApp(db());
      const { token } = await signInWithKey(t, 'email', EMAIL);
      await link(t, token, 'sms', PHONE);
      const phoneId = (await methods(t, token)).methods.find((method) => method.kind === 'phone')!.id;
      expectError(await remove(t, token, phoneId), 403, 'account_proof_required');
      expect((await methods(t, token)).methods).toHaveLength(2);
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
    });

    it('refuses a session of a method linked without proof even asking to remove a trusted one: 403 method_outranked', async () => {
      const t = await createTestApp(db());
      const owner = await signInWithKey(t, 'email', EMAIL);
      await link(t, owner.token, 'sms', PHONE, 'asked');
      t.clock.advance(48 * HOUR);
      expect(await t.applyDueChanges()).toBe(1);
      const untrusted = await signInElsewhere(t, 'sms', PHONE);
      const emailId = (await methods(t, untrusted.token)).methods.find(
        (method) => method.kind === 'email',
      )!.id;

      expectError(await remove(t, untrusted.token, emailId), 403, 'method_outranked');
      expect((await methods(t, untrusted.token)).methods).toHaveLength(2);
      expect(await storedChanges(t, untrusted.token)).toEqual([
        { action: 'link-method', status: 'applied', outcome: null },
      ]);
    });

    it('refuses to remove the last method: 409 last_method, with the proof or without', async () => {
      const t = await createTestApp(db());
      const { token } = await signInWithKey(t, 'sms', PHONE);
      const [only] = (await methods(t, token)).methods;
      const proof = await proofOf(t, token, { action: 'remove-method', id: only!.id });
      expectError(await remove(t, token, only!.id, proof), 409, 'last_method');
      // An account without a key asks for removals: the last one is refused at once, not in two days.
      const keyless = await t.signIn('email', EMAIL);
      const [keylessOnly] = (await methods(t, keyless.token)).methods;
      expectError(await remove(t, keyless.token, keylessOnly!.id), 409, 'last_method');
      expect((await methods(t, token)).methods).toHaveLength(1);
      expect((await methods(t, keyless.token)).methods).toHaveLength(1);
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
    });

    it('answers 404 not_found to an attacker removing another user’s method, with their own key’s proof or without, and it still signs in', async () => {
      const t = await createTestApp(db());
      const victim = await t.signIn('sms', PHONE);
      const victimPhone = (await methods(t, victim.token)).methods[0]!.id;
      const attacker = await signInWithKey(t, 'email', 'mallory@example.com');
      await link(t, attacker.token, 'sms', OTHER_PHONE);
      const proof = await proofOf(t, attacker.token, { action: 'remove-method', id: victimPhone });
      expectError(await remove(t, attacker.token, victimPhone, proof), 404, 'not_found');
      expectError(await remove(t, attacker.token, victimPhone), 404, 'not_found');
      expect((await methods(t, victim.token)).methods).toHaveLength(1);
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
      expect((await signInElsewhere(t, 'sms', PHONE)).json()).toMatchObject({ isNewUser: false });
    });

    it('keeps one method when its last two are removed at once', async () => {
      const t = await createTestApp(db());
      const { token } = await signInWithKey(t, 'sms', PHONE);
      await link(t, token, 'email', EMAIL);
      const ids = (await methods(t, token)).methods.map((method) => method.id);
      // A session from before sessions recorded their method (migration 0013): neither removal ends it, so
      // both reach the count, which the user's lock keeps honest.
      await db().updateTable('sessions').set({ identity_id: null }).execute();
      const proofs: Proof[] = [];
      for (const id of ids) proofs.push(await proofOf(t, token, { action: 'remove-method', id }));
      const answers = await Promise.all(ids.map((id, i) => remove(t, token, id, proofs[i])));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.map((answer) => answer.json().error?.code).filter(Boolean)).toEqual(['last_method']);
      const left = await db().selectFrom('identities').select('kind').execute();
      expect(left).toHaveLength(1);
    });
  });
});

function patch(t: TestApp, token: string, id: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/auth/methods/${id}`,
    headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${token}` },
    payload: body as object,
  });
}
