import {
  clampRequestExpiry,
  DialError,
  isDialError,
  SECOND_MS,
  WALLET_PROPOSAL_TTL_SECONDS,
  WALLET_SESSION_TTL_SECONDS,
} from '@dial/core';
import { SignClient } from '@walletconnect/sign-client';
import type { SessionTypes } from '@walletconnect/types';
import {
  type Address,
  ChainDisconnectedError,
  ProviderDisconnectedError,
  ProviderRpcError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
} from 'viem';
import { MemoryStorage } from './memoryStorage';
import { readSessionAccount } from './sessionAccount';
import { walletConnectNamespaces } from './walletConnectNamespaces';

/** What a dapp tells a wallet about itself (WalletConnect's `CoreTypes.Metadata`). */
export interface WalletConnectMetadata {
  name: string;
  description: string;
  /** The page's origin, e.g. `https://dial.example.com`. */
  url: string;
  icons: string[];
}

export interface ConnectWithWalletConnectOptions {
  /** The WalletConnect Cloud project id (`/api/config`'s `walletConnect.projectId`). */
  projectId: string;
  /** The relay's WebSocket URL (`/api/config`'s `walletConnect.relayUrl`). */
  relayUrl: string;
  metadata: WalletConnectMetadata;
  /** The chains to propose, e.g. the supported chains' ids; the connection uses the first one approved. */
  chainIds: readonly number[];
  /** Called once with the `wc:` link to show as a QR code, as soon as the proposal is on the relay. */
  onUri(uri: string): void;
  /** Aborting stops waiting: the promise rejects with the signal's reason and the relay socket closes. */
  signal?: AbortSignal;
}

/** An EIP-1193 request through the connection, with how long the wallet may take to answer. */
export interface WalletConnectRequestArguments {
  method: string;
  params?: unknown;
  /** The chain to ask on; the connection's `chainId` when left out. */
  chainId?: number;
  /**
   * How long the wallet may take to answer, in seconds: brought into 5 minutes to 7 days by core's
   * `clampRequestExpiry` (5 minutes when left out). The relay keeps the request that long.
   */
  expirySeconds?: number;
}

/** A wallet connected through WalletConnect. */
export interface WalletConnectConnection {
  /** The wallet's address, EIP-55 checksummed. */
  address: Address;
  /** The first proposed chain the wallet approved. */
  chainId: number;
  /** Every proposed chain the wallet approved, in the proposal's order. */
  chainIds: number[];
  /** When the connection ends, in milliseconds since 1970: at most `WALLET_SESSION_TTL_SECONDS` after approval. */
  expiresAt: number;
  /**
   * Sends an EIP-1193 request to the wallet (e.g. `personal_sign` of a sign-in message) and resolves to its
   * answer. Rejects with the standard EIP-1193 errors (viem's classes): 4001 the person refused, 4100 not
   * this account, 4200 a method the wallet did not approve, 4900 the connection ended, 4901 a chain the
   * wallet did not approve, or the wallet's own coded error; and with a `DialError`
   * `walletconnect_request_expired` when the wallet did not answer within the request's expiry, or
   * `walletconnect_session_expired` once past `expiresAt`.
   */
  request(args: WalletConnectRequestArguments): Promise<unknown>;
  /** Ends the session (the wallet is told) and closes the relay socket. Safe to call twice. */
  disconnect(): Promise<void>;
}

/** How long to wait for the relay before the QR code can be shown (the SDK tries 5 times in about 15 s). */
const RELAY_TIMEOUT_MS = 15_000;
/** WalletConnect's "user disconnected" reason (`getSdkError('USER_DISCONNECTED')`). */
const USER_DISCONNECTED = { code: 6000, message: 'User disconnected.' };
/** WalletConnect's internal "expired" error code (a proposal or request nobody answered in time). */
const SDK_EXPIRED = 6;
/** The message of a proposal that expired (`PROPOSAL_EXPIRY_MESSAGE`). */
const PROPOSAL_EXPIRED = 'Proposal expired';

type Client = Awaited<ReturnType<typeof SignClient.init>>;

/**
 * Connects a wallet on another device through WalletConnect (`@walletconnect/sign-client`): proposes a
 * session on the `eip155` chains given, hands the `wc:` link to `onUri` (for a QR code), and resolves once
 * the wallet approves. The proposal lasts `WALLET_PROPOSAL_TTL_SECONDS` (5 minutes); the session
 * `WALLET_SESSION_TTL_SECONDS` (7 days) at most, whatever the wallet says; each request carries an expiry
 * from `clampRequestExpiry`.
 *
 * Nothing here reaches WalletConnect's other services: telemetry is off, and Verify (which would load an
 * iframe from WalletConnect's server, refused by Dial's Content-Security-Policy) is not used, so a wallet
 * shows Dial's origin as unverified. The client keeps its keys in memory only, for the page's lifetime.
 *
 * @returns The connection.
 * @throws {DialError} `walletconnect_unavailable` when the relay cannot be reached (no QR code within 15
 * seconds, or it refused the connection); `walletconnect_proposal_expired` when the wallet did not approve
 * within 5 minutes; `user_rejected` when the person refused in the wallet; `unsupported_chain` when the
 * wallet approved none of the chains; `invalid_data` for an empty chain list. Rejects with `signal.reason`
 * when aborted.
 *
 * @example
 * ```ts
 * const connection = await connectWithWalletConnect({
 *   projectId, relayUrl, chainIds: [8453, 137],
 *   metadata: { name: 'Dial', description: 'Dial', url: location.origin, icons: [] },
 *   onUri: (uri) => showQrCode(uri),
 * });
 * const signature = await connection.request({ method: 'personal_sign', params: [message, connection.address] });
 * ```
 */
export async function connectWithWalletConnect(
  options: ConnectWithWalletConnectOptions,
): Promise<WalletConnectConnection> {
  const { signal } = options;
  signal?.throwIfAborted();
  const optionalNamespaces = walletConnectNamespaces(options.chainIds);
  const prefix = `dial-${randomHex(8)}`;
  const client = await SignClient.init({
    projectId: options.projectId,
    relayUrl: options.relayUrl,
    metadata: options.metadata,
    // Its own name: the SDK keeps one process-wide core per name, and each attempt starts afresh.
    customStoragePrefix: prefix,
    storage: new MemoryStorage(),
    telemetryEnabled: false,
    logger: 'silent',
  });
  // Verify would load an iframe from WalletConnect's server for an attestation; the proposal goes without.
  client.core.verify.register = async () => '';

  let connected = false;
  try {
    const { uri, approval } = await race(
      client.connect({ optionalNamespaces }),
      signal,
      RELAY_TIMEOUT_MS,
      () => new DialError('walletconnect_unavailable', { details: `no answer from ${options.relayUrl}` }),
    ).catch((error: unknown) => {
      if (isDialError(error) || signal?.aborted) throw error;
      throw new DialError('walletconnect_unavailable', { cause: error });
    });
    if (uri === undefined)
      throw new DialError('internal_error', { details: 'WalletConnect gave no pairing link' });
    options.onUri(uri);
    const session = await race(
      approval().catch((error: unknown) => {
        throw toProposalError(error);
      }),
      signal,
      WALLET_PROPOSAL_TTL_SECONDS * SECOND_MS,
      () => new DialError('walletconnect_proposal_expired'),
    );
    const account = readSessionAccount(session.namespaces, options.chainIds);
    connected = true;
    return createConnection(client, prefix, session, account);
  } catch (error) {
    if (!connected) await shutdown(client, prefix);
    throw error;
  }
}

function createConnection(
  client: Client,
  prefix: string,
  session: SessionTypes.Struct,
  account: ReturnType<typeof readSessionAccount>,
): WalletConnectConnection {
  const { topic } = session;
  const expiresAt = Math.min(session.expiry * SECOND_MS, Date.now() + WALLET_SESSION_TTL_SECONDS * SECOND_MS);
  let ended = false;

  const end = async () => {
    if (ended) return;
    ended = true;
    client.off('session_delete', onEnded);
    client.off('session_expire', onEnded);
    await shutdown(client, prefix);
  };
  const onEnded = (event: { topic: string }) => {
    if (event.topic === topic) void end();
  };
  const disconnect = async () => {
    if (ended) return;
    await race(
      client.disconnect({ topic, reason: USER_DISCONNECTED }),
      undefined,
      2_000,
      () => new Error('timeout'),
    ).catch(() => undefined);
    await end();
  };
  client.on('session_delete', onEnded);
  client.on('session_expire', onEnded);

  return {
    address: account.address,
    chainId: account.chainId,
    chainIds: account.chainIds,
    expiresAt,
    async request({ method, params, chainId = account.chainId, expirySeconds }) {
      // Before `ended`: the SDK may have dropped the expired session already.
      if (Date.now() >= expiresAt) {
        await disconnect();
        throw new DialError('walletconnect_session_expired');
      }
      if (ended) throw new ProviderDisconnectedError(new Error('The wallet connection has ended.'));
      if (!account.chainIds.includes(chainId)) {
        throw new ChainDisconnectedError(new Error(`The wallet did not approve chain ${chainId}.`));
      }
      if (!account.methods.includes(method)) {
        throw new UnsupportedProviderMethodError(new Error(`The wallet did not approve ${method}.`), {
          method,
        });
      }
      try {
        return await client.request({
          topic,
          chainId: `eip155:${chainId}`,
          request: { method, params: params ?? [] },
          expiry: clampRequestExpiry(expirySeconds),
        });
      } catch (error) {
        throw toRequestError(error, ended);
      }
    },
    disconnect,
  };
}

/** `bytes` random bytes in hex (not `crypto.randomUUID`: a page on a plain-http LAN address lacks it). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

/** Stops the client: its heartbeat, its relay socket, and the SDK's process-wide reference to its core. */
async function shutdown(client: Client, prefix: string): Promise<void> {
  client.core.heartbeat.stop();
  await client.core.relayer.transportClose().catch(() => undefined);
  const global = globalThis as Record<string, unknown>;
  delete global[`_walletConnectCore_${prefix}`];
  delete global[`_walletConnectCore_${prefix}_count`];
}

/**
 * Waits for `promise`, at most `timeoutMs` (then rejects with `onTimeout()`), and no longer than `signal`
 * allows (then rejects with its reason).
 */
function race<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(onTimeout())), timeoutMs);
    const onAbort = () => finish(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    function finish(settle: () => void) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    }
    promise.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

function codeOf(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}

function messageOf(error: unknown): string {
  const message =
    typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(error);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(messageOf(error));
}

/** WalletConnect's "the person refused" codes: 5000, and 5001–5003 for chains, methods, events. */
function isRefusal(code: number | undefined): boolean {
  return code === 4001 || (code !== undefined && code >= 5000 && code <= 5003);
}

/** What the SDK's `approval()` rejected with, as a catalogue error. */
function toProposalError(error: unknown): DialError {
  const code = codeOf(error);
  if (code === SDK_EXPIRED || messageOf(error) === PROPOSAL_EXPIRED) {
    return new DialError('walletconnect_proposal_expired', { cause: error });
  }
  if (isRefusal(code)) return new DialError('user_rejected', { cause: error });
  // 5100: the wallet supports none of the proposed chains.
  if (code === 5100) return new DialError('unsupported_chain', { cause: error });
  return new DialError('internal_error', { cause: error, details: messageOf(error) });
}

/** What the SDK's `request()` rejected with, as an EIP-1193 error (or a catalogue error for an expiry). */
function toRequestError(error: unknown, ended: boolean): Error {
  const code = codeOf(error);
  if (code === SDK_EXPIRED) return new DialError('walletconnect_request_expired', { cause: error });
  const cause = asError(error);
  if (isRefusal(code)) return new UserRejectedRequestError(cause);
  if (code === 4100) return new UnauthorizedProviderError(cause);
  // 4200 and JSON-RPC -32601: an unsupported method; 5101: one the session does not allow.
  if (code === 4200 || code === -32601 || code === 5101) return new UnsupportedProviderMethodError(cause);
  if (code === undefined) {
    // No code: the SDK itself refused, e.g. the session was deleted meanwhile.
    return ended ? new ProviderDisconnectedError(cause) : cause;
  }
  return new ProviderRpcError(cause, { code, shortMessage: messageOf(error) });
}
