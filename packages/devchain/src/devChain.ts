import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Provider } from '@nomicfoundation/edr';
import {
  type Address,
  type EIP1193RequestFn,
  encodeDeployData,
  getContractAddress,
  type Hex,
  numberToHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  type AccountAbstractionContracts,
  DEV_PAYMASTER_DEPOSIT_WEI,
  sendAccountAbstractionDeployments,
} from './accountAbstraction.js';
import { TEST_USDC_ABI, TEST_USDC_BYTECODE } from './contracts/testUsdcArtifact.js';
import { DEV_FAUCET_ADDRESS, DEV_FAUCET_BALANCE_WEI, DEV_FAUCET_PRIVATE_KEY } from './devAccount.js';
import { callEdr, createEdrProvider } from './edrProvider.js';

/** A running local dev chain: see {@link startDevChain}. */
export interface DevChain {
  /** The JSON-RPC endpoint, e.g. `http://127.0.0.1:8545`. */
  url: string;
  chainId: number;
  /** The account funded in the genesis block, with {@link DEV_FAUCET_PRIVATE_KEY}. */
  faucet: { address: Address; privateKey: Hex };
  /**
   * The test USDC (`contracts/TestUSDC.sol`: 6 decimals, minted by the faucet account only, see
   * `mintTestUsdc`), deployed by the faucet's first transaction, so always at the CREATE address of the
   * faucet's nonce 0: `0x5FbDB2315678afecb367f032d93F642f64180aa3`.
   */
  usdc: Address;
  /**
   * ERC-4337 (`deployAccountAbstraction`): EntryPoint v0.8 and Simple7702Account at their public addresses,
   * and Dial's paymaster with its deposit, deployed before the chain listens.
   */
  accountAbstraction: AccountAbstractionContracts;
  /** Stops the HTTP server, drops open connections and releases the chain. Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link startDevChain}. */
export interface DevChainOptions {
  /** The interface to listen on; defaults to `127.0.0.1` (loopback only). */
  host?: string;
  /** The TCP port; defaults to 8545; `0` picks any free port (read it back from `url`). */
  port?: number;
  /** Defaults to 31337, Hardhat's and Anvil's local chain id. */
  chainId?: number;
  /** The faucet's balance in the genesis block, in wei; defaults to 10,000 ETH. */
  faucetBalanceWei?: bigint;
}

/** Thrown by {@link startDevChain} when another process already listens on the requested port. */
export class DevChainPortInUseError extends Error {
  override readonly name = 'DevChainPortInUseError';
  readonly code = 'EADDRINUSE';
  constructor(
    readonly host: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Port ${port} on ${host} is already in use, so the local dev chain cannot start there. ` +
        'Stop the process that holds it, or set LOCAL_CHAIN_PORT to a free port.',
      options,
    );
  }
}

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 8545;
const DEFAULT_CHAIN_ID = 31337;
/**
 * Added to the faucet's genesis balance to pay for deploying the contracts (about 0.01 ETH at 1 gwei) and
 * the paymaster's deposit, and taken away again after, so the faucet holds exactly `faucetBalanceWei` however small it was asked to be.
 */
const DEPLOYMENT_FUNDS_WEI = 10n ** 18n + DEV_PAYMASTER_DEPOSIT_WEI;

const MAX_BODY_BYTES = 1024 * 1024;
/** Browser pages served from loopback, on any port; no other origin gets CORS headers. */
const LOOPBACK_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;

/** JSON-RPC 2.0 error codes used by the HTTP layer (EDR reports its own for the methods it runs). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;

type JsonRpcId = string | number | null;
type JsonRpcResponse = { jsonrpc: '2.0'; id: JsonRpcId } & (
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }
);

/**
 * Starts a local EVM chain for development and tests: EDR (Hardhat's Rust EVM) in this process, served as
 * JSON-RPC over HTTP. Every transaction is mined into its own block at once. Block 1 deploys the test USDC
 * (`usdc`) from the faucet account ({@link DEV_FAUCET_PRIVATE_KEY}), which then holds `faucetBalanceWei`.
 *
 * Rejects with {@link DevChainPortInUseError} when the port is taken.
 *
 * @example
 * const chain = await startDevChain({ port: 0 });
 * const client = createPublicClient({ transport: http(chain.url) });
 * await client.getBalance({ address: chain.faucet.address }); // 10_000n * 10n ** 18n
 * chain.usdc; // '0x5FbDB2315678afecb367f032d93F642f64180aa3'
 * await chain.close();
 */
export async function startDevChain(options: DevChainOptions = {}): Promise<DevChain> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const chainId = options.chainId ?? DEFAULT_CHAIN_ID;
  const faucetBalanceWei = options.faucetBalanceWei ?? DEV_FAUCET_BALANCE_WEI;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`The dev chain's port must be an integer from 0 to 65535, not ${port}`);
  }
  if (!Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new RangeError(`The dev chain's chain id must be a positive safe integer, not ${chainId}`);
  }
  if (faucetBalanceWei < 0n) {
    throw new RangeError(`The faucet's balance cannot be negative (${faucetBalanceWei} wei)`);
  }

  const faucet = { address: DEV_FAUCET_ADDRESS, privateKey: DEV_FAUCET_PRIVATE_KEY };
  let provider: Provider | undefined = await createEdrProvider(chainId, [
    { address: faucet.address, balanceWei: faucetBalanceWei + DEPLOYMENT_FUNDS_WEI },
  ]);
  // Before listening, so that nobody sees the chain without its contracts (or takes the faucet's nonce 0).
  const { usdc, accountAbstraction } = await deployContracts(provider, chainId, faucetBalanceWei);

  const server = createServer((request, response) => {
    serveHttp(request, response, () => provider).catch((error: unknown) => {
      // serveHttp answers every error it expects; this is for the ones it does not (a write after close).
      if (!response.headersSent) writeJson(response, 500, rpcError(null, INTERNAL_ERROR, messageOf(error)));
      else response.destroy();
    });
  });
  const address = await listen(server, host, port);

  let closing: Promise<void> | undefined;
  return {
    url: endpointUrl(host, address.port),
    chainId,
    faucet,
    usdc,
    accountAbstraction,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets (fetch keeps them) would hold close() open for seconds, and the port with them.
        server.closeAllConnections();
      }).finally(() => {
        // EDR's provider has no dispose(); dropping the last reference lets its native state be freed.
        provider = undefined;
      });
      return closing;
    },
  };
}

/**
 * Block 1 of a new dev chain, mined before it listens: the test USDC from the faucet's nonce 0 (so always at
 * the same address), then ERC-4337 (`sendAccountAbstractionDeployments`). The faucet's balance is then set to
 * `faucetBalanceWei`, so the set-up costs it nothing.
 */
async function deployContracts(
  provider: Provider,
  chainId: number,
  faucetBalanceWei: bigint,
): Promise<{ usdc: Address; accountAbstraction: AccountAbstractionContracts }> {
  const request = providerRequest(provider);
  const account = privateKeyToAccount(DEV_FAUCET_PRIVATE_KEY);
  await request({ method: 'evm_setAutomine', params: [false] } as never);
  const usdcDeployment = await account.signTransaction({
    chainId,
    type: 'eip1559',
    nonce: 0,
    data: encodeDeployData({ abi: TEST_USDC_ABI, bytecode: TEST_USDC_BYTECODE }),
    gas: 2_000_000n,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 0n,
  });
  const usdcHash = (await request({ method: 'eth_sendRawTransaction', params: [usdcDeployment] })) as Hex;
  const { contracts, hashes } = await sendAccountAbstractionDeployments(request, chainId, 1);
  await request({ method: 'evm_mine' } as never);
  await request({ method: 'evm_setAutomine', params: [true] } as never);
  for (const hash of [usdcHash, ...hashes]) {
    const receipt = (await request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      status: Hex;
      blockNumber: Hex;
    } | null;
    if (receipt?.status !== '0x1' || receipt.blockNumber !== '0x1') {
      throw new Error(`Setting up the dev chain failed (transaction ${hash})`);
    }
  }
  await request({
    method: 'hardhat_setBalance',
    params: [account.address, numberToHex(faucetBalanceWei)],
  } as never);
  return {
    usdc: getContractAddress({ from: account.address, nonce: 0n }),
    accountAbstraction: contracts,
  };
}

/** An EIP-1193 `request` straight to the provider, for the set-up done before the chain listens. */
function providerRequest(provider: Provider): EIP1193RequestFn {
  return (async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    const answer = withId(1, await callEdr(provider, { method, params }));
    if ('error' in answer) {
      throw Object.assign(new Error(answer.error.message), {
        code: answer.error.code,
        data: answer.error.data,
      });
    }
    return answer.result;
  }) as EIP1193RequestFn;
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') reject(new DevChainPortInUseError(host, port, { cause: error }));
      else
        reject(
          new Error(`The local dev chain cannot listen on ${host}:${port}: ${error.message}`, {
            cause: error,
          }),
        );
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port, exclusive: true });
  });
}

/** The URL clients should use: a wildcard address (listening everywhere) is reached through loopback. */
function endpointUrl(host: string, port: number): string {
  const url = new URL('http://127.0.0.1');
  if (host === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (host === '::') url.hostname = '[::1]';
  else url.hostname = host.includes(':') ? `[${host}]` : host;
  url.port = String(port);
  return url.origin;
}

async function serveHttp(
  request: IncomingMessage,
  response: ServerResponse,
  currentProvider: () => Provider | undefined,
): Promise<void> {
  const origin = request.headers.origin;
  const allowedOrigin = origin !== undefined && LOOPBACK_ORIGIN.test(origin) ? origin : undefined;
  if (allowedOrigin !== undefined) {
    response.setHeader('Access-Control-Allow-Origin', allowedOrigin);
    response.setHeader('Vary', 'Origin');
  }

  if (request.method === 'OPTIONS' && allowedOrigin !== undefined) {
    response.writeHead(204, {
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    response.end();
    return;
  }
  if (request.method !== 'POST') {
    response.writeHead(405, { Allow: 'POST' });
    response.end();
    return;
  }
  if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/') {
    response.writeHead(404);
    response.end();
    return;
  }
  if (origin !== undefined && allowedOrigin === undefined) {
    // A page elsewhere could still POST text/plain without a preflight (and call evm_* or hardhat_* methods);
    // it could not read the answer, but it should not get to change the chain either.
    response.writeHead(403);
    response.end();
    return;
  }

  const body = await readBody(request, MAX_BODY_BYTES);
  if (body === undefined) {
    response.shouldKeepAlive = false;
    writeJson(response, 413, rpcError(null, INVALID_REQUEST, `Request body exceeds ${MAX_BODY_BYTES} bytes`));
    return;
  }

  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    writeJson(response, 400, rpcError(null, PARSE_ERROR, 'Parse error: the request body is not valid JSON'));
    return;
  }

  if (Array.isArray(payload)) {
    if (payload.length === 0) {
      writeJson(response, 200, rpcError(null, INVALID_REQUEST, 'Invalid request: empty batch'));
      return;
    }
    // One at a time, in order, so that a batch like [send, getBalance] reads its own writes.
    const answers: JsonRpcResponse[] = [];
    for (const item of payload) {
      const answer = await handleCall(item, currentProvider);
      if (answer !== undefined) answers.push(answer);
    }
    if (answers.length === 0) {
      response.writeHead(204);
      response.end();
    } else {
      writeJson(response, 200, answers);
    }
    return;
  }

  const answer = await handleCall(payload, currentProvider);
  if (answer === undefined) {
    response.writeHead(204);
    response.end();
  } else {
    writeJson(response, 200, answer);
  }
}

/** Runs one JSON-RPC call; `undefined` for a notification (no `id`), which JSON-RPC 2.0 never answers. */
async function handleCall(
  call: unknown,
  currentProvider: () => Provider | undefined,
): Promise<JsonRpcResponse | undefined> {
  if (!isRecord(call))
    return rpcError(null, INVALID_REQUEST, 'Invalid request: not a JSON-RPC request object');
  const id = call.id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') {
    return rpcError(null, INVALID_REQUEST, 'Invalid request: id must be a string, a number or null');
  }
  const replyId = id ?? null;
  if (call.jsonrpc !== '2.0' || typeof call.method !== 'string') {
    return rpcError(replyId, INVALID_REQUEST, 'Invalid request: expected jsonrpc "2.0" and a method name');
  }
  if (call.params !== undefined && !Array.isArray(call.params) && !isRecord(call.params)) {
    return rpcError(replyId, INVALID_REQUEST, 'Invalid request: params must be an array or an object');
  }

  const provider = currentProvider();
  let answer: JsonRpcResponse;
  if (provider === undefined) {
    answer = rpcError(replyId, INTERNAL_ERROR, 'The dev chain is closed');
  } else {
    try {
      answer = withId(replyId, await callEdr(provider, { ...call, method: call.method }));
    } catch (error) {
      answer = rpcError(replyId, INTERNAL_ERROR, messageOf(error));
    }
  }
  return id === undefined ? undefined : answer;
}

/** EDR answers `{"result": ...}` or `{"error": ...}` alone; a JSON-RPC client needs `jsonrpc` and its `id` too. */
function withId(id: JsonRpcId, parsed: unknown): JsonRpcResponse {
  if (isRecord(parsed) && 'result' in parsed) return { jsonrpc: '2.0', id, result: parsed.result };
  if (isRecord(parsed) && isRecord(parsed.error) && typeof parsed.error.code === 'number') {
    const { code, message, data: errorData } = parsed.error;
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code,
        message: typeof message === 'string' ? message : 'Error',
        ...(errorData === undefined ? {} : { data: errorData }),
      },
    };
  }
  return rpcError(id, INTERNAL_ERROR, 'The EVM returned an answer that is not a JSON-RPC result or error');
}

/** The body, or `undefined` once it grows past `limit` bytes (reading stops there). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.off('end', onEnd);
        request.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    request.on('data', onData);
    request.on('end', onEnd);
    request.once('error', reject);
  });
}

function writeJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

function rpcError(id: JsonRpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
