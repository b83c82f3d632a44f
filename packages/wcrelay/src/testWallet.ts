import { randomBytes } from 'node:crypto';
import { WalletKit, type WalletKitTypes } from '@reown/walletkit';
import { Core } from '@walletconnect/core';
import { buildApprovedNamespaces, getSdkError } from '@walletconnect/utils';
import {
  type Account,
  createWalletClient,
  type Hex,
  hexToBigInt,
  isHex,
  type Transport,
  UnsupportedProviderMethodError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * A wallet on "another device", for tests: WalletConnect's own wallet SDK (`@reown/walletkit`) in Node,
 * holding one key. It pairs with a `wc:` link, approves (or rejects, or ignores) each session proposal for
 * the `eip155` chains it supports, and answers `personal_sign` and `eth_sendTransaction`.
 */
export interface StartTestWalletOptions {
  /** The relay (stand-in) URL and project id, as the dapp uses them. */
  relayUrl: string;
  projectId: string;
  /** The wallet's private key, e.g. a local-chain account's (`DEV_FAUCET_PRIVATE_KEY`). */
  privateKey: Hex;
  /** The chain ids the wallet offers; the session gets those the dapp proposed too. */
  chainIds: readonly number[];
  /** What to do with a session proposal: approve it (the default), reject it, or leave it unanswered. */
  onProposal?: 'approve' | 'reject' | 'ignore';
  /** What to do with a request: answer it (the default), reject it (4001), or leave it unanswered. */
  onRequest?: 'answer' | 'reject' | 'ignore';
  /** How to reach a chain, for `eth_sendTransaction`; without it the method is refused with 4200. */
  chainTransport?: (chainId: number) => Transport;
}

/** A request the wallet received. */
export interface TestWalletRequest {
  method: string;
  params: unknown;
  /** CAIP-2, e.g. `eip155:8453`. */
  chainId: string;
  /** When the dapp says the request expires, in seconds since 1970. */
  expiryTimestamp: number | undefined;
}

export interface TestWallet {
  address: Hex;
  /** Pairs with a `wc:` link, as scanning the QR code would. */
  pair(uri: string): Promise<void>;
  /** The proposals received, in order. */
  proposals: WalletKitTypes.SessionProposal[];
  /** The sessions approved, with the expiry (seconds since 1970) the wallet gave each. */
  sessions: { topic: string; expiry: number }[];
  /** The requests received, in order. */
  requests: TestWalletRequest[];
  /** Waits until `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

const PERSONAL_SIGN = 'personal_sign';
const SEND_TRANSACTION = 'eth_sendTransaction';

/**
 * Starts a {@link TestWallet}. WalletConnect's Verify API and telemetry are not reachable here, so the wallet
 * resolves no attestation (every dapp shows as `UNKNOWN`) and sends no telemetry.
 *
 * @example
 * ```ts
 * const wallet = await startTestWallet({ relayUrl: relay.url, projectId, privateKey: DEV_FAUCET_PRIVATE_KEY,
 *   chainIds: [8453] });
 * await wallet.pair(uri);
 * ```
 */
export async function startTestWallet(options: StartTestWalletOptions): Promise<TestWallet> {
  const account = privateKeyToAccount(options.privateKey);
  const core = new Core({
    projectId: options.projectId,
    relayUrl: options.relayUrl,
    // Its own name, so it never shares the process-wide core of a dapp's client in the same test.
    customStoragePrefix: `test-wallet-${randomBytes(8).toString('hex')}`,
    telemetryEnabled: false,
    logger: 'silent',
  });
  // Offline: no Verify server to ask about the dapp's origin, and no telemetry endpoint for the SDK's
  // "init" event (WalletKit sends it even with telemetry off).
  // (The SDK's type says an answer always comes; its code takes none, the answer of a Verify server that is down.)
  core.verify.resolve = (async () => undefined) as unknown as typeof core.verify.resolve;
  core.eventClient.init = async () => undefined;
  const wallet = await WalletKit.init({
    core,
    metadata: {
      name: 'Dial test wallet',
      description: 'A wallet for tests',
      url: 'https://wallet.test',
      icons: [],
    },
  });

  const proposals: WalletKitTypes.SessionProposal[] = [];
  const sessions: { topic: string; expiry: number }[] = [];
  const requests: TestWalletRequest[] = [];
  const requestWaiters: (() => void)[] = [];

  wallet.on('session_proposal', (proposal) => {
    proposals.push(proposal);
    const decision = options.onProposal ?? 'approve';
    if (decision === 'ignore') return;
    void (async () => {
      if (decision === 'reject') {
        await wallet.rejectSession({ id: proposal.id, reason: getSdkError('USER_REJECTED') });
        return;
      }
      const chains = options.chainIds.map((id) => `eip155:${id}`);
      const namespaces = buildApprovedNamespaces({
        proposal: proposal.params,
        supportedNamespaces: {
          eip155: {
            chains,
            methods: [PERSONAL_SIGN, SEND_TRANSACTION],
            events: ['accountsChanged', 'chainChanged'],
            accounts: chains.map((chain) => `${chain}:${account.address}`),
          },
        },
      });
      const session = await wallet.approveSession({ id: proposal.id, namespaces });
      sessions.push({ topic: session.topic, expiry: session.expiry });
    })();
  });

  wallet.on('session_request', (event) => {
    const { request, chainId } = event.params;
    const expiryTimestamp = (request as { expiryTimestamp?: number }).expiryTimestamp;
    requests.push({ method: request.method, params: request.params, chainId, expiryTimestamp });
    for (const wake of requestWaiters.splice(0)) wake();
    const decision = options.onRequest ?? 'answer';
    if (decision === 'ignore') return;
    void (async () => {
      const respond = (response: { result: unknown } | { error: { code: number; message: string } }) =>
        wallet.respondSessionRequest({
          topic: event.topic,
          response: { id: event.id, jsonrpc: '2.0', ...response },
        });
      if (decision === 'reject') {
        await respond({ error: { code: 4001, message: 'The person refused.' } });
        return;
      }
      try {
        await respond({ result: await answer(account, request.method, request.params, chainId, options) });
      } catch (error) {
        const code =
          typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -32603;
        await respond({ error: { code, message: error instanceof Error ? error.message : String(error) } });
      }
    })();
  });

  return {
    address: account.address,
    async pair(uri) {
      await wallet.pair({ uri });
    },
    proposals,
    sessions,
    requests,
    waitForRequests(count) {
      return new Promise((resolve) => {
        const check = () => {
          if (requests.length >= count) resolve();
          else requestWaiters.push(check);
        };
        check();
      });
    },
    async close() {
      core.heartbeat.stop();
      await core.relayer.transportClose();
    },
  };
}

async function answer(
  account: Account & { signMessage: NonNullable<Account['signMessage']> },
  method: string,
  params: unknown,
  chainId: string,
  options: StartTestWalletOptions,
): Promise<unknown> {
  const list = Array.isArray(params) ? params : [];
  if (method === PERSONAL_SIGN) {
    const [message, address] = list as [unknown, unknown];
    if (typeof address !== 'string' || address.toLowerCase() !== account.address.toLowerCase()) {
      throw Object.assign(new Error('That is not this wallet’s address.'), { code: 4100 });
    }
    if (typeof message !== 'string') throw Object.assign(new Error('No message.'), { code: -32602 });
    return account.signMessage({ message: isHex(message) ? { raw: message } : message });
  }
  if (method === SEND_TRANSACTION && options.chainTransport !== undefined) {
    const id = Number(chainId.split(':')[1]);
    const [transaction] = list as [Record<string, unknown>];
    const client = createWalletClient({ account, transport: options.chainTransport(id) });
    return client.sendTransaction({
      chain: null,
      to: transaction.to as Hex,
      ...(typeof transaction.value === 'string' ? { value: hexToBigInt(transaction.value as Hex) } : {}),
      ...(typeof transaction.data === 'string' ? { data: transaction.data as Hex } : {}),
    });
  }
  throw new UnsupportedProviderMethodError(new Error(`${method} is not supported by this wallet.`));
}
