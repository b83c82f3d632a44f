import { createHash, randomBytes } from 'node:crypto';
import type { SiweNonce } from '@dial/api';
import { accountChangeTarget, LOCAL_CHAIN_ID } from '@dial/core';
import {
  type DevChain,
  deployTestContractWallet,
  deployTestContractWalletFactory,
  startDevChain,
  testContractWalletAddress,
  testContractWalletDeployCall,
  testContractWalletSalt,
} from '@dial/devchain';
import type { LightMyRequestResponse } from 'fastify';
import { type Address, createPublicClient, type Hex, http, serializeErc6492Signature } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { type CreateSiweMessageParameters, createSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../src/auth/devices.js';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import type { AppConfig } from '../src/config/index.js';
import { sweepExpiredRows } from '../src/db/sweepExpiredRows.js';
import { localChainConfig } from './activityPeople.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, ORIGIN, PHONE, type RequestOptions, sessionToken, type TestApp } from './testApp.js';
import { accountProof, registerWallet, testWallet } from './walletProof.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const EMAIL = 'ada@example.com';
/** The embedded wallet of accounts that prove changes with their key. */
const KEY = testWallet(1);
const SUPPORTED_CHAIN_IDS = [137, 42161, 8453, 84532, 7777777];

let chain: DevChain;
let factory: Address;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
  factory = await deployTestContractWalletFactory({ rpcUrl: chain.url, chainId: chain.chainId });
});
afterAll(async () => {
  await chain.close();
});

function newAccount(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** Asks for a sign-in nonce (or a link nonce, with a session token) as the web app does. */
async function askNonce(t: TestApp, options: RequestOptions = {}): Promise<SiweNonce> {
  const url = options.token === undefined ? '/api/auth/siwe/nonce' : '/api/auth/methods/wallet/nonce';
  const response = await t.post(url, undefined, options);
  if (response.statusCode !== 200)
    throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** The message the web app would have the wallet sign for `nonce`, on the local chain, issued now. */
function messageFor(
  t: TestApp,
  nonce: SiweNonce,
  address: Address,
  overrides: Partial<CreateSiweMessageParameters> = {},
): string {
  return createSiweMessage({
    domain: nonce.domain,
    uri: nonce.uri,
    address,
    chainId: LOCAL_CHAIN_ID,
    nonce: nonce.nonce,
    issuedAt: t.clock.now(),
    statement: nonce.statement,
    version: '1',
    ...overrides,
  });
}

/** A message for a fresh nonce, signed by `account`. */
async function signedMessage(
  t: TestApp,
  account: PrivateKeyAccount,
  overrides: Partial<CreateSiweMessageParameters> = {},
  options: RequestOptions = {},
): Promise<{ message: string; signature: Hex }> {
  const message = messageFor(t, await askNonce(t, options), account.address, overrides);
  return { message, signature: await account.signMessage({ message }) };
}

function verify(t: TestApp, body: unknown, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
  return t.post('/api/auth/siwe/verify', body, options);
}

function link(t: TestApp, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.post('/api/auth/methods/wallet', body, { token });
}

/** Signs in by e-mail and registers the account's embedded wallet {@link KEY}, whose key proves changes. */
async function signInWithKey(t: TestApp) {
  const signedIn = await t.signIn('email', EMAIL);
  expect((await registerWallet(t, signedIn.token, { wallet: KEY })).response.statusCode).toBe(201);
  return { token: signedIn.token, userId: signedIn.response.json().user.id as string };
}

/** A signed link message for `account` with the proof of that link by `signer` (the account's key). */
async function provenLink(t: TestApp, token: string, account: PrivateKeyAccount, signer = KEY) {
  const change = { action: 'link-method', kind: 'wallet', value: account.address } as const;
  const proof = await accountProof(t, token, signer, {
    action: change.action,
    target: accountChangeTarget(change),
  });
  return { ...(await signedMessage(t, account, {}, { token })), proof };
}

/** Signs in (up) with `account`'s wallet and returns the session token and the answer's body. */
async function signInWithWallet(t: TestApp, account: PrivateKeyAccount) {
  const response = await verify(t, await signedMessage(t, account));
  expect(response.statusCode).toBe(200);
  return { token: sessionToken(response), body: response.json() };
}

describe.each(DIALECTS)('Sign-In with Ethereum on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const chainApp = (config: Partial<AppConfig> = {}) =>
    createTestApp(db(), { config: { ...localChainConfig(chain), ...config } });

  describe('nonces', () => {
    it('issues 192 random bits in hex for 10 minutes, with the domain, URI and chains a message must name', async () => {
      const t = await chainApp();
      const response = await t.post('/api/auth/siwe/nonce', undefined, { device: null });
      expect(response.statusCode).toBe(200);
      const nonce: SiweNonce = response.json();
      expect(nonce).toEqual({
        nonce: expect.stringMatching(/^[0-9a-f]{48}$/),
        expiresAt: new Date(t.clock.now().getTime() + 10 * MINUTE).toISOString(),
        domain: 'localhost:8080',
        uri: 'http://localhost:8080',
        chainIds: [...SUPPORTED_CHAIN_IDS, LOCAL_CHAIN_ID],
        statement: 'Sign in to Dial with this wallet.',
      });
      expect((await askNonce(t)).nonce).not.toBe(nonce.nonce);
    });

    it('stores only the SHA-256 of a nonce, bound to the device cookie it sets', async () => {
      const t = await chainApp();
      const response = await t.post('/api/auth/siwe/nonce', undefined, { device: null });
      const device = response.cookies.find((cookie) => cookie.name === DEVICE_COOKIE);
      expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
      const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
      const rows = await db().selectFrom('siwe_nonces').selectAll().execute();
      expect(rows).toEqual([
        {
          nonce_hash: sha256(response.json().nonce),
          purpose: 'sign-in',
          device_hash: sha256(device?.value ?? ''),
          session_hash: null,
          expires_at: response.json().expiresAt,
          used_at: null,
          created_at: t.clock.now().toISOString(),
        },
      ]);
      expect(JSON.stringify(rows)).not.toContain(response.json().nonce);
    });

    it('names the loopback alias the request comes from in development', async () => {
      const t = await chainApp();
      const response = await t.post('/api/auth/siwe/nonce', undefined, {
        headers: { origin: 'http://127.0.0.1:8080' },
      });
      expect(response.json()).toMatchObject({ domain: '127.0.0.1:8080', uri: 'http://127.0.0.1:8080' });
    });

    it('offers only the supported chains while the local chain is off', async () => {
      const t = await createTestApp(db());
      expect((await askNonce(t)).chainIds).toEqual(SUPPORTED_CHAIN_IDS);
      const refused = await verify(t, await signedMessage(t, newAccount()));
      expectError(refused, 400, 'siwe_chain_unsupported');
    });

    it('sweeps nonces once expired, used or not', async () => {
      const t = await chainApp();
      await signInWithWallet(t, newAccount());
      await askNonce(t);
      t.clock.advance(5 * MINUTE);
      const fresh = await askNonce(t);
      t.clock.advance(5 * MINUTE);
      await sweepExpiredRows(db(), t.clock.now(), t.config);
      const rows = await db().selectFrom('siwe_nonces').select('nonce_hash').execute();
      expect(rows).toEqual([{ nonce_hash: createHash('sha256').update(fresh.nonce).digest('hex') }]);
    });
  });

  describe('signing in', () => {
    it('signs up a new wallet as an account of its own, with an external wallet and a wallet session', async () => {
      const t = await chainApp();
      const account = newAccount();
      const response = await verify(t, await signedMessage(t, account));
      expect(response.statusCode).toBe(200);
      const { user, isNewUser } = response.json();
      expect(isNewUser).toBe(true);
      expect(user).toMatchObject({
        phone: null,
        email: null,
        wallet: { address: account.address, kind: 'external' },
      });
      const identities = await db().selectFrom('identities').select(['kind', 'value', 'user_id']).execute();
      expect(identities).toEqual([{ kind: 'wallet', value: account.address, user_id: user.id }]);
      const sessions = await db().selectFrom('sessions').select(['user_id', 'method']).execute();
      expect(sessions).toEqual([{ user_id: user.id, method: 'wallet' }]);
      expect((await t.get('/api/me', { token: sessionToken(response) })).json().user).toEqual(user);
    });

    it('signs in to the same account the second time', async () => {
      const t = await chainApp();
      const account = newAccount();
      const first = await signInWithWallet(t, account);
      t.clock.advance(MINUTE);
      const second = await signInWithWallet(t, account);
      expect(second.body.isNewUser).toBe(false);
      expect(second.body.user.id).toBe(first.body.user.id);
      expect(second.token).not.toBe(first.token);
    });

    it('ends the session cookie the request came with (session fixation)', async () => {
      const t = await chainApp();
      const planted = (await t.signIn('email', 'mallory@example.com')).token;
      const response = await verify(t, await signedMessage(t, newAccount()), { token: planted });
      expect(response.statusCode).toBe(200);
      const fresh = sessionToken(response);
      expect(fresh).not.toBe(planted);
      expect((await t.get('/api/me', { token: planted })).statusCode).toBe(401);
      expect((await t.get('/api/me', { token: fresh })).json().user.id).toBe(response.json().user.id);
    });

    it('applies the allowlist to wallet sign-ups', async () => {
      const allowed = newAccount();
      const t = await chainApp({ allowlist: { emails: [], phones: [], wallets: [allowed.address] } });
      const refused = await verify(t, await signedMessage(t, newAccount()));
      expectError(refused, 403, 'allowlist_rejected');
      expect(await db().selectFrom('users').selectAll().execute()).toEqual([]);
      expect((await verify(t, await signedMessage(t, allowed))).statusCode).toBe(200);
    });

    it('applies the user cap to wallet sign-ups, and still signs in the wallets that have an account', async () => {
      const t = await chainApp({ maxUsers: 1 });
      const first = newAccount();
      await signInWithWallet(t, first);
      const refused = await verify(t, await signedMessage(t, newAccount()));
      expectError(refused, 403, 'max_accounts_reached');
      expect((await verify(t, await signedMessage(t, first))).statusCode).toBe(200);
    });

    it('refuses requests from another site', async () => {
      const t = await chainApp();
      const signed = await signedMessage(t, newAccount());
      const response = await verify(t, signed, { headers: { origin: 'https://evil.example' } });
      expectError(response, 403, 'forbidden_origin');
    });
  });

  describe('the message', () => {
    it.each([
      ['not a SIWE message at all', (text: string) => `hello\n${text.slice(0, 20)}`],
      ['a line added at the end', (text: string) => `${text}\nURI: https://evil.example`],
      [
        'the address in lower case',
        (text: string) => text.replace(/0x[0-9a-fA-F]{40}/, (a) => a.toLowerCase()),
      ],
      ['version 2', (text: string) => text.replace('Version: 1', 'Version: 2')],
      ['a nonce of 7 characters', (text: string) => text.replace(/Nonce: \w+/, 'Nonce: abcdefg')],
      [
        'a time that is no date',
        (text: string) => text.replace(/Issued At: .*/, 'Issued At: 2030-13-45T99:00:00Z'),
      ],
      ['a time not in toISOString form', (text: string) => text.replace(/(Issued At: .*)\.000Z/, '$1+00:00')],
      ['its statement on two lines', (text: string) => text.replace('Sign in', 'Sign\nin')],
    ])('refuses %s as siwe_message_invalid', async (_name, change) => {
      const t = await chainApp();
      const account = newAccount();
      const message = change(messageFor(t, await askNonce(t), account.address));
      const response = await verify(t, { message, signature: await account.signMessage({ message }) });
      expectError(response, 400, 'siwe_message_invalid');
    });

    it('lets line feeds through in the message, and no other control character (400 invalid_data)', async () => {
      const t = await chainApp();
      const account = newAccount();
      for (const change of [
        (text: string) => text.replaceAll('\n', '\r\n'),
        (text: string) => `${text}\u0000`,
      ]) {
        const message = change(messageFor(t, await askNonce(t), account.address));
        const response = await verify(t, { message, signature: await account.signMessage({ message }) });
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatchObject({
          code: 'invalid_data',
          message: expect.stringContaining('"message" holds a control character'),
        });
      }
    });

    it.each<[string, Partial<CreateSiweMessageParameters>]>([
      ['another site', { domain: 'evil.example', uri: 'https://evil.example' }],
      ['another port of this host', { domain: 'localhost:8081', uri: 'http://localhost:8081' }],
      ['this host with another scheme', { scheme: 'https' }],
    ])('refuses a message for %s as siwe_domain_mismatch', async (_name, overrides) => {
      const t = await chainApp();
      const response = await verify(t, await signedMessage(t, newAccount(), overrides));
      expectError(response, 400, 'siwe_domain_mismatch');
    });

    it('refuses a loopback alias in production, where only PUBLIC_URL is ours', async () => {
      const t = await chainApp({
        environment: 'production',
        publicUrl: 'https://dial.example',
        allowedOrigins: ['https://dial.example'],
      });
      const nonce = await askNonce(t, { headers: { origin: 'https://dial.example' } });
      expect(nonce).toMatchObject({ domain: 'dial.example', uri: 'https://dial.example' });
      const account = newAccount();
      const message = messageFor(t, nonce, account.address, { domain: 'localhost:8080', uri: ORIGIN });
      const response = await verify(
        t,
        { message, signature: await account.signMessage({ message }) },
        { headers: { origin: 'https://dial.example' } },
      );
      expectError(response, 400, 'siwe_domain_mismatch');
    });

    it('accepts a loopback alias in development, its scheme written, and a URI with a path on the same origin', async () => {
      const t = await chainApp();
      const alias = await verify(
        t,
        await signedMessage(t, newAccount(), {
          domain: '127.0.0.1:8080',
          uri: 'http://127.0.0.1:8080/sign-in',
        }),
      );
      expect(alias.statusCode).toBe(200);
      const withScheme = await verify(
        t,
        await signedMessage(t, newAccount(), { scheme: 'http', uri: 'http://localhost:8080/settings?x=1' }),
      );
      expect(withScheme.statusCode).toBe(200);
    });

    it.each([
      ['another origin', 'https://evil.example/'],
      ['another port', 'http://localhost:8081/'],
      ['another scheme', 'https://localhost:8080/'],
      ["the other alias's origin", 'http://127.0.0.1:8080/'],
      ['a user name before this host', 'http://evil@localhost:8080/'],
      ['no URL', 'urn:uuid:6f8e6f52-2e0b-4f11-a5d5-6a7d8f0d9c3b'],
    ])('refuses a URI of %s as siwe_uri_mismatch', async (_name, uri) => {
      const t = await chainApp();
      const response = await verify(t, await signedMessage(t, newAccount(), { uri }));
      expectError(response, 400, 'siwe_uri_mismatch');
    });

    it('refuses a chain Dial does not support (Ethereum mainnet) as siwe_chain_unsupported', async () => {
      const t = await chainApp();
      const response = await verify(t, await signedMessage(t, newAccount(), { chainId: 1 }));
      expectError(response, 400, 'siwe_chain_unsupported');
    });

    it('accepts a supported chain other than the local one (an ordinary account needs no RPC)', async () => {
      const t = await chainApp();
      const response = await verify(t, await signedMessage(t, newAccount(), { chainId: 8453 }));
      expect(response.statusCode).toBe(200);
    });

    it('refuses an issued-at more than 5 minutes ahead, or older than the nonce can be, as siwe_issued_at_invalid', async () => {
      const t = await chainApp();
      const at = (offset: number) => ({ issuedAt: new Date(t.clock.now().getTime() + offset) });
      for (const offset of [5 * MINUTE + 1000, -15 * MINUTE - 1000]) {
        const response = await verify(t, await signedMessage(t, newAccount(), at(offset)));
        expectError(response, 400, 'siwe_issued_at_invalid');
      }
      // A signer's clock a little ahead or behind is fine.
      for (const offset of [5 * MINUTE - 1000, -14 * MINUTE]) {
        expect((await verify(t, await signedMessage(t, newAccount(), at(offset)))).statusCode).toBe(200);
      }
    });

    it('refuses a message past its expiration time as siwe_expired', async () => {
      const t = await chainApp();
      const account = newAccount();
      const expirationTime = new Date(t.clock.now().getTime() + MINUTE);
      const signed = await signedMessage(t, account, { expirationTime });
      t.clock.advance(MINUTE);
      expectError(await verify(t, signed), 400, 'siwe_expired');
      const later = { expirationTime: new Date(t.clock.now().getTime() + 1000) };
      expect((await verify(t, await signedMessage(t, account, later))).statusCode).toBe(200);
    });

    it('refuses a message before its not-before time as siwe_not_yet_valid', async () => {
      const t = await chainApp();
      const account = newAccount();
      const notBefore = new Date(t.clock.now().getTime() + MINUTE);
      const signed = await signedMessage(t, account, { notBefore });
      expectError(await verify(t, signed), 400, 'siwe_not_yet_valid');
      t.clock.advance(MINUTE);
      expect((await verify(t, signed)).statusCode).toBe(200);
    });
  });

  describe('the nonce', () => {
    it('refuses a replayed message as siwe_nonce_used, and starts no session', async () => {
      const t = await chainApp();
      const signed = await signedMessage(t, newAccount());
      expect((await verify(t, signed)).statusCode).toBe(200);
      const replay = await verify(t, signed);
      expectError(replay, 400, 'siwe_nonce_used');
      expect(replay.cookies.find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
      expect(await db().selectFrom('sessions').selectAll().execute()).toHaveLength(1);
    });

    it('lets exactly one of two simultaneous submissions of a message through', async () => {
      const t = await chainApp();
      // A contract wallet's signature is checked over the RPC: both requests have found the nonce unused
      // before either uses it, so only the single conditional update tells them apart.
      const owner = newAccount();
      const endpoint = { rpcUrl: chain.url, chainId: chain.chainId };
      const wallet = await deployTestContractWallet(
        endpoint,
        factory,
        owner.address,
        testContractWalletSalt(5),
      );
      const message = messageFor(t, await askNonce(t), wallet);
      const signed = { message, signature: await owner.signMessage({ message }) };
      const answers = await Promise.all([verify(t, signed), verify(t, signed)]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, 400]);
      expectError(answers.find((answer) => answer.statusCode === 400)!, 400, 'siwe_nonce_used');
      expect(await db().selectFrom('sessions').selectAll().execute()).toHaveLength(1);
    });

    it('refuses a nonce asked for by another browser, or sent without a browser, as siwe_nonce_invalid', async () => {
      const t = await chainApp();
      const signed = await signedMessage(t, newAccount());
      expectError(await verify(t, signed, { device: newDevice() }), 400, 'siwe_nonce_invalid');
      expectError(await verify(t, signed, { device: null }), 400, 'siwe_nonce_invalid');
      // Still the owner's to use.
      expect((await verify(t, signed)).statusCode).toBe(200);
    });

    it('refuses a nonce never issued as siwe_nonce_invalid', async () => {
      const t = await chainApp();
      await askNonce(t);
      const account = newAccount();
      const madeUp = { ...(await askNonce(t)), nonce: 'a'.repeat(48) };
      const message = messageFor(t, madeUp, account.address);
      const response = await verify(t, { message, signature: await account.signMessage({ message }) });
      expectError(response, 400, 'siwe_nonce_invalid');
    });

    it('refuses a nonce after its 10 minutes as siwe_nonce_invalid', async () => {
      const t = await chainApp();
      const signed = await signedMessage(t, newAccount());
      t.clock.advance(10 * MINUTE);
      expectError(await verify(t, signed), 400, 'siwe_nonce_invalid');
    });

    it('does not sign in with a link nonce, nor link with a sign-in nonce', async () => {
      const t = await chainApp();
      const { token } = await t.signIn('email', EMAIL);
      const account = newAccount();
      const withLinkNonce = await signedMessage(t, account, {}, { token });
      expectError(await verify(t, withLinkNonce, { token }), 400, 'siwe_nonce_invalid');
      const withSignInNonce = await signedMessage(t, account);
      expectError(await link(t, token, withSignInNonce), 400, 'siwe_nonce_invalid');
    });
  });

  describe('the signature', () => {
    it("refuses another key's signature as siwe_signature_invalid, and the nonce stays usable", async () => {
      const t = await chainApp();
      const account = newAccount();
      const message = messageFor(t, await askNonce(t), account.address);
      const forged = await verify(t, { message, signature: await newAccount().signMessage({ message }) });
      expectError(forged, 401, 'siwe_signature_invalid');
      expect(
        (await verify(t, { message, signature: await account.signMessage({ message }) })).statusCode,
      ).toBe(200);
    });

    it('refuses a message changed after it was signed as siwe_signature_invalid', async () => {
      const t = await chainApp();
      const { message, signature } = await signedMessage(t, newAccount());
      const tampered = message.replace('Sign in to Dial with this wallet.', 'Sign in to Dial.');
      expect(tampered).not.toBe(message);
      expectError(await verify(t, { message: tampered, signature }), 401, 'siwe_signature_invalid');
    });

    it('refuses a signature of no whole bytes, or of the wrong length, as siwe_signature_invalid', async () => {
      const t = await chainApp();
      const { message, signature } = await signedMessage(t, newAccount());
      expectError(
        await verify(t, { message, signature: signature.slice(0, -1) }),
        401,
        'siwe_signature_invalid',
      );
      expectError(await verify(t, { message, signature: '0x1234' }), 401, 'siwe_signature_invalid');
    });

    it('signs in a deployed contract wallet whose owner signed (ERC-1271, on the local chain)', async () => {
      const t = await chainApp();
      const owner = newAccount();
      const endpoint = { rpcUrl: chain.url, chainId: chain.chainId };
      const wallet = await deployTestContractWallet(
        endpoint,
        factory,
        owner.address,
        testContractWalletSalt(1),
      );
      const message = messageFor(t, await askNonce(t), wallet);
      const byStranger = await verify(t, { message, signature: await newAccount().signMessage({ message }) });
      expectError(byStranger, 401, 'siwe_signature_invalid');
      const response = await verify(t, { message, signature: await owner.signMessage({ message }) });
      expect(response.statusCode).toBe(200);
      expect(response.json().user.wallet).toEqual({ address: wallet, kind: 'external' });
    });

    it('signs in a contract wallet not deployed yet, from its ERC-6492 signature, and deploys nothing', async () => {
      const t = await chainApp();
      const owner = newAccount();
      const salt = testContractWalletSalt(2);
      const wallet = testContractWalletAddress(factory, owner.address, salt);
      const message = messageFor(t, await askNonce(t), wallet);
      const wrap = (signature: Hex) =>
        serializeErc6492Signature({
          address: factory,
          data: testContractWalletDeployCall(owner.address, salt),
          signature,
        });
      const byStranger = await verify(t, {
        message,
        signature: wrap(await newAccount().signMessage({ message })),
      });
      expectError(byStranger, 401, 'siwe_signature_invalid');
      const response = await verify(t, { message, signature: wrap(await owner.signMessage({ message })) });
      expect(response.statusCode).toBe(200);
      expect(response.json().user.wallet.address).toBe(wallet);
      const client = createPublicClient({ transport: http(chain.url) });
      expect(await client.getCode({ address: wallet })).toBeUndefined();
    });

    it("answers 503 chain_unavailable when a contract wallet's chain cannot be reached, and keeps the nonce", async () => {
      const t = await createTestApp(db(), { config: localChainConfig(chain, 'http://127.0.0.1:1') });
      const owner = newAccount();
      const endpoint = { rpcUrl: chain.url, chainId: chain.chainId };
      const wallet = await deployTestContractWallet(
        endpoint,
        factory,
        owner.address,
        testContractWalletSalt(3),
      );
      const message = messageFor(t, await askNonce(t), wallet);
      const response = await verify(t, { message, signature: await owner.signMessage({ message }) });
      expectError(response, 503, 'chain_unavailable');
      const [row] = await db().selectFrom('siwe_nonces').select('used_at').execute();
      expect(row).toEqual({ used_at: null });
      // An ordinary account's signature is checked without the chain.
      expect((await verify(t, await signedMessage(t, newAccount()))).statusCode).toBe(200);
    });

    it('answers 503 chain_unavailable when the RPC serves another chain', async () => {
      // The dev chain (31337) configured as Base's RPC.
      const t = await chainApp({ rpcUrls: { 8453: chain.url } });
      const owner = newAccount();
      const endpoint = { rpcUrl: chain.url, chainId: chain.chainId };
      const wallet = await deployTestContractWallet(
        endpoint,
        factory,
        owner.address,
        testContractWalletSalt(4),
      );
      const message = messageFor(t, await askNonce(t), wallet, { chainId: 8453 });
      const response = await verify(t, { message, signature: await owner.signMessage({ message }) });
      expectError(response, 503, 'chain_unavailable');
    });
  });

  describe('rate limits', () => {
    /**
     * A verify call from a browser of the attacker's own (a fresh `dial_device`, its own nonce, asked from
     * `ip`) with a correct message naming `address`, and a signature that is not `address`'s.
     */
    async function badSignatureFor(
      t: TestApp,
      address: Address,
      ip: string,
      signature: (message: string) => Promise<Hex>,
      device = newDevice(),
    ): Promise<LightMyRequestResponse> {
      const message = messageFor(t, await askNonce(t, { device, ip }), address);
      return verify(t, { message, signature: await signature(message) }, { device, ip });
    }
    const strangers = (message: string) => newAccount().signMessage({ message });
    const garbage = async () => `0x${randomBytes(65).toString('hex')}` as Hex;

    it('never holds back the key holder: 20 bad signatures naming its address from fresh browsers and IP addresses, then its own signature signs in', async () => {
      const t = await chainApp();
      const victim = newAccount();
      const { body } = await signInWithWallet(t, victim);
      for (let i = 0; i < 20; i++) {
        const bad = await badSignatureFor(
          t,
          victim.address,
          `203.0.113.${i}`,
          i % 2 === 0 ? strangers : garbage,
        );
        expectError(bad, 401, 'siwe_signature_invalid');
      }
      // From the browser it signed in from before, and from a new one on another network.
      const again = await verify(t, await signedMessage(t, victim));
      expect(again.statusCode).toBe(200);
      const elsewhere = { device: newDevice(), ip: '198.51.100.1' };
      const response = await verify(t, await signedMessage(t, victim, {}, elsewhere), elsewhere);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ isNewUser: false, user: { id: body.user.id } });
    });

    it("nor a contract wallet's owner, signing from a browser and an IP address of their own", async () => {
      const t = await chainApp();
      const owner = newAccount();
      const endpoint = { rpcUrl: chain.url, chainId: chain.chainId };
      const wallet = await deployTestContractWallet(
        endpoint,
        factory,
        owner.address,
        testContractWalletSalt(6),
      );
      for (let i = 0; i < 12; i++) {
        expectError(
          await badSignatureFor(t, wallet, `203.0.113.${i}`, strangers),
          401,
          'siwe_signature_invalid',
        );
      }
      const message = messageFor(t, await askNonce(t), wallet);
      const response = await verify(t, { message, signature: await owner.signMessage({ message }) });
      expect(response.statusCode).toBe(200);
      expect(response.json().user.wallet.address).toBe(wallet);
    });

    it('limits one browser to 10 signatures the chain must check in 10 minutes, whatever its IP addresses; then even its key signs in only from another browser', async () => {
      const t = await chainApp();
      const account = newAccount();
      const device = newDevice();
      for (let i = 0; i < 10; i++) {
        const bad = await badSignatureFor(t, account.address, `203.0.113.${i}`, strangers, device);
        expectError(bad, 401, 'siwe_signature_invalid');
      }
      const limited = await badSignatureFor(t, account.address, '198.51.100.1', strangers, device);
      expectError(limited, 429, 'too_many_requests');
      expect(limited.headers['retry-after']).toBe('600');
      // The spent browser is stopped before any check, its key's signature too: its own bad signatures spent it.
      const own = await signedMessage(t, account, {}, { device, ip: '198.51.100.2' });
      expectError(await verify(t, own, { device, ip: '198.51.100.2' }), 429, 'too_many_requests');
      expect((await verify(t, await signedMessage(t, account), { ip: '198.51.100.2' })).statusCode).toBe(200);
      // The window ends.
      t.clock.advance(10 * MINUTE);
      expect((await verify(t, await signedMessage(t, account, {}, { device }), { device })).statusCode).toBe(
        200,
      );
    });

    it("limits one IPv6 /64 to 30 chain checks in 10 minutes across fresh browsers, and still signs in its keys' own signatures", async () => {
      const t = await chainApp();
      const victim = newAccount();
      // Nonces asked elsewhere (a nonce is the browser's, wherever it asks): only the verify calls share the /64.
      const fromAttacker = async (i: number, address: Address) => {
        const device = newDevice();
        const message = messageFor(t, await askNonce(t, { device, ip: `198.51.100.${i}` }), address);
        const signature = await newAccount().signMessage({ message });
        return verify(t, { message, signature }, { device, ip: `2001:db8:0:9::${i.toString(16)}` });
      };
      for (let i = 1; i <= 30; i++)
        expectError(await fromAttacker(i, victim.address), 401, 'siwe_signature_invalid');
      expectError(await fromAttacker(31, newAccount().address), 429, 'too_many_requests');
      // A key's own signature from the same /64 costs no RPC and is never counted.
      const own = await verify(t, await signedMessage(t, victim), { ip: '2001:db8:0:9::abcd' });
      expect(own.statusCode).toBe(200);
      // Another /64 has its own budget.
      const elsewhere = await badSignatureFor(t, victim.address, '2001:db8:0:a::1', strangers);
      expectError(elsewhere, 401, 'siwe_signature_invalid');
    });

    it('limits nonces to 30 per IP address in 10 minutes', async () => {
      const t = await chainApp();
      for (let i = 0; i < 30; i++) await askNonce(t, { ip: '203.0.113.7' });
      const limited = await t.post('/api/auth/siwe/nonce', undefined, { ip: '203.0.113.7' });
      expect(limited.statusCode).toBe(429);
      expect((await t.post('/api/auth/siwe/nonce', undefined, { ip: '203.0.113.8' })).statusCode).toBe(200);
    });
  });

  describe('linking a wallet', () => {
    it('links a wallet with the key’s proof at once: trusted, the owner told, and the wallet then signs in to the account', async () => {
      const t = await chainApp();
      const { token, userId } = await signInWithKey(t);
      const account = newAccount();
      const nonce = await askNonce(t, { token });
      expect(nonce.statement).toBe('Add this wallet as a way to sign in to your Dial account.');
      const message = messageFor(t, nonce, account.address);
      const change = { action: 'link-method', kind: 'wallet', value: account.address } as const;
      const proof = await accountProof(t, token, KEY, {
        action: change.action,
        target: accountChangeTarget(change),
      });
      const response = await link(t, token, {
        message,
        signature: await account.signMessage({ message }),
        proof,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        method: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          kind: 'wallet',
          value: account.address,
          findable: null,
          trusted: true,
          createdAt: t.clock.now().toISOString(),
        },
      });
      // The link leaves the session as it was, and the account's wallet is still its embedded one.
      expect(response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
      expect((await t.get('/api/me', { token })).json().user.wallet).toEqual({
        address: KEY.address,
        kind: 'embedded',
      });
      const events = await db().selectFrom('account_events').select(['user_id', 'kind']).execute();
      expect(events).toEqual([{ user_id: userId, kind: 'method-linked' }]);
      expect(t.transport.sent.at(-1)).toMatchObject({
        to: EMAIL,
        subject: 'Dial: a new way to sign in was added to your account',
      });

      const viaWallet = await signInWithWallet(t, account);
      expect(viaWallet.body).toMatchObject({ isNewUser: false, user: { id: userId, email: EMAIL } });
    });

    it('asks for a wallet link without the proof: linked after 48 hours as untrusted, never the account’s wallet until use-wallet, which waits too', async () => {
      const t = await chainApp();
      // An account without a key yet: the link can only be asked for.
      const { token, response: signedIn } = await t.signIn('email', EMAIL);
      const userId = signedIn.json().user.id;
      const account = newAccount();
      const asked = await link(t, token, await signedMessage(t, account, {}, { token }));
      expect(asked.statusCode).toBe(202);
      expect(asked.json().pending).toMatchObject({
        action: 'link-method',
        summary: `Link the wallet ${account.address}`,
        status: 'pending',
        appliesAt: new Date(t.clock.now().getTime() + 48 * HOUR).toISOString(),
      });
      expect(await db().selectFrom('identities').select('kind').execute()).toEqual([{ kind: 'email' }]);

      t.clock.advance(48 * HOUR);
      expect(await t.applyDueChanges()).toBe(1);
      // Made, it signs in to the account, but pays nobody: it is not the account's wallet.
      const viaWallet = await signInWithWallet(t, account);
      expect(viaWallet.body).toMatchObject({ isNewUser: false, user: { id: userId, wallet: null } });
      const methods = (await t.get('/api/auth/methods', { token: viaWallet.token })).json().methods;
      const wallet = methods.find((method: { kind: string }) => method.kind === 'wallet');
      expect(wallet).toMatchObject({ value: account.address, trusted: false });

      // Making it the account's wallet is a change of its own: asked for, it waits 48 hours more.
      const use = await t.post(`/api/auth/methods/${wallet.id}/use-wallet`, {}, { token: viaWallet.token });
      expect(use.statusCode).toBe(202);
      expect(use.json().pending).toMatchObject({
        action: 'use-wallet',
        summary: `Make ${account.address} the account's wallet`,
      });
      expect((await t.get('/api/me', { token: viaWallet.token })).json().user.wallet).toBeNull();
      t.clock.advance(48 * HOUR);
      expect(await t.applyDueChanges()).toBe(1);
      const later = await signInWithWallet(t, account);
      expect(later.body.user.wallet).toEqual({ address: account.address, kind: 'external' });
    });

    it('makes a linked wallet the account’s with the key’s proof at once: trusted, and then one of the keys that prove changes', async () => {
      const t = await chainApp();
      // A wallet-only account: its first wallet is its key.
      const [firstKey, secondKey] = [testWallet(5), testWallet(6)];
      const first = privateKeyToAccount(firstKey.privateKey);
      const second = privateKeyToAccount(secondKey.privateKey);
      const { token } = await signInWithWallet(t, first);
      expect((await link(t, token, await signedMessage(t, second, {}, { token }))).statusCode).toBe(202);
      t.clock.advance(48 * HOUR);
      expect(await t.applyDueChanges()).toBe(1);
      const { token: back } = await signInWithWallet(t, first);
      const methods = (await t.get('/api/auth/methods', { token: back })).json().methods;
      const wallet = methods.find((method: { value: string }) => method.value === second.address);
      expect(wallet.trusted).toBe(false);
      const use = { action: 'use-wallet', id: wallet.id } as const;
      const proofBy = (signer: typeof firstKey) =>
        accountProof(t, back, signer, { action: use.action, target: accountChangeTarget(use) });

      // The untrusted wallet cannot prove its own promotion.
      expectError(
        await t.post(
          `/api/auth/methods/${wallet.id}/use-wallet`,
          { proof: await proofBy(secondKey) },
          { token: back },
        ),
        403,
        'wallet_proof_invalid',
      );
      const made = await t.post(
        `/api/auth/methods/${wallet.id}/use-wallet`,
        { proof: await proofBy(firstKey) },
        { token: back },
      );
      expect(made.statusCode).toBe(200);
      expect(made.json().method).toMatchObject({ id: wallet.id, value: second.address, trusted: true });
      const challenge = await t.post('/api/account/proof', { action: 'remove-method' }, { token: back });
      expect(challenge.json().signers).toEqual([first.address, second.address]);
    });

    it('binds a link nonce to the session that asked: another session of the same person cannot use it', async () => {
      const t = await chainApp();
      const first = (await t.signIn('sms', PHONE)).token;
      t.clock.advance(MINUTE);
      const second = (await t.signIn('sms', PHONE)).token;
      const signed = await signedMessage(t, newAccount(), {}, { token: first });
      expectError(await link(t, second, signed), 400, 'siwe_nonce_invalid');
      // The account has no key: the link is asked for, and the nonce is used up by it.
      expect((await link(t, first, signed)).statusCode).toBe(202);
      expectError(await link(t, first, signed), 400, 'siwe_nonce_used');
    });

    it('refuses a wallet that signs in to another account as method_taken', async () => {
      const t = await chainApp();
      const account = newAccount();
      await signInWithWallet(t, account);
      const { token } = await t.signIn('email', EMAIL);
      const response = await link(t, token, await signedMessage(t, account, {}, { token }));
      expectError(response, 409, 'method_taken');
    });

    it("refuses another account's embedded wallet as method_taken, and its key signs in to that account", async () => {
      const t = await chainApp();
      const { token: ownerToken, response: owner } = await t.signIn('sms', PHONE);
      const embedded = testWallet(7);
      expect((await registerWallet(t, ownerToken, { wallet: embedded })).response.statusCode).toBe(201);
      const key = privateKeyToAccount(embedded.privateKey);

      const { token } = await t.signIn('email', EMAIL);
      expectError(await link(t, token, await signedMessage(t, key, {}, { token })), 409, 'method_taken');

      // Its key (exported, say) reaches the account it belongs to, never a second account with the address.
      const viaKey = await signInWithWallet(t, key);
      expect(viaKey.body).toMatchObject({
        user: { id: owner.json().user.id, phone: PHONE },
        isNewUser: false,
      });
      expect(viaKey.body.user.wallet).toEqual({ address: embedded.address, kind: 'embedded' });
      const wallets = await db()
        .selectFrom('identities')
        .select('value')
        .where('kind', '=', 'wallet')
        .execute();
      expect(wallets).toEqual([]);
    });

    it('refuses a wallet already linked to the account as method_already_linked', async () => {
      const t = await chainApp();
      const account = newAccount();
      const { token } = await signInWithWallet(t, account);
      const response = await link(t, token, await signedMessage(t, account, {}, { token }));
      expectError(response, 409, 'method_already_linked');
    });

    it('refuses a wallet over MAX_SIGN_IN_METHODS as methods_limit_reached, with the key’s proof or without', async () => {
      const t = await chainApp({ maxSignInMethods: 2 });
      const { token } = await signInWithKey(t);
      expect((await link(t, token, await provenLink(t, token, newAccount()))).statusCode).toBe(200);
      expectError(
        await link(t, token, await provenLink(t, token, newAccount())),
        409,
        'methods_limit_reached',
      );
      expectError(
        await link(t, token, await signedMessage(t, newAccount(), {}, { token })),
        409,
        'methods_limit_reached',
      );
      expect(await db().selectFrom('identities').selectAll().execute()).toHaveLength(2);
      expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
    });

    it('refuses a link whose signature is not the wallet’s, and links nothing', async () => {
      const t = await chainApp();
      const { token } = await t.signIn('email', EMAIL);
      const account = newAccount();
      const message = messageFor(t, await askNonce(t, { token }), account.address);
      const response = await link(t, token, {
        message,
        signature: await newAccount().signMessage({ message }),
      });
      expectError(response, 401, 'siwe_signature_invalid');
      expect(await db().selectFrom('identities').select('kind').execute()).toEqual([{ kind: 'email' }]);
    });

    it('needs a session for both routes', async () => {
      const t = await chainApp();
      expectError(await t.post('/api/auth/methods/wallet/nonce'), 401, 'unauthorized');
      expectError(
        await t.post('/api/auth/methods/wallet', await signedMessage(t, newAccount())),
        401,
        'unauthorized',
      );
    });
  });
});
