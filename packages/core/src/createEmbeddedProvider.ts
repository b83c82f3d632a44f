import {
  type Address,
  type Chain,
  ChainDisconnectedError,
  type Client,
  createClient,
  custom,
  type EIP1193EventMap,
  type EIP1193Provider,
  type EIP1193RequestFn,
  Eip1559FeesNotSupportedError,
  getAddress,
  getTransactionType,
  HttpRequestError,
  hashTypedData,
  http,
  InternalRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  isAddress,
  isHex,
  type LocalAccount,
  MaxFeePerGasTooLowError,
  numberToHex,
  ProviderDisconnectedError,
  SocketClosedError,
  SwitchChainError,
  TimeoutError,
  type TypedDataDefinition,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
  WebSocketRequestError,
} from 'viem';
import {
  estimateFeesPerGas,
  estimateGas,
  getTransactionCount,
  prepareTransactionRequest,
} from 'viem/actions';
import type { CallsLocation } from './callsId.js';
import type { CallsFeePayer, EmbeddedCalls, EmbeddedUserOperations } from './createEmbeddedCalls.js';
import { DialError } from './errors.js';

// What an app of the provider needs to set up EIP-5792 and to read a batch's id.
export { type CallsLocation, decodeCallsId, encodeCallsId, MAX_CALLS_PER_BATCH } from './callsId.js';
export type {
  CallReceipt,
  CallsFeePayer,
  CallsStatus,
  EmbeddedPaymaster,
  EmbeddedUserOperations,
} from './createEmbeddedCalls.js';

import { findCause } from './findCause.js';
import { parseTransactionParam, type TransactionParam } from './parseTransactionParam.js';

/** What {@link EmbeddedProviderOptions.approve} is asked to approve. */
export interface EmbeddedProviderApprovalRequest {
  /** The JSON-RPC method, e.g. `'personal_sign'` or `'eth_sendTransaction'`. */
  method: string;
  /** The request's params, exactly as the app sent them. */
  params: unknown;
  /** The id of the chain the request is for (the provider's current chain; for `wallet_sendCalls` its `chainId`). */
  chainId: number;
  /**
   * For `wallet_sendCalls` only: who pays the network fee of its user operation, the operator's paymaster,
   * the app's (its `paymasterService`), or the wallet itself.
   */
  feePayer?: CallsFeePayer;
}

/** Options of {@link createEmbeddedProvider}. */
export interface EmbeddedProviderOptions {
  /** The wallet's address: the only account the provider exposes and signs for. */
  address: Address;
  /** The chains the wallet can switch to, e.g. `getChains()`. */
  chains: readonly Chain[];
  /** The id of the chain to start on; must be one of `chains`. */
  chainId: number;
  /**
   * Gives the account that signs, when a request needs a signature. It is called once for every signing
   * request and never cached by the provider, so the whole key can be rebuilt from its shares just for that
   * signature and dropped afterwards. Its address must be {@link EmbeddedProviderOptions.address}.
   */
  getAccount: () => Promise<LocalAccount>;
  /**
   * Asks the person to approve a signing or sending request (`personal_sign`, `eth_signTypedData_v4`,
   * `eth_sendTransaction`, `wallet_sendTransaction`), before `getAccount` is called. Anything but `true`
   * refuses the request with 4001. Without it every request is approved.
   */
  approve?: (request: EmbeddedProviderApprovalRequest) => Promise<boolean>;
  /**
   * Makes the JSON-RPC connection to a chain; called at most once per chain. Defaults to viem's `http`
   * transport on the chain's first default RPC URL.
   */
  transport?: (chain: Chain) => EIP1193RequestFn;
  /**
   * Turns on EIP-5792 (`wallet_getCapabilities`, `wallet_sendCalls`, `wallet_getCallsStatus`,
   * `wallet_showCallsStatus`): gives, per chain, the ERC-4337 bundler and paymaster through which a batch of
   * calls goes out as one user operation of the wallet's EIP-7702 smart account; undefined for a chain
   * without. Called at most once per chain. Without this option those methods fail with 4200, as before.
   */
  userOperations?: (chain: Chain) => EmbeddedUserOperations | undefined;
  /**
   * Shows the person the calls `wallet_sendCalls` answered `id` for (`wallet_showCallsStatus`), e.g. its
   * activity entry. Without it `wallet_showCallsStatus` fails with 4200.
   */
  showCallsStatus?: (id: string, location: CallsLocation) => void | Promise<void>;
}

/** An EIP-1193 provider for the embedded wallet: see {@link createEmbeddedProvider}. */
export type EmbeddedProvider = EIP1193Provider & {
  /**
   * Disconnects the provider for good: emits `accountsChanged` with `[]` and `disconnect` (4900); every
   * later request fails with 4900. Calling it again does nothing.
   */
  disconnect(): void;
};

/**
 * Methods that sign in forms we refuse, or need wallet state or a push channel we do not have. Any other
 * `wallet_` or `personal_` method is refused too; everything else is a read and goes to the chain's RPC.
 */
const UNSUPPORTED_METHODS: ReadonlySet<string> = new Set([
  // eth_sign signs any 32 bytes, a transaction hash included: the classic blind-signing trap.
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v1',
  'eth_signTypedData_v3',
  'eth_decrypt',
  'eth_getEncryptionPublicKey',
  'eth_subscribe',
  'eth_unsubscribe',
  'eth_sendUserOperation',
]);

type Listener = (...args: never[]) => void;

/**
 * Creates an EIP-1193 provider for Dial's embedded wallet, to hand to viem (`custom(provider)`), ethers
 * (`new BrowserProvider(provider)`) or any library that takes `window.ethereum`.
 *
 * - `eth_accounts` / `eth_requestAccounts` answer `[address]`; `eth_chainId` the current chain in hex.
 * - `wallet_switchEthereumChain` `[{ chainId }]` switches among `chains` and emits `chainChanged`; an unknown
 *   chain fails with 4902, a malformed parameter with -32602.
 * - `personal_sign` `[message, address]` (hex bytes or UTF-8 text), `eth_signTypedData_v4`
 *   `[address, typedData]` (a JSON string or an object; its `domain.chainId`, when set, must be the current
 *   chain), and `eth_sendTransaction` / `wallet_sendTransaction` `[tx]` (nonce, gas and fees filled from
 *   the chain, signed here, sent with `eth_sendRawTransaction`; answers the hash) sign with the account from
 *   `getAccount`, after `approve`. An address or `from` that is not the wallet's fails with 4100.
 * - `eth_sendRawTransaction` and every read (`eth_getBalance`, `eth_call`, `eth_estimateGas`, …) go to the
 *   current chain's RPC, errors included as it answers them.
 * - With `userOperations`, EIP-5792 (see `createEmbeddedCalls`): `wallet_getCapabilities` `[address,
 *   chainIds?]` answers, per chain with a bundler (hex chain id), `atomic` (`ready` before the wallet's first
 *   batch there, `supported` once its key is delegated to Simple7702Account) and `paymasterService` where a
 *   paymaster can be used; `wallet_sendCalls` (version 2.0.0) sends the calls as one EIP-7702 user operation
 *   through the bundler, after `approve` (method `wallet_sendCalls`, with `feePayer`), signing the delegation
 *   with the first batch, and answers `{ id }`; `wallet_getCallsStatus` answers EIP-5792's status (100, 200,
 *   500) from the bundler's receipt and the chain; `wallet_showCallsStatus` calls `showCallsStatus`. Their
 *   errors are EIP-5792's: 5700 a capability not supported and not optional, 5710 a chain without a
 *   bundler, 5720 an app's id used twice, 5730 an unknown id, 5740 too many calls. Without
 *   `userOperations` (or, for the last, `showCallsStatus`) they fail with 4200.
 * - Other signing and wallet methods (`eth_sign`, `eth_signTransaction`, `wallet_addEthereumChain`,
 *   `wallet_watchAsset`, …) fail with 4200.
 *
 * Errors carry the standard numeric `code` and are viem's error classes: 4001 the person refused (or
 * `approve` threw), 4100 wrong address (or `getAccount` failed), 4200 unsupported method, 4900 after
 * `disconnect()`, 4901 the chain's RPC cannot be reached, -32602 malformed params. Events: `connect`
 * (`{ chainId }`, on the first request), `chainChanged`, `accountsChanged` (`[]` on disconnect) and
 * `disconnect`. A listener that throws does not stop the others; its error is rethrown in a microtask.
 *
 * @param options - The address, the chains and the starting chain, how to get the signing account, the
 * approval prompt and, optionally, the JSON-RPC transport.
 * @returns The provider, with `disconnect()`.
 * @throws {DialError} `unsupported_chain` when `chainId` is not one of `chains`; `invalid_data` when
 * `address` is not an address.
 *
 * @example
 * ```ts
 * const provider = createEmbeddedProvider({
 *   address: wallet.address,
 *   chains: getChains(),
 *   chainId: 8453,
 *   getAccount: async () =>
 *     privateKeyToAccount(await combineWalletShares([deviceShare, await fetchAuthShare()], wallet.address)),
 *   approve: async ({ method }) => window.confirm(`Approve ${method}?`),
 * });
 * const walletClient = createWalletClient({ account: wallet.address, transport: custom(provider) });
 * const hash = await walletClient.sendTransaction({ to, value: parseEther('0.01'), chain: null });
 * ```
 */
export function createEmbeddedProvider(options: EmbeddedProviderOptions): EmbeddedProvider {
  const { chains, getAccount, approve } = options;
  const makeTransport = options.transport ?? defaultTransport;
  if (!isAddress(options.address, { strict: false })) {
    throw new DialError('invalid_data', { details: `not an address: ${String(options.address)}` });
  }
  // Checksummed, as apps compare and display it.
  const address = getAddress(options.address);
  const initialChain = findChainById(chains, options.chainId);
  if (initialChain === undefined) {
    throw new DialError('unsupported_chain', {
      details: `chain ${options.chainId} is not one of the provider's chains`,
    });
  }
  let currentChain: Chain = initialChain;

  const listeners = new Map<string, Set<Listener>>();
  const transports = new Map<number, EIP1193RequestFn>();
  const clients = new Map<number, Client>();
  let connected = false;
  let disconnected = false;

  function emit<event extends keyof EIP1193EventMap>(
    event: event,
    ...args: Parameters<EIP1193EventMap[event]>
  ): void {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        (listener as (...values: unknown[]) => void)(...args);
      } catch (error) {
        // One broken listener must neither stop the others nor fail the request that caused the event.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  function rpcOf(chain: Chain): EIP1193RequestFn {
    let rpc = transports.get(chain.id);
    if (rpc === undefined) {
      rpc = makeTransport(chain);
      transports.set(chain.id, rpc);
    }
    return rpc;
  }

  function clientOf(chain: Chain): Client {
    let client = clients.get(chain.id);
    if (client === undefined) {
      // No retries here: the chain's transport decides its own (viem's http transport retries already).
      client = createClient({ chain, transport: custom({ request: rpcOf(chain) }, { retryCount: 0 }) });
      clients.set(chain.id, client);
    }
    return client;
  }

  function requireOwnAddress(value: unknown): void {
    if (typeof value !== 'string' || value.toLowerCase() !== address.toLowerCase()) {
      throw new UnauthorizedProviderError(
        new Error(`The address ${String(value)} is not this wallet's (${address}).`),
      );
    }
  }

  async function askApproval(
    method: string,
    params: unknown,
    chain: Chain,
    feePayer?: CallsFeePayer,
  ): Promise<void> {
    if (approve === undefined) return;
    let approved: boolean;
    try {
      approved = await approve({
        method,
        params,
        chainId: chain.id,
        ...(feePayer === undefined ? {} : { feePayer }),
      });
    } catch (error) {
      if (hasNumericCode(error)) throw error;
      throw new UserRejectedRequestError(asError(error, `Approving ${method} failed.`));
    }
    if (approved !== true) throw new UserRejectedRequestError(new Error(`${method} was not approved.`));
  }

  async function loadAccount(): Promise<LocalAccount> {
    let account: LocalAccount;
    try {
      account = await getAccount();
    } catch (error) {
      if (hasNumericCode(error)) throw error;
      throw new UnauthorizedProviderError(asError(error, 'The wallet could not be opened.'));
    }
    if (account.address.toLowerCase() !== address.toLowerCase()) {
      throw new UnauthorizedProviderError(
        new Error(`getAccount gave the account ${account.address}, not ${address}.`),
      );
    }
    return account;
  }

  function switchChain(params: unknown): null {
    const [parameter] = arrayParams(params, 1, 'wallet_switchEthereumChain');
    const chainIdHex = isRecord(parameter) ? parameter.chainId : undefined;
    if (typeof chainIdHex !== 'string' || !/^0x[0-9a-fA-F]+$/.test(chainIdHex)) {
      throw new InvalidParamsRpcError(
        new Error('wallet_switchEthereumChain expects [{ chainId: "0x…" }], the chain id in hex.'),
      );
    }
    const chainId = Number(BigInt(chainIdHex));
    const target = Number.isSafeInteger(chainId) ? findChainById(chains, chainId) : undefined;
    if (target === undefined) {
      throw new SwitchChainError(
        new Error(
          `Unrecognized chain ID "${chainIdHex}". This wallet supports ${chains
            .map((chain) => `${chain.name} (${numberToHex(chain.id)})`)
            .join(', ')}.`,
        ),
      );
    }
    if (target.id !== currentChain.id) {
      currentChain = target;
      emit('chainChanged', numberToHex(target.id));
    }
    return null;
  }

  async function personalSign(params: unknown, chain: Chain): Promise<unknown> {
    const [message, from] = arrayParams(params, 2, 'personal_sign');
    requireOwnAddress(from);
    if (typeof message !== 'string') {
      throw new InvalidParamsRpcError(new Error('personal_sign expects [message, address].'));
    }
    await askApproval('personal_sign', params, chain);
    const account = await loadAccount();
    // Hex is taken as bytes, as MetaMask does; anything else is signed as UTF-8 text.
    return account.signMessage({ message: isHex(message, { strict: true }) ? { raw: message } : message });
  }

  async function signTypedData(params: unknown, chain: Chain): Promise<unknown> {
    const [from, data] = arrayParams(params, 2, 'eth_signTypedData_v4');
    requireOwnAddress(from);
    const typedData = parseTypedData(data, chain);
    await askApproval('eth_signTypedData_v4', params, chain);
    const account = await loadAccount();
    return account.signTypedData(typedData);
  }

  async function sendTransaction(method: string, params: unknown, chain: Chain): Promise<unknown> {
    const [param] = arrayParams(params, 1, method);
    const { from, chainId, ...transaction } = parseTransactionParam(param);
    if (from !== undefined) requireOwnAddress(from);
    if (chainId !== undefined && chainId !== chain.id) {
      throw new InvalidParamsRpcError(
        new Error(
          `The transaction is for chain ${numberToHex(chainId)}, but the wallet is on ${numberToHex(chain.id)}.`,
        ),
      );
    }
    await askApproval(method, params, chain);
    // The key and what the chain must say (nonce, fees, gas: those the app left out) are fetched at once,
    // and viem then only checks and formats: it makes no request of its own (no eth_fillTransaction, which
    // many nodes refuse, then each value in turn).
    const [account, filled] = await Promise.all([loadAccount(), fillFromChain(transaction, chain)]);
    const prepared = await prepareTransactionRequest(clientOf(chain), {
      ...transaction,
      ...filled,
      chainId: chain.id,
      account,
      chain,
    } as Parameters<typeof prepareTransactionRequest>[1]);
    const serialized = await account.signTransaction(
      prepared as Parameters<LocalAccount['signTransaction']>[0],
      {
        serializer: chain.serializers?.transaction,
      },
    );
    return rpcOf(chain)({ method: 'eth_sendRawTransaction', params: [serialized] });
  }

  /**
   * The nonce (`pending`), the type and fee caps, and the gas limit a transaction left out, read from `chain`
   * in parallel: one round of requests on an EIP-1559 chain (two when the fees must be estimated: the
   * block, then the priority fee). The fees as viem estimates them (`estimateFeesPerGas`: the chain's own
   * rules, else the latest base fee with its margin plus the priority fee).
   */
  async function fillFromChain(transaction: Omit<TransactionParam, 'from' | 'chainId'>, chain: Chain) {
    const client = clientOf(chain);
    const [nonce, fees, gas] = await Promise.all([
      transaction.nonce ?? getTransactionCount(client, { address, blockTag: 'pending' }),
      feesOf(client, chain, transaction),
      transaction.gas ??
        estimateGas(client, {
          account: address,
          to: transaction.to,
          value: transaction.value,
          data: transaction.data,
          accessList: transaction.accessList,
          gasPrice: transaction.gasPrice,
          maxFeePerGas: transaction.maxFeePerGas,
          maxPriorityFeePerGas: transaction.maxPriorityFeePerGas,
          prepare: false,
        } as Parameters<typeof estimateGas>[1]),
    ]);
    return { nonce, gas, ...fees };
  }

  const userOperationSetUps = new Map<number, EmbeddedUserOperations | undefined>();
  const makeUserOperations = options.userOperations;
  // EIP-5792 and viem's account-abstraction code load with the first of its methods, not with the wallet.
  let loadedCalls: Promise<EmbeddedCalls> | undefined;
  const calls = (): Promise<EmbeddedCalls> | undefined => {
    if (makeUserOperations === undefined) return undefined;
    loadedCalls ??= import('./createEmbeddedCalls.js').then(({ createEmbeddedCalls }) =>
      createEmbeddedCalls({
        address,
        chains,
        userOperations(chain) {
          if (!userOperationSetUps.has(chain.id))
            userOperationSetUps.set(chain.id, makeUserOperations(chain));
          return userOperationSetUps.get(chain.id);
        },
        clientOf,
        askApproval,
        loadAccount,
        requireOwnAddress,
        showCallsStatus: options.showCallsStatus,
      }),
    );
    loadedCalls.catch(() => {
      loadedCalls = undefined;
    });
    return loadedCalls;
  };

  async function handle(method: string, params: unknown): Promise<unknown> {
    // Taken once, so a chain switch while this request waits (for approval, say) cannot change its chain.
    const chain = currentChain;
    switch (method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [address];
      case 'eth_chainId':
        return numberToHex(chain.id);
      case 'wallet_switchEthereumChain':
        return switchChain(params);
      case 'personal_sign':
        return personalSign(params, chain);
      case 'eth_signTypedData_v4':
        return signTypedData(params, chain);
      case 'eth_sendTransaction':
      case 'wallet_sendTransaction':
        return sendTransaction(method, params, chain);
      case 'wallet_getCapabilities':
        if (calls() === undefined) break;
        return (await calls())?.getCapabilities(params);
      case 'wallet_sendCalls':
        if (calls() === undefined) break;
        return (await calls())?.sendCalls(params);
      case 'wallet_getCallsStatus':
        if (calls() === undefined) break;
        return (await calls())?.getCallsStatus(params);
      case 'wallet_showCallsStatus': {
        if (calls() === undefined || options.showCallsStatus === undefined) break;
        return (await calls())?.showCallsStatus?.(params);
      }
      default:
        if (isUnsupported(method)) throw new UnsupportedProviderMethodError(new Error(method), { method });
        return rpcOf(chain)(params === undefined ? { method } : { method, params });
    }
    // An EIP-5792 method without its set-up.
    throw new UnsupportedProviderMethodError(new Error(method), { method });
  }

  async function request(args: unknown): Promise<unknown> {
    if (disconnected) {
      throw new ProviderDisconnectedError(new Error('The wallet provider was disconnected.'));
    }
    if (!isRecord(args) || typeof args.method !== 'string') {
      throw new InvalidRequestRpcError(new Error('A request is { method: string, params?: unknown }.'));
    }
    if (!connected) {
      connected = true;
      emit('connect', { chainId: numberToHex(currentChain.id) });
    }
    try {
      return await handle(args.method, args.params);
    } catch (error) {
      throw toProviderError(error);
    }
  }

  return {
    request: request as EIP1193Provider['request'],
    on(event, listener) {
      let set = listeners.get(event);
      if (set === undefined) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener as Listener);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener as Listener);
    },
    disconnect() {
      if (disconnected) return;
      disconnected = true;
      emit('accountsChanged', []);
      emit('disconnect', new ProviderDisconnectedError(new Error('disconnect() was called.')));
    },
  };
}

type Fees =
  | { type: 'legacy' | 'eip2930'; gasPrice: bigint }
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/**
 * The transaction's type and fee caps: as given when it has them all; else estimated (`estimateFeesPerGas`),
 * keeping what it gives. A type that its fields do not tell is EIP-1559 unless the chain has no base fee.
 *
 * @throws {MaxFeePerGasTooLowError} when a given maxFeePerGas is below the estimated priority fee.
 * @throws {Eip1559FeesNotSupportedError} when EIP-1559 fees are given for a chain without a base fee.
 */
async function feesOf(
  client: Client,
  chain: Chain,
  transaction: Omit<TransactionParam, 'from' | 'chainId'>,
): Promise<Fees> {
  const type = transaction.type ?? typeFromFields(transaction);
  if (type === 'legacy' || type === 'eip2930') {
    if (transaction.gasPrice !== undefined) return { type, gasPrice: transaction.gasPrice };
    const { gasPrice } = await estimateFeesPerGas(client, { chain, type: 'legacy' });
    return { type, gasPrice };
  }
  const { maxFeePerGas, maxPriorityFeePerGas } = transaction;
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined) {
    return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas };
  }
  let estimated: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  try {
    estimated = await estimateFeesPerGas(client, { chain, type: 'eip1559' });
  } catch (error) {
    // A chain without a base fee: a legacy transaction, unless the app asked for EIP-1559 itself.
    if (type === undefined && error instanceof Eip1559FeesNotSupportedError) {
      const { gasPrice } = await estimateFeesPerGas(client, { chain, type: 'legacy' });
      return { type: 'legacy', gasPrice };
    }
    throw error;
  }
  const priority = maxPriorityFeePerGas ?? estimated.maxPriorityFeePerGas;
  if (maxFeePerGas !== undefined && maxFeePerGas < priority) {
    throw new MaxFeePerGasTooLowError({ maxPriorityFeePerGas: priority });
  }
  return {
    type: 'eip1559',
    // The estimate's base fee part (with its margin) plus the priority fee that is used.
    maxFeePerGas: maxFeePerGas ?? estimated.maxFeePerGas - estimated.maxPriorityFeePerGas + priority,
    maxPriorityFeePerGas: priority,
  };
}

/** The type the transaction's fee fields make it (viem's rule), or undefined when they say nothing. */
function typeFromFields(
  transaction: Omit<TransactionParam, 'from' | 'chainId'>,
): TransactionParam['type'] | undefined {
  if (
    transaction.gasPrice === undefined &&
    transaction.maxFeePerGas === undefined &&
    transaction.maxPriorityFeePerGas === undefined &&
    transaction.accessList === undefined
  ) {
    return undefined;
  }
  const type = getTransactionType(transaction as Parameters<typeof getTransactionType>[0]);
  return type === 'legacy' || type === 'eip2930' || type === 'eip1559' ? type : undefined;
}

function defaultTransport(chain: Chain): EIP1193RequestFn {
  const url = chain.rpcUrls.default.http[0];
  if (url === undefined) {
    return () => Promise.reject(new ChainDisconnectedError(new Error(`${chain.name} has no RPC URL.`)));
  }
  return http(url)({ chain }).request;
}

function findChainById(chains: readonly Chain[], id: number): Chain | undefined {
  return chains.find((chain) => chain.id === id);
}

function isUnsupported(method: string): boolean {
  return UNSUPPORTED_METHODS.has(method) || method.startsWith('wallet_') || method.startsWith('personal_');
}

function arrayParams(params: unknown, length: number, method: string): unknown[] {
  if (!Array.isArray(params) || params.length < length) {
    throw new InvalidParamsRpcError(new Error(`${method} expects an array of ${length} params.`));
  }
  return params;
}

function parseTypedData(value: unknown, chain: Chain): TypedDataDefinition {
  let data: unknown = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value);
    } catch (error) {
      throw new InvalidParamsRpcError(asError(error, 'The typed data is not JSON.'));
    }
  }
  if (
    !isRecord(data) ||
    !isRecord(data.types) ||
    typeof data.primaryType !== 'string' ||
    !isRecord(data.message) ||
    (data.domain !== undefined && !isRecord(data.domain))
  ) {
    throw new InvalidParamsRpcError(
      new Error('eth_signTypedData_v4 expects { types, primaryType, domain, message } (EIP-712).'),
    );
  }
  const domain = { ...(data.domain as Record<string, unknown> | undefined) };
  if (domain.chainId !== undefined && domain.chainId !== null) {
    let chainId: bigint;
    try {
      chainId = BigInt(domain.chainId as string | number | bigint);
    } catch (error) {
      throw new InvalidParamsRpcError(asError(error, 'The typed data has an invalid domain.chainId.'));
    }
    // Refused as MetaMask does: a signature for another chain is a trap when the person thinks of this one.
    if (chainId !== BigInt(chain.id)) {
      throw new InvalidParamsRpcError(
        new Error(`The typed data is for chain ${chainId}, but the wallet is on ${chain.id}.`),
      );
    }
    // A number, not the hex or decimal string some apps send: viem leaves a string chainId out of the domain
    // type it derives.
    domain.chainId = chain.id;
  }
  const definition = {
    domain,
    types: data.types,
    primaryType: data.primaryType,
    message: data.message,
  } as unknown as TypedDataDefinition;
  try {
    hashTypedData(definition);
  } catch (error) {
    throw new InvalidParamsRpcError(asError(error, 'The typed data is not valid EIP-712.'));
  }
  return definition;
}

/**
 * Turns what a handler threw into an EIP-1193 error: errors that carry a numeric code (ours, or the RPC's
 * own answer) pass through; a chain RPC that cannot be reached becomes 4901; a viem error wrapping an RPC
 * answer becomes that answer; anything else is -32603.
 */
function toProviderError(error: unknown): Error {
  if (hasNumericCode(error)) return error;
  if (findCause(error, isUnreachable) !== undefined)
    return new ChainDisconnectedError(asError(error, 'The chain could not be reached.'));
  const coded = findCause(error, hasNumericCode);
  if (coded !== undefined) return coded as Error;
  return new InternalRpcError(asError(error, 'The request failed.'));
}

function isUnreachable(error: unknown): boolean {
  return (
    error instanceof HttpRequestError ||
    error instanceof TimeoutError ||
    error instanceof SocketClosedError ||
    error instanceof WebSocketRequestError
  );
}

function hasNumericCode(error: unknown): error is Error & { code: number } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'number';
}

function asError(error: unknown, fallback: string): Error {
  if (error instanceof Error) return error;
  return new Error(error === undefined ? fallback : `${fallback} ${String(error)}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
