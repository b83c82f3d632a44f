import type { Page } from '@playwright/test';
import {
  createWalletClient,
  defineChain,
  type Hex,
  hexToBigInt,
  http,
  numberToHex,
  type PrivateKeyAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/** The local chain of the browser tests (LOCAL_CHAIN on), on the port playwright.config.ts gives it. */
const chainURL = `http://127.0.0.1:${process.env.E2E_CHAIN_PORT ?? '8646'}`;
export const LOCAL_CHAIN_ID = 31337;
const localChain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [chainURL] } },
});

export interface TestWalletOptions {
  /** The account's key (the same wallet in another browser); a fresh one by default. */
  key?: Hex;
  name?: string;
  rdns?: string;
  /** Answer `eth_sendTransaction` with 4200 (unsupported), as wallets that only know `wallet_sendTransaction`. */
  walletSendTransactionOnly?: boolean;
  /** Methods the person refuses in the wallet (answered 4001). */
  refuse?: readonly string[];
}

/** One request the page made of the wallet, as the wallet received it. */
export interface WalletCall {
  method: string;
  params: unknown;
}

export interface TestWallet {
  address: `0x${string}`;
  account: PrivateKeyAccount;
  /** Every request the page made, in order. */
  calls: WalletCall[];
  /** Sets the account's ETH balance on the local chain. */
  fund(wei: bigint): Promise<void>;
}

interface RpcError {
  code: number;
  message: string;
}

/**
 * A browser wallet for the tests: the page gets an EIP-1193 provider announced through EIP-6963 (as a wallet
 * extension's content script does, on every page of the context, before the app's scripts), whose every
 * request goes to Node. There a viem account with a fresh key answers: its account, the local chain, a
 * switch to it (other chains: 4902), `personal_sign`, and sending — signed here and sent to the local
 * chain. Anything else: 4200.
 */
export async function installTestWallet(page: Page, options: TestWalletOptions = {}): Promise<TestWallet> {
  const account = privateKeyToAccount(options.key ?? generatePrivateKey());
  const client = createWalletClient({ account, chain: localChain, transport: http(chainURL) });
  const calls: WalletCall[] = [];
  let chainId = LOCAL_CHAIN_ID;

  const answer = async (method: string, params: unknown): Promise<unknown> => {
    const list = Array.isArray(params) ? params : [];
    if (options.refuse?.includes(method)) throw rpcError(4001, 'User rejected the request.');
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return numberToHex(chainId);
      case 'wallet_switchEthereumChain': {
        const wanted = Number((list[0] as { chainId?: string } | undefined)?.chainId);
        if (wanted !== LOCAL_CHAIN_ID) throw rpcError(4902, 'Unrecognized chain.');
        chainId = wanted;
        return null;
      }
      case 'personal_sign': {
        const [message, from] = list as [Hex, string];
        if (from.toLowerCase() !== account.address.toLowerCase()) throw rpcError(4100, 'Unknown account.');
        return account.signMessage({ message: { raw: message } });
      }
      case 'eth_sendTransaction':
        if (options.walletSendTransactionOnly) throw rpcError(4200, 'The method is not supported.');
        return send(list[0]);
      case 'wallet_sendTransaction':
        return send(list[0]);
      default:
        throw rpcError(4200, `${method} is not supported by the test wallet.`);
    }
  };

  const send = async (transaction: unknown): Promise<Hex> => {
    const tx = transaction as Record<string, Hex | undefined>;
    if (tx.from?.toLowerCase() !== account.address.toLowerCase()) throw rpcError(4100, 'Unknown account.');
    if (chainId !== LOCAL_CHAIN_ID) throw rpcError(4901, 'Not on the local chain.');
    return client.sendTransaction({
      to: tx.to as Hex,
      value: tx.value === undefined ? 0n : hexToBigInt(tx.value),
      ...(tx.data !== undefined ? { data: tx.data } : {}),
      ...(tx.gas !== undefined ? { gas: hexToBigInt(tx.gas) } : {}),
      ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: hexToBigInt(tx.maxFeePerGas) } : {}),
      ...(tx.maxPriorityFeePerGas !== undefined
        ? { maxPriorityFeePerGas: hexToBigInt(tx.maxPriorityFeePerGas) }
        : {}),
    });
  };

  await page.exposeFunction('__dialTestWalletRequest', async (json: string): Promise<string> => {
    const { method, params } = JSON.parse(json) as WalletCall;
    calls.push({ method, params });
    try {
      return JSON.stringify({ result: await answer(method, params) });
    } catch (error) {
      const known = error as Partial<RpcError>;
      return JSON.stringify({
        error: typeof known.code === 'number' ? known : { code: -32603, message: String(error) },
      });
    }
  });

  await page.addInitScript(
    ({ name, rdns }) => {
      const send = (window as unknown as { __dialTestWalletRequest(json: string): Promise<string> })
        .__dialTestWalletRequest;
      const provider = {
        async request({ method, params }: { method: string; params?: unknown }) {
          const answer = JSON.parse(await send(JSON.stringify({ method, params }))) as {
            result?: unknown;
            error?: { code: number; message: string };
          };
          if (answer.error !== undefined) {
            throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
          }
          return answer.result;
        },
        on() {},
        removeListener() {},
      };
      // A tiny square, as a data: URI (what EIP-6963 asks for).
      const icon =
        'data:image/svg+xml;base64,' +
        btoa(
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#e25"/></svg>',
        );
      const detail = Object.freeze({
        info: Object.freeze({ uuid: crypto.randomUUID(), name, icon, rdns }),
        provider,
      });
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
    },
    { name: options.name ?? 'Test Wallet', rdns: options.rdns ?? 'org.example.testwallet' },
  );

  return {
    address: account.address,
    account,
    calls,
    async fund(wei) {
      await chainRpc('hardhat_setBalance', [account.address, numberToHex(wei)]);
    },
  };
}

function rpcError(code: number, message: string): RpcError {
  return { code, message };
}

/** An address's ETH balance on the local chain, read in Node. */
/** Sets `address`'s ETH balance on the local chain. */
export async function setLocalBalance(address: string, wei: bigint): Promise<void> {
  await chainRpc('hardhat_setBalance', [address, numberToHex(wei)]);
}

export async function localBalance(address: string): Promise<bigint> {
  return hexToBigInt((await chainRpc('eth_getBalance', [address, 'latest'])) as Hex);
}

async function chainRpc(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(chainURL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}
