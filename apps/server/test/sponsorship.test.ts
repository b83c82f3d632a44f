import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ENTRY_POINT_V08, LOCAL_CHAIN_ID, SIMPLE_7702_ACCOUNT } from '@dial/core';
import {
  type Bundler,
  DEV_PAYMASTER_SIGNER_ADDRESS,
  DEV_PAYMASTER_SIGNER_PRIVATE_KEY,
  type DevChain,
  DIAL_PAYMASTER_ABI,
  mintTestUsdc,
  startBundler,
  startDevChain,
} from '@dial/devchain';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  parseEther,
} from 'viem';
import {
  createBundlerClient,
  createPaymasterClient,
  formatUserOperationRequest,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../src/app.js';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import type { SponsorshipConfig } from '../src/config/index.js';
import { SIMPLE_7702_ACCOUNT_ABI } from '../src/sponsor/sponsorPolicy.js';
import { localChainConfig, personWithWallet } from './activityPeople.js';
import { viemChain } from './chainActors.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, PHONE, type TestApp } from './testApp.js';

// Sponsored fees end to end: a real local chain, the real bundler (Alto) and the app's paymaster service and
// bundler proxy, driven by viem's own bundler and paymaster clients as the web app will drive them.

const OPERATOR_TOKEN = 'operator-token-0123456789abcdef0123456789';
const BOB_PHONE = '+447400987654';
const CAROL_PHONE = '+447400555123';

let chain: DevChain;
let bundler: Bundler;
let client: PublicClient;

beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
  bundler = await startBundler({
    rpcUrl: chain.url,
    entryPoint: chain.accountAbstraction.entryPoint,
    port: 0,
  });
  client = createPublicClient({ chain: viemChain(chain), transport: http(chain.url), cacheTime: 0 });
}, 60_000);
afterAll(async () => {
  await bundler?.close();
  await chain?.close();
});

/** The local chain's sponsorship as main.ts sets it up, with `overrides`. */
function sponsorship(overrides: Partial<SponsorshipConfig> = {}): SponsorshipConfig {
  return {
    bundlerUrls: { [LOCAL_CHAIN_ID]: bundler.url },
    paymasters: { [LOCAL_CHAIN_ID]: { kind: 'dial', address: chain.accountAbstraction.paymaster } },
    signerKey: DEV_PAYMASTER_SIGNER_PRIVATE_KEY,
    calls: 'transfers',
    accountDailyLimit: 10,
    dailyCapsWei: { [LOCAL_CHAIN_ID]: parseEther('1') },
    operatorName: 'Dial Test Operator',
    operatorToken: OPERATOR_TOKEN,
    ...overrides,
  };
}

/** A user operation as the RPC writes it, for the policy's checks (its EIP-7702 authorization unsigned). */
function rpcOperation(sender: Address, calls: { to: Address; value?: bigint; data?: Hex }[], nonce = 0n) {
  const callData =
    calls.length === 1
      ? encodeFunctionData({
          abi: SIMPLE_7702_ACCOUNT_ABI,
          functionName: 'execute',
          args: [calls[0]!.to, calls[0]!.value ?? 0n, calls[0]!.data ?? '0x'],
        })
      : encodeFunctionData({
          abi: SIMPLE_7702_ACCOUNT_ABI,
          functionName: 'executeBatch',
          args: [
            calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' })),
          ],
        });
  return {
    sender,
    nonce: numberToHex(nonce),
    factory: '0x7702',
    factoryData: '0x',
    callData,
    callGasLimit: '0x10000',
    verificationGasLimit: '0x10000',
    preVerificationGas: '0x10000',
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x3b9aca00',
    eip7702Auth: {
      address: SIMPLE_7702_ACCOUNT,
      chainId: numberToHex(LOCAL_CHAIN_ID),
      nonce: '0x0',
      r: '0x01',
      s: '0x01',
      yParity: '0x0',
    },
  };
}

/** The max cost of {@link rpcOperation}'s operations once Dial's paymaster gas is added (1 gwei a gas). */
const SYNTHETIC_MAX_COST = (3n * 0x10000n + 60_000n) * 1_000_000_000n;

function usdcTransfer(to: Address, amount: bigint): { to: Address; data: Hex } {
  return {
    to: chain.usdc,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
  };
}

function newAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

describe.each(DIALECTS)('sponsored fees on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function sponsorApp(overrides: Partial<SponsorshipConfig> = {}, deps: AppDeps = {}) {
    // The chain's clock is the real one: so is the app's, for the paymaster signature's window.
    return createTestApp(db(), {
      config: { ...localChainConfig(chain), sponsorship: sponsorship(overrides) },
      deps: { now: () => new Date(), ...deps },
    });
  }

  /** Listens on a free loopback port: viem's clients call the app over HTTP. */
  async function listen(t: TestApp): Promise<string> {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }

  /** viem's bundler client for `token`'s session, through the app's bundler proxy and paymaster service. */
  function sponsoredClient(url: string, token: string) {
    const headers = { cookie: `${SESSION_COOKIE}=${token}`, origin: ORIGIN };
    return createBundlerClient({
      client,
      transport: http(`${url}/api/bundler/${LOCAL_CHAIN_ID}`, { fetchOptions: { headers } }),
      paymaster: createPaymasterClient({
        transport: http(`${url}/api/paymaster`, { fetchOptions: { headers } }),
      }),
      pollingInterval: 50,
    });
  }

  function paymasterCall(t: TestApp, token: string, method: string, operation: unknown, id = 1) {
    return t.post(
      '/api/paymaster',
      { jsonrpc: '2.0', id, method, params: [operation, ENTRY_POINT_V08, numberToHex(LOCAL_CHAIN_ID), null] },
      { token },
    );
  }

  async function personWithKey(t: TestApp, phone: string) {
    const owner = privateKeyToAccount(generatePrivateKey());
    const person = await personWithWallet(t, db(), 'sms', phone, owner.address);
    return { ...person, owner };
  }

  it('pays for a USDC transfer from a wallet without ETH, end to end through /api/paymaster and /api/bundler', async () => {
    const t = await sponsorApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const alice = await personWithKey(t, PHONE);
    await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to: alice.owner.address,
      amount: 25_000_000n,
    });
    const recipient = newAddress();

    const fees = await t.get(`/api/wallet/fees?chainId=${LOCAL_CHAIN_ID}`, { token: alice.token });
    expect(fees.json()).toEqual({
      chainId: LOCAL_CHAIN_ID,
      userOperations: true,
      entryPoint: ENTRY_POINT_V08,
      implementation: SIMPLE_7702_ACCOUNT,
      sponsored: true,
      operatorName: 'Dial Test Operator',
      sponsoredLeftToday: 10,
      notSponsoredReason: null,
    });

    const headers = { cookie: `${SESSION_COOKIE}=${alice.token}`, origin: ORIGIN };
    const account = await toSimple7702SmartAccount({ client, owner: alice.owner });
    const bundlerClient = createBundlerClient({
      client,
      transport: http(`${url}/api/bundler/${LOCAL_CHAIN_ID}`, { fetchOptions: { headers } }),
      paymaster: createPaymasterClient({
        transport: http(`${url}/api/paymaster`, { fetchOptions: { headers } }),
      }),
      pollingInterval: 50,
    });
    const authorization = await alice.owner.signAuthorization({
      chainId: chain.chainId,
      nonce: await client.getTransactionCount({ address: alice.owner.address }),
      contractAddress: SIMPLE_7702_ACCOUNT,
    });
    const hash = await bundlerClient.sendUserOperation({
      account,
      calls: [usdcTransfer(recipient, 10_000_000n)],
      authorization,
    });
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 });
    expect(receipt.success).toBe(true);
    expect(receipt.paymaster).toBe(chain.accountAbstraction.paymaster);
    const balanceOf = (address: Address) =>
      client.readContract({ address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
    expect(await balanceOf(recipient)).toBe(10_000_000n);
    expect(await balanceOf(alice.owner.address)).toBe(15_000_000n);
    expect(await client.getBalance({ address: alice.owner.address })).toBe(0n);

    // Recorded under the operation's own hash, as the EntryPoint names it.
    const rows = await db().selectFrom('sponsorships').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: alice.userId, user_op_hash: hash.toLowerCase(), tx_hash: null });

    // The report reads the actual cost from the chain, and counts it beside the max cost.
    const report = await t.get('/api/admin/sponsorships?days=2', {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(report.statusCode).toBe(200);
    const [row] = report.json().rows;
    expect(report.json().rows).toHaveLength(1);
    expect(row).toMatchObject({
      chainId: LOCAL_CHAIN_ID,
      count: 1,
      settled: 1,
      actualCostWei: receipt.actualGasCost.toString(),
      maxCostWei: rows[0]!.max_cost_wei,
      capWei: parseEther('1').toString(),
      cap: '1',
      accounts: [{ userId: alice.userId, count: 1 }],
    });
    expect(BigInt(row.actualCostWei)).toBeGreaterThan(0n);
    expect(BigInt(row.actualCostWei)).toBeLessThanOrEqual(BigInt(row.maxCostWei));
    const settled = await db().selectFrom('sponsorships').select('tx_hash').executeTakeFirstOrThrow();
    expect(settled.tx_hash).toBe(receipt.receipt.transactionHash.toLowerCase());
    const left = await t.get(`/api/wallet/fees?chainId=${LOCAL_CHAIN_ID}`, { token: alice.token });
    expect(left.json().sponsoredLeftToday).toBe(9);

    // A paymaster signature pays for its own operation only: another operation (same nonce, other calls)
    // carrying it, signed by the wallet's own key, is refused by the paymaster on chain.
    const other = await bundlerClient.prepareUserOperation({
      account,
      calls: [usdcTransfer(newAddress(), 2n)],
    });
    const paid = await bundlerClient.prepareUserOperation({
      account,
      calls: [usdcTransfer(recipient, 1n)],
      nonce: other.nonce,
    });
    const replayed = { ...other, paymasterData: paid.paymasterData };
    await expect(
      bundlerClient.request({
        method: 'eth_sendUserOperation',
        params: [
          formatUserOperationRequest({ ...replayed, signature: await account.signUserOperation(replayed) }),
          ENTRY_POINT_V08,
        ],
      }),
    ).rejects.toThrow(/AA34|signature/i);
    // The operation it was signed for (the wallet delegated already: no EIP-7702 marker) is paid for.
    const paidHash = await bundlerClient.request({
      method: 'eth_sendUserOperation',
      params: [
        formatUserOperationRequest({ ...paid, signature: await account.signUserOperation(paid) }),
        ENTRY_POINT_V08,
      ],
    });
    expect(
      (await bundlerClient.waitForUserOperationReceipt({ hash: paidHash, timeout: 30_000 })).success,
    ).toBe(true);
    expect(await balanceOf(recipient)).toBe(10_000_001n);
    expect(await client.getBalance({ address: alice.owner.address })).toBe(0n);
    // Asked twice for one nonce: counted once, recorded as the operation last signed for.
    const after = await t.get(`/api/wallet/fees?chainId=${LOCAL_CHAIN_ID}`, { token: alice.token });
    expect(after.json().sponsoredLeftToday).toBe(8);
    const recorded = await db().selectFrom('sponsorships').select('user_op_hash').execute();
    expect(recorded.map((row) => row.user_op_hash)).toContain(paidHash.toLowerCase());
  }, 90_000);

  it("each server's timer reads a sponsored operation's actual cost from the chain, without the report", async () => {
    const t = await sponsorApp({}, { sponsorshipSettleIntervalMs: 100 });
    const url = await listen(t);
    const alice = await personWithKey(t, PHONE);
    const bundlerClient = sponsoredClient(url, alice.token);
    const account = await toSimple7702SmartAccount({ client, owner: alice.owner });
    const authorization = await alice.owner.signAuthorization({
      chainId: chain.chainId,
      nonce: await client.getTransactionCount({ address: alice.owner.address }),
      contractAddress: SIMPLE_7702_ACCOUNT,
    });
    const hash = await bundlerClient.sendUserOperation({
      account,
      calls: [{ to: newAddress(), value: 0n }],
      authorization,
    });
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 });
    expect(receipt.success).toBe(true);
    await expect
      .poll(
        async () => (await db().selectFrom('sponsorships').selectAll().executeTakeFirstOrThrow()).tx_hash,
        {
          timeout: 10_000,
          interval: 100,
        },
      )
      .toBe(receipt.receipt.transactionHash.toLowerCase());
    const row = await db().selectFrom('sponsorships').selectAll().executeTakeFirstOrThrow();
    expect(row.actual_cost_wei).toBe(receipt.actualGasCost.toString());
  }, 60_000);

  it('refuses the next sponsorship past the per-account daily limit, with its code, and asking again for the same operation does not count twice', async () => {
    const t = await sponsorApp({ accountDailyLimit: 2 });
    const alice = await personWithKey(t, PHONE);
    const to = newAddress();
    for (const nonce of [0n, 1n]) {
      const operation = rpcOperation(alice.address as Address, [usdcTransfer(to, 1n)], nonce);
      const first = await paymasterCall(t, alice.token, 'pm_getPaymasterData', operation);
      expect(first.statusCode, first.body).toBe(200);
      // The same operation again: signed again, not counted again.
      const again = await paymasterCall(t, alice.token, 'pm_getPaymasterData', operation);
      expect(again.statusCode).toBe(200);
    }
    const third = rpcOperation(alice.address as Address, [usdcTransfer(to, 1n)], 2n);
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
      const refused = await paymasterCall(t, alice.token, method, third, 7);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32005, data: { code: 'sponsor_account_limit' } },
      });
      expect(refused.json().error.message).toMatch(/free sends/);
    }
    expect(await db().selectFrom('sponsorships').select('id').execute()).toHaveLength(2);
    const fees = await t.get(`/api/wallet/fees?chainId=${LOCAL_CHAIN_ID}`, { token: alice.token });
    expect(fees.json()).toMatchObject({
      sponsored: false,
      sponsoredLeftToday: 0,
      notSponsoredReason: 'account_limit',
    });
  });

  it("refuses past the chain's daily cap (counted at each operation's max cost), with its code", async () => {
    const t = await sponsorApp({ dailyCapsWei: { [LOCAL_CHAIN_ID]: (SYNTHETIC_MAX_COST * 3n) / 2n } });
    const alice = await personWithKey(t, PHONE);
    const bob = await personWithKey(t, BOB_PHONE);
    const first = await paymasterCall(
      t,
      alice.token,
      'pm_getPaymasterData',
      rpcOperation(alice.address as Address, [{ to: newAddress(), value: 1n }]),
    );
    expect(first.statusCode, first.body).toBe(200);
    const row = await db().selectFrom('sponsorships').select('max_cost_wei').executeTakeFirstOrThrow();
    expect(row.max_cost_wei).toBe(SYNTHETIC_MAX_COST.toString());
    // Another account, same chain: the cap is the chain's.
    const refused = await paymasterCall(
      t,
      bob.token,
      'pm_getPaymasterData',
      rpcOperation(bob.address as Address, [{ to: newAddress(), value: 1n }]),
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.data.code).toBe('sponsor_daily_cap');
    const stub = await paymasterCall(
      t,
      bob.token,
      'pm_getPaymasterStubData',
      rpcOperation(bob.address as Address, [{ to: newAddress(), value: 1n }]),
    );
    expect(stub.statusCode).toBe(200);
    expect(stub.json().result).toMatchObject({
      paymaster: chain.accountAbstraction.paymaster,
      sponsor: { name: 'Dial Test Operator' },
      isFinal: false,
    });
  });

  it("refuses an operation of another session's wallet, and the bundler proxy refuses to send or estimate it", async () => {
    const t = await sponsorApp();
    const alice = await personWithKey(t, PHONE);
    const bob = await personWithKey(t, BOB_PHONE);
    const bobs = rpcOperation(bob.address as Address, [{ to: newAddress(), value: 1n }]);
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
      const refused = await paymasterCall(t, alice.token, method, bobs);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.data.code).toBe('sponsor_not_allowed');
    }
    for (const method of ['eth_sendUserOperation', 'eth_estimateUserOperationGas']) {
      const refused = await t.post(
        `/api/bundler/${LOCAL_CHAIN_ID}`,
        { jsonrpc: '2.0', id: 1, method, params: [bobs, ENTRY_POINT_V08] },
        { token: alice.token },
      );
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('sponsor_not_allowed');
    }
    const other = await t.post(
      `/api/bundler/${LOCAL_CHAIN_ID}`,
      { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x00'] },
      { token: alice.token },
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().error.code).toBe('bundler_method_not_allowed');
    const passed = await t.post(
      `/api/bundler/${LOCAL_CHAIN_ID}`,
      { jsonrpc: '2.0', id: 1, method: 'eth_supportedEntryPoints', params: [] },
      { token: alice.token },
    );
    expect(passed.json().result).toEqual([ENTRY_POINT_V08]);
    const signedOut = await paymasterCall(t, 'no-such-session', 'pm_getPaymasterData', bobs);
    expect(signedOut.statusCode).toBe(401);
    expect(await db().selectFrom('sponsorships').select('id').execute()).toHaveLength(0);
  });

  it('refuses calls SPONSOR_CALLS does not pay for: an approval, a contract call, a call back into the wallet', async () => {
    const t = await sponsorApp();
    const alice = await personWithKey(t, PHONE);
    const sender = alice.address as Address;
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [newAddress(), 1n] });
    for (const calls of [
      [{ to: chain.usdc, data: approve }],
      [usdcTransfer(newAddress(), 1n), { to: chain.usdc, data: approve }],
      [{ to: chain.accountAbstraction.paymaster, data: '0xd0e30db0' as Hex }],
      [{ to: sender, value: 1n }],
    ]) {
      const refused = await paymasterCall(t, alice.token, 'pm_getPaymasterData', rpcOperation(sender, calls));
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.data.code).toBe('sponsor_not_allowed');
    }
    // Another implementation than Simple7702Account.
    const operation = rpcOperation(sender, [{ to: newAddress(), value: 1n }]);
    const elsewhere = { ...operation, eip7702Auth: { ...operation.eip7702Auth, address: newAddress() } };
    const refused = await paymasterCall(t, alice.token, 'pm_getPaymasterData', elsewhere);
    expect(refused.json().error.data.code).toBe('sponsor_not_allowed');
    // A batch of transfers of both assets is paid for.
    const batch = rpcOperation(sender, [usdcTransfer(newAddress(), 1n), { to: newAddress(), value: 1n }]);
    expect((await paymasterCall(t, alice.token, 'pm_getPaymasterData', batch)).statusCode).toBe(200);
  });

  it('with SPONSOR_CALLS=dial-accounts, pays only for sends to another Dial account', async () => {
    const t = await sponsorApp({ calls: 'dial-accounts' });
    const alice = await personWithKey(t, PHONE);
    const bob = await personWithKey(t, BOB_PHONE);
    const sender = alice.address as Address;
    const stranger = await paymasterCall(
      t,
      alice.token,
      'pm_getPaymasterData',
      rpcOperation(sender, [usdcTransfer(newAddress(), 1n)]),
    );
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error).toMatchObject({ data: { code: 'sponsor_not_allowed' } });
    expect(stranger.json().error.message).toMatch(/other Dial accounts/);
    const toBob = await paymasterCall(
      t,
      alice.token,
      'pm_getPaymasterData',
      rpcOperation(sender, [usdcTransfer(bob.address as Address, 1n)]),
    );
    expect(toBob.statusCode, toBob.body).toBe(200);
  });

  it('signs exactly the per-account limit when more operations ask at once', async () => {
    const limit = 3;
    const t = await sponsorApp({ accountDailyLimit: limit });
    const alice = await personWithKey(t, PHONE);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, nonce) =>
        paymasterCall(
          t,
          alice.token,
          'pm_getPaymasterData',
          rpcOperation(alice.address as Address, [{ to: newAddress(), value: 1n }], BigInt(nonce)),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await db().selectFrom('sponsorships').select('id').execute()).toHaveLength(limit);
    const usage = await db().selectFrom('sponsor_usage').selectAll().where('kind', '=', 'account').execute();
    expect(usage.map((row) => Number(row.count))).toEqual([limit]);
  });

  it('with PAYMASTER_URL, checks the policy first, then forwards to the ERC-7677 service and records its answer', async () => {
    const asked: { method: string; params: unknown[] }[] = [];
    const servicePaymaster = newAddress();
    const service = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
        asked.push({ method: call.method, params: call.params });
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: call.id,
            result: {
              paymaster: servicePaymaster,
              paymasterData: '0xabcdef',
              paymasterVerificationGasLimit: '0x1000',
              paymasterPostOpGasLimit: '0x10',
              ...(call.method === 'pm_getPaymasterStubData'
                ? { isFinal: false, sponsor: { name: 'Service' } }
                : {}),
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/rpc`;
      const t = await sponsorApp({
        paymasters: { [LOCAL_CHAIN_ID]: { kind: 'external', url } },
        signerKey: null,
        accountDailyLimit: 1,
      });
      const alice = await personWithKey(t, PHONE);
      const bob = await personWithKey(t, BOB_PHONE);
      const refused = await paymasterCall(
        t,
        alice.token,
        'pm_getPaymasterData',
        rpcOperation(bob.address as Address, [{ to: newAddress(), value: 1n }]),
      );
      expect(refused.json().error.data.code).toBe('sponsor_not_allowed');
      expect(asked).toEqual([]);

      const operation = rpcOperation(alice.address as Address, [{ to: newAddress(), value: 1n }]);
      const stub = await paymasterCall(t, alice.token, 'pm_getPaymasterStubData', operation);
      expect(stub.json().result).toMatchObject({ paymaster: servicePaymaster, isFinal: false });
      const data = await paymasterCall(t, alice.token, 'pm_getPaymasterData', operation);
      expect(data.statusCode, data.body).toBe(200);
      expect(data.json().result).toMatchObject({ paymaster: servicePaymaster, paymasterData: '0xabcdef' });
      expect(asked.map((call) => call.method)).toEqual(['pm_getPaymasterStubData', 'pm_getPaymasterData']);
      expect(asked[1]?.params.slice(1, 3)).toEqual([ENTRY_POINT_V08, numberToHex(LOCAL_CHAIN_ID)]);
      const row = await db().selectFrom('sponsorships').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        paymaster: servicePaymaster,
        max_cost_wei: ((3n * 0x10000n + 0x1000n + 0x10n) * 1_000_000_000n).toString(),
      });

      // Past the account's limit: refused here, the service never asked.
      const next = await paymasterCall(
        t,
        alice.token,
        'pm_getPaymasterData',
        rpcOperation(alice.address as Address, [{ to: newAddress(), value: 1n }], 1n),
      );
      expect(next.json().error.data.code).toBe('sponsor_account_limit');
      expect(asked).toHaveLength(2);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });

  it('answers not_offered where no paymaster is configured, and the paymaster refuses with sponsor_unavailable', async () => {
    const t = await sponsorApp({ paymasters: {} });
    const alice = await personWithKey(t, PHONE);
    const fees = await t.get(`/api/wallet/fees?chainId=${LOCAL_CHAIN_ID}`, { token: alice.token });
    expect(fees.json()).toMatchObject({
      userOperations: true,
      sponsored: false,
      notSponsoredReason: 'not_offered',
    });
    const refused = await paymasterCall(
      t,
      alice.token,
      'pm_getPaymasterStubData',
      rpcOperation(alice.address as Address, [{ to: newAddress(), value: 1n }]),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.data.code).toBe('sponsor_unavailable');
    // Bad input is a 400, never a 5xx: another method, a malformed operation, a malformed chain id.
    const good = rpcOperation(alice.address as Address, [{ to: newAddress(), value: 1n }]);
    for (const body of [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'pm_sponsorUserOperation',
        params: [good, ENTRY_POINT_V08, '0x7a69', null],
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'pm_getPaymasterData',
        params: [{ ...good, sender: 'me' }, ENTRY_POINT_V08, '0x7a69'],
      },
      { jsonrpc: '2.0', id: 1, method: 'pm_getPaymasterData', params: [good, ENTRY_POINT_V08, 'local'] },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'pm_getPaymasterData',
        params: [{ ...good, callData: '0x1' }, ENTRY_POINT_V08, '0x7a69'],
      },
    ]) {
      const bad = await t.post('/api/paymaster', body, { token: alice.token });
      expect(bad.statusCode, JSON.stringify(body.params[0])).toBe(400);
      expect(bad.json().error.code).toBe('invalid_data');
    }
    const noBundler = await t.get('/api/wallet/fees?chainId=8453', { token: alice.token });
    expect(noBundler.json()).toMatchObject({
      userOperations: false,
      entryPoint: null,
      notSponsoredReason: 'not_offered',
    });
    const proxy = await t.post(
      '/api/bundler/8453',
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { token: alice.token },
    );
    expect(proxy.statusCode).toBe(400);
    expect(proxy.json().error.code).toBe('bundler_unavailable');
  });

  it("a leaked signer key is retired by the paymaster's owner (setSigner): the server's signatures stop paying at once", async () => {
    const t = await sponsorApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const alice = await personWithKey(t, PHONE);
    await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to: alice.owner.address,
      amount: 5n,
    });
    const headers = { cookie: `${SESSION_COOKIE}=${alice.token}`, origin: ORIGIN };
    const bundlerClient = createBundlerClient({
      client,
      transport: http(`${url}/api/bundler/${LOCAL_CHAIN_ID}`, { fetchOptions: { headers } }),
      paymaster: createPaymasterClient({
        transport: http(`${url}/api/paymaster`, { fetchOptions: { headers } }),
      }),
      pollingInterval: 50,
    });
    const account = await toSimple7702SmartAccount({ client, owner: alice.owner });
    const authorization = await alice.owner.signAuthorization({
      chainId: chain.chainId,
      nonce: await client.getTransactionCount({ address: alice.owner.address }),
      contractAddress: SIMPLE_7702_ACCOUNT,
    });
    const owner = createWalletClient({
      chain: viemChain(chain),
      transport: http(chain.url),
      account: privateKeyToAccount(chain.faucet.privateKey),
    });
    const paymaster = { address: chain.accountAbstraction.paymaster, abi: DIAL_PAYMASTER_ABI } as const;
    const setSigner = async (signer: Address) =>
      client.waitForTransactionReceipt({
        hash: await owner.writeContract({ ...paymaster, functionName: 'setSigner', args: [signer] }),
      });
    await setSigner(newAddress());
    try {
      await expect(
        bundlerClient.sendUserOperation({ account, calls: [usdcTransfer(newAddress(), 1n)], authorization }),
      ).rejects.toThrow(/AA34|signature/i);
    } finally {
      await setSigner(DEV_PAYMASTER_SIGNER_ADDRESS);
    }
    expect(await client.readContract({ ...paymaster, functionName: 'signer' })).toBe(
      DEV_PAYMASTER_SIGNER_ADDRESS,
    );
  }, 60_000);

  it('keeps the operator report behind OPERATOR_TOKEN: 401 without it or with another, 404 when none is configured', async () => {
    const t = await sponsorApp();
    const alice = await personWithKey(t, PHONE);
    const carol = await personWithKey(t, CAROL_PHONE);
    for (const [person, nonce] of [
      [alice, 0n],
      [alice, 1n],
      [carol, 0n],
    ] as const) {
      const answer = await paymasterCall(
        t,
        person.token,
        'pm_getPaymasterData',
        rpcOperation(person.address as Address, [{ to: newAddress(), value: 1n }], nonce),
      );
      expect(answer.statusCode).toBe(200);
    }
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Basic ${OPERATOR_TOKEN}`,
      `Bearer ${OPERATOR_TOKEN}x`,
    ]) {
      const refused = await t.get('/api/admin/sponsorships', {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.code).toBe('unauthorized');
    }
    const report = await t.get('/api/admin/sponsorships', {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(report.statusCode).toBe(200);
    expect(report.json().rows).toEqual([
      {
        day: new Date().toISOString().slice(0, 10),
        chainId: LOCAL_CHAIN_ID,
        count: 3,
        maxCostWei: (SYNTHETIC_MAX_COST * 3n).toString(),
        maxCost: '0.000769824',
        // Never sent: nothing read from the chain.
        actualCostWei: '0',
        actualCost: '0',
        settled: 0,
        capWei: parseEther('1').toString(),
        cap: '1',
        accounts: [
          { userId: alice.userId, count: 2 },
          { userId: carol.userId, count: 1 },
        ],
      },
    ]);

    // The CLI prints the same from a running server.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const script = fileURLToPath(new URL('../scripts/reportSponsorships.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--url', url, '--days', '1'], {
      env: { ...process.env, OPERATOR_TOKEN },
    });
    const today = new Date().toISOString().slice(0, 10);
    expect(stdout).toContain(`Sponsored fees ${today} to ${today}`);
    expect(stdout).toMatch(new RegExp(`${today}\\s+31337\\s+3\\s+0\\.000769824\\s+0\\s+0/3\\s+1\\s+`));
    await expect(
      promisify(execFile)(process.execPath, [script, '--url', url], {
        env: { ...process.env, OPERATOR_TOKEN: 'wrong' },
      }),
    ).rejects.toThrow(/401/);

    const closed = await sponsorApp({ operatorToken: null });
    const missing = await closed.get('/api/admin/sponsorships', {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(missing.statusCode).toBe(404);
  });
});
