import type * as DevChainPackage from '@dial/devchain';
import type {
  Bundler,
  BundlerOptions,
  DevChain,
  DevChainOptions,
  MintTestUsdcOptions,
  SendFromFaucetOptions,
} from '@dial/devchain';
import type { Hex } from 'viem';

export type {
  Bundler,
  BundlerOptions,
  DevChain,
  DevChainOptions,
  MintTestUsdcOptions,
  SendFromFaucetOptions,
} from '@dial/devchain';

/**
 * The server's door to the local dev chain (`@dial/devchain`): these functions import the package on their
 * first call, and only the local chain's start (main.ts: the chain, its bundler and its paymaster's dev signer), its routes and the sandbox on-ramp call them, all
 * with LOCAL_CHAIN on, which production refuses. So a production server never loads the dev chain's code
 * nor EDR (a dev dependency, absent from a production install); apps/server/test/productionImports.test.ts
 * checks it. Only `import type` of the package may appear here and anywhere else in src/.
 */
let devChainPackage: Promise<typeof DevChainPackage> | undefined;

function loadDevChain(): Promise<typeof DevChainPackage> {
  devChainPackage ??= import('@dial/devchain').catch((error: unknown) => {
    devChainPackage = undefined;
    throw error;
  });
  return devChainPackage;
}

/** Starts the local dev chain: `startDevChain` of `@dial/devchain`, loaded now. */
export async function startDevChain(options: DevChainOptions): Promise<DevChain> {
  return (await loadDevChain()).startDevChain(options);
}

/** Sends test ETH from the dev chain's faucet: `sendFromFaucet` of `@dial/devchain`, loaded now. */
export async function sendFromFaucet(options: SendFromFaucetOptions): Promise<Hex> {
  return (await loadDevChain()).sendFromFaucet(options);
}

/** Mints test USDC on the dev chain: `mintTestUsdc` of `@dial/devchain`, loaded now. */
export async function mintTestUsdc(options: MintTestUsdcOptions): Promise<Hex> {
  return (await loadDevChain()).mintTestUsdc(options);
}

/** Starts the local chain's ERC-4337 bundler (Alto): `startBundler` of `@dial/devchain`, loaded now. */
export async function startBundler(options: BundlerOptions): Promise<Bundler> {
  return (await loadDevChain()).startBundler(options);
}

/** The key the local chain's DialPaymaster honours (`DEV_PAYMASTER_SIGNER_PRIVATE_KEY`), loaded now. */
export async function devPaymasterSignerKey(): Promise<Hex> {
  return (await loadDevChain()).DEV_PAYMASTER_SIGNER_PRIVATE_KEY;
}
