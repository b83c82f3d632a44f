import {
  type Address,
  BundleTooLargeError,
  type Chain,
  type Client,
  concat,
  custom,
  DuplicateIdError,
  type EIP1193RequestFn,
  type Hex,
  HttpRequestError,
  http,
  InternalRpcError,
  InvalidParamsRpcError,
  isAddress,
  isHex,
  type LocalAccount,
  numberToHex,
  type PrivateKeyAccount,
  type Transport,
  UnknownBundleIdError,
  UnsupportedChainIdError,
  UnsupportedNonOptionalCapabilityError,
} from 'viem';
import {
  type BundlerClient,
  type BundlerClientConfig,
  createBundlerClient,
  createPaymasterClient,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction';
import { getCode, getTransactionCount } from 'viem/actions';
import { type CallsLocation, decodeCallsId, encodeCallsId, MAX_CALLS_PER_BATCH } from './callsId.js';
import { SIMPLE_7702_ACCOUNT } from './dialPaymaster.js';

/**
 * A paymaster as functions, as viem takes it: a paymaster client (`createPaymasterClient`) or any object
 * with ERC-7677's `getPaymasterStubData` (for gas estimation) and `getPaymasterData` (the final data).
 */
export type EmbeddedPaymaster = Exclude<NonNullable<BundlerClientConfig['paymaster']>, true>;

/**
 * How the wallet sends calls on one chain as one ERC-4337 user operation of its EIP-7702 smart account
 * (eth-infinitism's `Simple7702Account` with EntryPoint v0.8), for EIP-5792's `wallet_sendCalls`.
 */
export interface EmbeddedUserOperations {
  /**
   * The ERC-4337 bundler's JSON-RPC: a URL (in a browser it may be relative, e.g. `/api/bundler/8453`) or a
   * request function.
   */
  bundler: string | EIP1193RequestFn;
  /**
   * The operator's paymaster, which pays the network fee of every user operation when set: an ERC-7677
   * paymaster service's URL (e.g. `/api/paymaster`) or paymaster functions. Without it the wallet pays,
   * unless the app's own paymaster is used (see `allowAppPaymaster`).
   */
  paymaster?: string | EmbeddedPaymaster;
  /** ERC-7677's `context` sent to the operator's paymaster (a policy's id, say). */
  paymasterContext?: unknown;
  /**
   * Whether an app's EIP-5792 `paymasterService` capability (an ERC-7677 URL and context) is used for its
   * calls, in place of the operator's paymaster. Off by default: the app's paymaster service then is refused
   * (5700), or ignored when the app marked it optional.
   */
  allowAppPaymaster?: boolean;
}

/** Who pays a `wallet_sendCalls` user operation's network fee, as the approval request tells. */
export type CallsFeePayer = 'operator' | 'app' | 'wallet';

/** How long a batch waits for the one before it that carries the wallet's delegation to land. */
const DELEGATION_WAIT_MS = 60_000;

/** How often the bundler is asked whether that batch landed. */
const RECEIPT_POLLING_MS = 500;

/** The longest app-chosen batch id, in characters (EIP-5792 bounds it at 4096 bytes). */
const MAX_APP_ID_LENGTH = 4096;

/** What the EIP-5792 methods need of the provider they are part of. */
export interface EmbeddedCallsOptions {
  address: Address;
  chains: readonly Chain[];
  /** The user-operation set-up of a chain, or undefined where the chain has none. */
  userOperations: (chain: Chain) => EmbeddedUserOperations | undefined;
  /** The client of a chain's own JSON-RPC (reads: code, nonces, receipts). */
  clientOf: (chain: Chain) => Client;
  /** The provider's approval path: throws 4001 when the person refuses. */
  askApproval: (method: string, params: unknown, chain: Chain, feePayer: CallsFeePayer) => Promise<void>;
  /** The signing account, checked to be the wallet's. */
  loadAccount: () => Promise<LocalAccount>;
  /** Throws 4100 unless `value` is the wallet's address. */
  requireOwnAddress: (value: unknown) => void;
  /** Shows the calls of an id to the person (`wallet_showCallsStatus`); without it that method is 4200. */
  showCallsStatus?: ((id: string, location: CallsLocation) => void | Promise<void>) | undefined;
}

/** The EIP-5792 methods of the embedded provider: see {@link createEmbeddedCalls}. */
export interface EmbeddedCalls {
  getCapabilities(params: unknown): Promise<Record<Hex, Record<string, unknown>>>;
  sendCalls(params: unknown): Promise<{ id: string }>;
  getCallsStatus(params: unknown): Promise<CallsStatus>;
  /** Undefined when the provider has no `showCallsStatus` callback. */
  showCallsStatus: ((params: unknown) => Promise<null>) | undefined;
}

/** EIP-5792's `wallet_getCallsStatus` answer (version 2.0.0). */
export interface CallsStatus {
  version: '2.0.0';
  id: string;
  chainId: Hex;
  /** 100 pending, 200 confirmed, 500 reverted on chain (only the fee was paid). */
  status: 100 | 200 | 500;
  /** Always true: the calls run in one user operation, all or none. */
  atomic: true;
  receipts?: CallReceipt[];
}

/** One receipt of EIP-5792's answer: the user operation's own outcome and logs, in its bundle's transaction. */
export interface CallReceipt {
  logs: { address: Address; data: Hex; topics: Hex[] }[];
  status: '0x1' | '0x0';
  blockHash: Hex;
  blockNumber: Hex;
  /** The gas the user operation used (`actualGasUsed`), not its whole bundle's. */
  gasUsed: Hex;
  transactionHash: Hex;
}

interface ParsedCall {
  to: Address;
  value: bigint;
  data: Hex;
}

interface PaymasterChoice {
  feePayer: CallsFeePayer;
  paymaster: EmbeddedPaymaster | undefined;
  context: unknown;
}

/** EIP-7702's delegation designator of an account delegated to Simple7702Account. */
const DELEGATION_CODE = concat(['0xef0100', SIMPLE_7702_ACCOUNT]).toLowerCase();

/**
 * The EIP-5792 methods (`wallet_getCapabilities`, `wallet_sendCalls`, `wallet_getCallsStatus`,
 * `wallet_showCallsStatus`) of the embedded wallet's provider, on the chains where `userOperations` gives a
 * bundler.
 *
 * The calls of a batch go out as one user operation of the wallet's EIP-7702 smart account: the key delegates
 * to Simple7702Account (the authorization is signed with the first batch on a chain), keeps its address, and
 * runs the calls with `executeBatch`, so a batch is always atomic. A batch's id is the user operation's hash
 * followed by the chain id (64 bytes in hex), so its status can be read by any provider of the wallet with
 * the same set-up, with no state. Three things are kept per provider instance only: the ids an app chose
 * itself (`id` of `wallet_sendCalls`, mapped to the user operation); which batches this instance sent, so
 * that one the bundler holds but has not yet bundled reads as pending (ERC-4337's methods cannot tell it from
 * an unknown one; another instance sees it as unknown, 5730, until it lands, a matter of seconds); and the
 * turn of its batches on each chain while the delegation is in flight.
 */
export function createEmbeddedCalls(options: EmbeddedCallsOptions): EmbeddedCalls {
  const { address, chains } = options;
  const bundlers = new Map<number, BundlerClient>();
  const appIds = new Map<string, CallsLocation | 'sending'>();
  const sent = new Set<string>();
  /** Per chain: settles when the batch before may no longer carry the delegation in flight (see sendUserOperation). */
  const turns = new Map<number, Promise<void>>();

  function setUpOf(chain: Chain): EmbeddedUserOperations | undefined {
    return options.userOperations(chain);
  }

  function bundlerOf(chain: Chain, setUp: EmbeddedUserOperations): BundlerClient {
    let bundler = bundlers.get(chain.id);
    if (bundler === undefined) {
      const transport: Transport =
        typeof setUp.bundler === 'string'
          ? answeredHttp(setUp.bundler)
          : custom({ request: setUp.bundler }, { retryCount: 0 });
      bundler = createBundlerClient({
        client: options.clientOf(chain),
        chain,
        transport,
        pollingInterval: RECEIPT_POLLING_MS,
      });
      bundlers.set(chain.id, bundler);
    }
    return bundler;
  }

  /** Whether the wallet is delegated to Simple7702Account on `chain` (its code is the designator). */
  async function isDelegated(chain: Chain): Promise<boolean> {
    const code = await getCode(options.clientOf(chain), { address });
    return code?.toLowerCase() === DELEGATION_CODE;
  }

  async function getCapabilities(params: unknown): Promise<Record<Hex, Record<string, unknown>>> {
    const [account, chainIds] = Array.isArray(params) ? params : [];
    if (account !== undefined && account !== null) options.requireOwnAddress(account);
    let wanted: Set<bigint> | undefined;
    if (chainIds !== undefined && chainIds !== null) {
      if (!Array.isArray(chainIds) || !chainIds.every(isQuantity)) {
        throw new InvalidParamsRpcError(
          new Error('wallet_getCapabilities expects [address, chainIds?], the chain ids in hex.'),
        );
      }
      wanted = new Set(chainIds.map((id) => BigInt(id)));
    }
    const answered = chains.filter(
      (chain) => (wanted === undefined || wanted.has(BigInt(chain.id))) && setUpOf(chain) !== undefined,
    );
    const entries = await Promise.all(
      answered.map(async (chain) => {
        const setUp = setUpOf(chain) as EmbeddedUserOperations;
        // "ready": the wallet can batch once the person approves the upgrade, which the first batch carries.
        const capabilities: Record<string, unknown> = {
          atomic: { status: (await isDelegated(chain)) ? 'supported' : 'ready' },
        };
        if (setUp.paymaster !== undefined || setUp.allowAppPaymaster === true) {
          capabilities.paymasterService = { supported: true };
        }
        return [numberToHex(chain.id), capabilities] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  async function sendCalls(params: unknown): Promise<{ id: string }> {
    const [request] = Array.isArray(params) ? params : [];
    if (!isRecord(request)) {
      throw new InvalidParamsRpcError(
        new Error('wallet_sendCalls expects [{ version, chainId, calls, … }].'),
      );
    }
    if (request.version !== '2.0.0') {
      throw new InvalidParamsRpcError(
        new Error(`wallet_sendCalls speaks version "2.0.0", not ${JSON.stringify(request.version)}.`),
      );
    }
    if (request.from !== undefined && request.from !== null) options.requireOwnAddress(request.from);
    if (!isQuantity(request.chainId)) {
      throw new InvalidParamsRpcError(new Error('wallet_sendCalls expects chainId in hex.'));
    }
    const chain = chains.find((candidate) => BigInt(candidate.id) === BigInt(request.chainId as Hex));
    const setUp = chain === undefined ? undefined : setUpOf(chain);
    if (chain === undefined || setUp === undefined) {
      throw new UnsupportedChainIdError(
        new Error(`This wallet does not send calls on chain ${String(request.chainId)}.`),
      );
    }
    if (request.atomicRequired !== undefined && typeof request.atomicRequired !== 'boolean') {
      throw new InvalidParamsRpcError(new Error('wallet_sendCalls expects atomicRequired as a boolean.'));
    }
    const calls = parseCalls(request.calls);
    const payment = choosePaymaster(request.capabilities, setUp);
    const appId = parseAppId(request.id);

    if (appId !== undefined) {
      if (appIds.has(appId)) {
        throw new DuplicateIdError(
          new Error(`A batch with the id ${JSON.stringify(appId)} was sent already.`),
        );
      }
      appIds.set(appId, 'sending');
    }
    try {
      await options.askApproval('wallet_sendCalls', params, chain, payment.feePayer);
      const hash = await sendUserOperation(chain, setUp, calls, payment);
      const location = { chainId: chain.id, userOperationHash: hash };
      const id = encodeCallsId(location);
      sent.add(id);
      if (appId !== undefined) appIds.set(appId, location);
      return { id: appId ?? id };
    } catch (error) {
      if (appId !== undefined) appIds.delete(appId);
      throw error;
    }
  }

  /**
   * Signs and sends `calls` as one user operation: the key and what the chain says (its code, for the
   * delegation, and its nonce, for an authorization) are fetched at once; the authorization is signed only
   * while the wallet is not yet delegated; viem then prepares (nonce, fees, the paymaster, gas from the
   * bundler), signs (EIP-712 over the user operation) and sends.
   *
   * Batches on one chain take turns until they know whether the wallet is delegated; the batch that carries
   * the delegation holds the turn until it lands (at most {@link DELEGATION_WAIT_MS}), since a bundler takes
   * one authorization of a sender at a time and the next batch needs none once it has landed. Within this
   * provider instance only: another instance's first batch at the same moment may still be refused by the
   * bundler.
   */
  async function sendUserOperation(
    chain: Chain,
    setUp: EmbeddedUserOperations,
    calls: ParsedCall[],
    payment: PaymasterChoice,
  ): Promise<Hex> {
    const previous = turns.get(chain.id) ?? Promise.resolve();
    let release = () => {};
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    turns.set(
      chain.id,
      previous.then(() => turn),
    );
    await previous;
    try {
      const { hash, delegating } = await sendInTurn(chain, setUp, calls, payment, release);
      if (delegating) {
        bundlerOf(chain, setUp)
          .waitForUserOperationReceipt({ hash, timeout: DELEGATION_WAIT_MS })
          .then(release, release);
      }
      return hash;
    } catch (error) {
      release();
      throw error;
    }
  }

  async function sendInTurn(
    chain: Chain,
    setUp: EmbeddedUserOperations,
    calls: ParsedCall[],
    payment: PaymasterChoice,
    release: () => void,
  ): Promise<{ hash: Hex; delegating: boolean }> {
    const client = options.clientOf(chain) as Client<Transport, Chain>;
    const [account, delegated, nonce] = await Promise.all([
      options.loadAccount(),
      isDelegated(chain),
      getTransactionCount(client, { address, blockTag: 'pending' }),
    ]);
    if (account.signAuthorization === undefined) {
      throw new InternalRpcError(new Error('The wallet account cannot sign an EIP-7702 authorization.'));
    }
    const smartAccount = await toSimple7702SmartAccount({
      client: client as Parameters<typeof toSimple7702SmartAccount>[0]['client'],
      owner: account as PrivateKeyAccount,
      implementation: SIMPLE_7702_ACCOUNT,
    });
    // Delegated already: the next batch need not wait for this one.
    if (delegated) release();
    const authorization = delegated
      ? undefined
      : await account.signAuthorization({ chainId: chain.id, nonce, contractAddress: SIMPLE_7702_ACCOUNT });
    const hash = await bundlerOf(chain, setUp).sendUserOperation({
      account: smartAccount,
      calls,
      ...(authorization === undefined ? {} : { authorization }),
      ...(payment.paymaster === undefined
        ? {}
        : { paymaster: payment.paymaster, paymasterContext: payment.context }),
    });
    return { hash, delegating: !delegated };
  }

  /** Where an id's user operation is, or 5730 when the id is none this wallet could have given. */
  function locate(id: unknown): { key: string; location: CallsLocation; chain: Chain } {
    if (typeof id !== 'string') {
      throw new InvalidParamsRpcError(new Error('Expected [id], the id wallet_sendCalls answered.'));
    }
    const mapped = appIds.get(id);
    const location = mapped === 'sending' ? undefined : (mapped ?? decodeCallsId(id));
    const chain = location && chains.find((candidate) => candidate.id === location.chainId);
    if (location === undefined || chain === undefined || setUpOf(chain) === undefined) {
      throw new UnknownBundleIdError(new Error(`No calls were sent with the id ${id}.`));
    }
    return { key: encodeCallsId(location), location, chain };
  }

  async function getCallsStatus(params: unknown): Promise<CallsStatus> {
    const [id] = Array.isArray(params) ? params : [];
    const { key, location, chain } = locate(id);
    const bundler = bundlerOf(chain, setUpOf(chain) as EmbeddedUserOperations);
    const receipt = (await bundler.request({
      method: 'eth_getUserOperationReceipt',
      params: [location.userOperationHash],
    })) as RpcUserOperationReceipt | null;
    const answer = {
      version: '2.0.0',
      id: id as string,
      chainId: numberToHex(chain.id),
      atomic: true,
    } as const;
    if (receipt === null) {
      if (sent.has(key)) return { ...answer, status: 100 };
      throw new UnknownBundleIdError(new Error(`No calls were sent with the id ${String(id)}.`));
    }
    // The chain's own word on the bundle's transaction: gone again after a reorganisation, it is pending.
    const transaction = (await options.clientOf(chain).request({
      method: 'eth_getTransactionReceipt',
      params: [receipt.receipt.transactionHash],
    })) as { blockHash: Hex; blockNumber: Hex } | null;
    if (transaction === null) return { ...answer, status: 100 };
    const success = receipt.success === true;
    return {
      ...answer,
      status: success ? 200 : 500,
      receipts: [
        {
          logs: receipt.logs.map(({ address: emitter, data, topics }) => ({
            address: emitter,
            data,
            topics,
          })),
          status: success ? '0x1' : '0x0',
          blockHash: transaction.blockHash,
          blockNumber: transaction.blockNumber,
          gasUsed: receipt.actualGasUsed,
          transactionHash: receipt.receipt.transactionHash,
        },
      ],
    };
  }

  const show = options.showCallsStatus;
  return {
    getCapabilities,
    sendCalls,
    getCallsStatus,
    showCallsStatus:
      show === undefined
        ? undefined
        : async (params) => {
            const [id] = Array.isArray(params) ? params : [];
            const { location } = locate(id);
            await show(id as string, location);
            return null;
          },
  };
}

interface RpcUserOperationReceipt {
  success: boolean;
  actualGasUsed: Hex;
  logs: { address: Address; data: Hex; topics: Hex[] }[];
  receipt: { transactionHash: Hex };
}

function parseCalls(value: unknown): ParsedCall[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidParamsRpcError(new Error('wallet_sendCalls expects calls: a non-empty array.'));
  }
  if (value.length > MAX_CALLS_PER_BATCH) {
    throw new BundleTooLargeError(
      new Error(`${value.length} calls: this wallet sends at most ${MAX_CALLS_PER_BATCH} in one batch.`),
    );
  }
  return value.map((call, index) => {
    if (!isRecord(call)) {
      throw new InvalidParamsRpcError(new Error(`Call ${index} is not { to, value?, data? }.`));
    }
    if (call.capabilities !== undefined && call.capabilities !== null) {
      // No capability is supported per call; those marked optional are ignored.
      refuseRequired(call.capabilities, () => false);
    }
    if (typeof call.to !== 'string' || !isAddress(call.to, { strict: false })) {
      // Simple7702Account's batch calls existing addresses: it cannot create a contract.
      throw new InvalidParamsRpcError(new Error(`Call ${index} has no valid "to" address.`));
    }
    if (call.value !== undefined && call.value !== null && !isQuantity(call.value)) {
      throw new InvalidParamsRpcError(new Error(`Call ${index}'s value is not a hex quantity.`));
    }
    if (call.data !== undefined && call.data !== null && !isHex(call.data, { strict: true })) {
      throw new InvalidParamsRpcError(new Error(`Call ${index}'s data is not hex.`));
    }
    return {
      to: call.to as Address,
      value: call.value === undefined || call.value === null ? 0n : BigInt(call.value as Hex),
      data: (call.data ?? '0x') as Hex,
    };
  });
}

/**
 * The paymaster of a batch: the app's `paymasterService` where the operator allows it; else the operator's;
 * else none (the wallet pays). An app's paymaster service that is refused fails with 5700 unless it is
 * marked optional; any other capability not marked optional fails with 5700 too.
 */
function choosePaymaster(capabilities: unknown, setUp: EmbeddedUserOperations): PaymasterChoice {
  const operator: PaymasterChoice =
    setUp.paymaster === undefined
      ? { feePayer: 'wallet', paymaster: undefined, context: undefined }
      : {
          feePayer: 'operator',
          paymaster:
            typeof setUp.paymaster === 'string'
              ? createPaymasterClient({ transport: answeredHttp(setUp.paymaster) })
              : setUp.paymaster,
          context: setUp.paymasterContext,
        };
  if (capabilities === undefined || capabilities === null) return operator;
  if (!isRecord(capabilities)) {
    throw new InvalidParamsRpcError(new Error('wallet_sendCalls expects capabilities as an object.'));
  }
  refuseRequired(capabilities, (name) => name === 'paymasterService' && setUp.allowAppPaymaster === true);
  const service = capabilities.paymasterService;
  if (!isRecord(service) || setUp.allowAppPaymaster !== true) return operator;
  if (typeof service.url !== 'string' || !/^https?:\/\//i.test(service.url)) {
    throw new InvalidParamsRpcError(new Error('The paymasterService capability needs an http(s) url.'));
  }
  return {
    feePayer: 'app',
    paymaster: createPaymasterClient({ transport: answeredHttp(service.url) }),
    context: service.context,
  };
}

/**
 * viem's `http` transport to a bundler or paymaster service, where an answer that is an HTTP error without a
 * JSON-RPC error in it (Alto answers a simulation it cannot read with a bare 500) becomes -32603 with the
 * service's words: the service was reached, so it must not read as the chain being unreachable (4901).
 */
function answeredHttp(url: string): Transport {
  return (parameters) => {
    const inner = http(url)(parameters);
    const request = (async (
      args: Parameters<EIP1193RequestFn>[0],
      options?: Parameters<EIP1193RequestFn>[1],
    ) => {
      try {
        return await inner.request(args, options);
      } catch (error) {
        if (error instanceof HttpRequestError && error.status !== undefined) {
          // Not kept as the cause: the provider reads an HttpRequestError anywhere in the causes as 4901.
          throw new InternalRpcError(
            new Error(`${url} answered ${args.method} with HTTP ${error.status}: ${error.details}`),
          );
        }
        throw error;
      }
    }) as EIP1193RequestFn;
    return { ...inner, request };
  };
}

/** Fails with 5700 on the first capability that is not supported and not marked `optional: true`. */
function refuseRequired(capabilities: unknown, supported: (name: string) => boolean): void {
  if (!isRecord(capabilities)) {
    throw new InvalidParamsRpcError(new Error('Capabilities are an object of named capabilities.'));
  }
  for (const [name, value] of Object.entries(capabilities)) {
    if (supported(name) || (isRecord(value) && value.optional === true)) continue;
    throw new UnsupportedNonOptionalCapabilityError(
      new Error(`This wallet does not support the capability "${name}" here.`),
    );
  }
}

function parseAppId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '' || value.length > MAX_APP_ID_LENGTH) {
    throw new InvalidParamsRpcError(
      new Error(`wallet_sendCalls expects id as a string of 1 to ${MAX_APP_ID_LENGTH} characters.`),
    );
  }
  return value;
}

function isQuantity(value: unknown): value is Hex {
  return typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
