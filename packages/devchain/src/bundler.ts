import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { type Address, createPublicClient, defineChain, type Hex, http, numberToHex, parseEther } from 'viem';
import { createBundlerClient, toSimple7702SmartAccount } from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEV_BUNDLER_EXECUTOR_PRIVATE_KEY, DEV_BUNDLER_UTILITY_PRIVATE_KEY } from './devAccount.js';

/** A running ERC-4337 bundler: see {@link startBundler}. */
export interface Bundler {
  /** Its JSON-RPC endpoint (`eth_sendUserOperation`, `eth_estimateUserOperationGas`, …). */
  url: string;
  /** Stops the bundler's process. Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link startBundler}. */
export interface BundlerOptions {
  /** The chain's JSON-RPC endpoint over HTTP (a dev chain's `url`). */
  rpcUrl: string;
  /** The EntryPoint the bundler serves (the dev chain's `accountAbstraction.entryPoint`). */
  entryPoint: Address;
  /**
   * The loopback port; defaults to 4337; `0` takes a free one (found by listening on port 0 first, since Alto
   * cannot report the port it took; read it back from `url`).
   */
  port?: number;
  /** How long to wait for the bundler to answer, in milliseconds; defaults to 30 s. */
  startTimeoutMs?: number;
}

/** Thrown by {@link startBundler} when the bundler exits or does not answer in time; `output` is its last words. */
export class BundlerStartError extends Error {
  override readonly name = 'BundlerStartError';
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(output === '' ? message : `${message}\n${output}`);
  }
}

const DEFAULT_PORT = 4337;
/** What the bundler's executor and utility accounts are given on the local chain (set, not sent by the faucet). */
const BUNDLER_ACCOUNT_BALANCE = parseEther('100');
/** The last output kept to explain a failed start. */
const OUTPUT_TAIL_CHARS = 4000;

/**
 * Starts a real ERC-4337 bundler, Pimlico's Alto (`@pimlico/alto`, a dev dependency), as a child process on
 * loopback against a local chain, with the dev executor and utility keys given 100 ETH each. Alto deploys its
 * simulation contracts through the deterministic deployer at start, bundles every 10–50 ms, and runs without
 * its "safe mode" (the ERC-7562 tracing rules), which needs `debug_traceCall` with a JavaScript tracer that
 * the local chain's EVM does not have. Resolves once the bundler answers `eth_supportedEntryPoints`.
 *
 * @throws {BundlerStartError} when it exits first, or does not answer within `startTimeoutMs`.
 */
export async function startBundler(options: BundlerOptions): Promise<Bundler> {
  const asked = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(asked) || asked < 0 || asked > 65_535) {
    throw new RangeError(`The bundler's port must be an integer from 0 to 65535, not ${asked}`);
  }
  const port = asked === 0 ? await freeLoopbackPort() : asked;
  await fundBundlerAccounts(options.rpcUrl);

  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('@pimlico/alto')), 'cli', 'alto.js');
  const args = [
    cli,
    '--entrypoints',
    options.entryPoint,
    '--executor-private-keys',
    DEV_BUNDLER_EXECUTOR_PRIVATE_KEY,
    '--utility-private-key',
    DEV_BUNDLER_UTILITY_PRIVATE_KEY,
    '--rpc-url',
    options.rpcUrl,
    '--port',
    String(port),
    '--safe-mode',
    'false',
    '--min-bundle-interval',
    '10',
    '--max-bundle-interval',
    '50',
    '--log-level',
    'error',
    // The local chain has no eth_fillTransaction: Alto tries it, logs the refusal and goes on without it.
    '--public-client-log-level',
    'fatal',
    '--wallet-client-log-level',
    'fatal',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: bundlerEnv() });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(new BundlerStartError(`The bundler exited at start (${signal ?? `code ${code}`})`, output)),
    );
    child.once('error', (error) =>
      reject(new BundlerStartError(`The bundler could not start: ${error.message}`, output)),
    );
  });
  exited.catch(() => undefined);
  try {
    await Promise.race([waitForAnswer(url, options.startTimeoutMs ?? 30_000, () => output), exited]);
  } catch (error) {
    await stop(child);
    throw error;
  }

  // In the background: the local chain's EVM runs its first simulations of the EntryPoint slowly (about half
  // a second, then tens of milliseconds), which the first person to send would otherwise wait for.
  warmUp(url, options.rpcUrl).catch(() => undefined);

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= stop(child);
      return closing;
    },
  };
}

/**
 * Asks the bundler to estimate a throwaway wallet's first user operation (an EIP-7702 delegation and a call
 * of nothing, the wallet given 1 ETH to pay for it), which runs the EntryPoint's simulations once on the
 * chain. Nothing is sent.
 */
async function warmUp(bundlerUrl: string, rpcUrl: string): Promise<void> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await client.getChainId();
  const chain = defineChain({
    id: chainId,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const owner = privateKeyToAccount(generatePrivateKey());
  const account = await toSimple7702SmartAccount({
    client: createPublicClient({ chain, transport: http(rpcUrl) }),
    owner,
  });
  const bundler = createBundlerClient({
    client: createPublicClient({ chain, transport: http(rpcUrl) }),
    transport: http(bundlerUrl),
  });
  const authorization = await owner.signAuthorization({
    chainId,
    nonce: 0,
    contractAddress: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
  });
  await rpc(rpcUrl, 'hardhat_setBalance', [owner.address, numberToHex(parseEther('1'))]);
  await bundler
    .estimateUserOperationGas({ account, calls: [{ to: owner.address, value: 0n }], authorization })
    .catch(() => undefined);
}

/** A TCP port free on loopback now: listened on (port 0) and released. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Gives the executor and utility accounts their balance through the local chain's `hardhat_setBalance`. */
async function fundBundlerAccounts(rpcUrl: string): Promise<void> {
  for (const key of [DEV_BUNDLER_EXECUTOR_PRIVATE_KEY, DEV_BUNDLER_UTILITY_PRIVATE_KEY]) {
    await rpc(rpcUrl, 'hardhat_setBalance', [
      privateKeyToAccount(key).address,
      numberToHex(BUNDLER_ACCOUNT_BALANCE),
    ]);
  }
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

async function waitForAnswer(url: string, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const entryPoints = (await rpc(url, 'eth_supportedEntryPoints', [])) as Hex[];
      if (Array.isArray(entryPoints) && entryPoints.length > 0) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new BundlerStartError(`The bundler did not answer at ${url} within ${timeoutMs} ms`, output());
}

/** The bundler's environment: this process's, without what would switch on its telemetry or error reports. */
function bundlerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(OTEL_|SENTRY_|ALTO_)/.test(name)) env[name] = value;
  }
  return env;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
