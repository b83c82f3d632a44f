import {
  DialError,
  type ErrorCode,
  findCause,
  isDialError,
  isErrorCode,
  SIMPLE_7702_ACCOUNT,
} from '@dial/core';
import { type Chain, type Client, http, type Transport } from 'viem';
import {
  createBundlerClient,
  createPaymasterClient,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction';
import type { PrivateKeyAccount } from 'viem/accounts';
import { getCode, getTransactionCount } from 'viem/actions';
import { sendError } from './sendError';
import type { TransferCall } from './transferCall';

// The account-abstraction half of viem: loaded by `import()` only when a sponsored send is confirmed (see
// sendTransfer.ts), never with the wallet screen.

/** The code of an account delegated to Simple7702Account (EIP-7702's designator `0xef0100 ‖ address`). */
export const DELEGATED_CODE = `0xef0100${SIMPLE_7702_ACCOUNT.slice(2).toLowerCase()}` as const;

/**
 * How often the bundler is asked for the user operation's receipt: half the chain's block time (2 s on the OP
 * chains, viem's `blockTime`), from 25 ms (the local chain's bundler bundles every 10–50 ms and mines at once)
 * to 1 s; 500 ms for a chain that names no block time.
 */
export function receiptPollingMs(chain: { blockTime?: number | undefined }): number {
  return chain.blockTime === undefined ? 500 : Math.min(1000, Math.max(25, chain.blockTime / 2));
}
/** How long to wait for the receipt before giving up (the operation may still be included later). */
const RECEIPT_TIMEOUT_MS = 2 * 60_000;

export interface SponsoredSendOptions {
  /** The chain's reads (code, nonces, fees), on the chain the send is made on. */
  client: Client<Transport, Chain, undefined>;
  /** The wallet's key: the owner of the smart account, at its own address (EIP-7702). */
  owner: PrivateKeyAccount;
  call: TransferCall;
  /** The bundler's JSON-RPC URL (Dial's proxy, `/api/bundler/:chainId`). */
  bundlerUrl: string;
  /** The ERC-7677 paymaster service (`/api/paymaster`); undefined to pay the fee from the account itself. */
  paymasterUrl: string | undefined;
  /** What the bundler's and the paymaster's requests carry besides JSON (the session's cookie). */
  fetchOptions?: Omit<RequestInit, 'body'>;
  /** Called once the bundler took the user operation, with its hash, before it is included. */
  onSubmitted?(userOperationHash: `0x${string}`): void;
}

/** Whether the account's code is already the delegation to Simple7702Account. */
export async function isDelegated(
  client: Client<Transport, Chain>,
  address: `0x${string}`,
): Promise<boolean> {
  const code = await getCode(client, { address, blockTag: 'pending' });
  return code?.toLowerCase() === DELEGATED_CODE;
}

/**
 * Sends `call` as an ERC-4337 user operation of the wallet turned smart account (Simple7702Account, same
 * address), its fee paid through the paymaster service, and waits for the bundler to have it included.
 * The first send of a wallet also carries the key's EIP-7702 authorization; once the wallet's code is the
 * delegation, none is signed. Returns the hash of the transaction that included the operation.
 *
 * @throws {DialError} a paymaster's or bundler's refusal by its catalogue code (`data.code` of the JSON-RPC
 * error: `sponsor_daily_cap`, `sponsor_account_limit`, …), the share errors of the key, `chain_unavailable`,
 * or `internal_error` (also when the operation was included but its call reverted: nothing moved).
 */
export async function sendSponsored(options: SponsoredSendOptions): Promise<`0x${string}`> {
  const { client, owner, call, bundlerUrl, paymasterUrl, fetchOptions, onSubmitted } = options;
  try {
    const [account, delegated, nonce] = await Promise.all([
      toSimple7702SmartAccount({ client, owner }),
      isDelegated(client, owner.address),
      getTransactionCount(client, { address: owner.address, blockTag: 'pending' }),
    ]);
    const authorization = delegated
      ? undefined
      : await owner.signAuthorization({
          chainId: client.chain.id,
          nonce,
          contractAddress: SIMPLE_7702_ACCOUNT,
        });
    const transport = (url: string) =>
      http(url, { ...(fetchOptions ? { fetchOptions } : {}), retryCount: 0 });
    const bundler = createBundlerClient({
      client,
      transport: transport(bundlerUrl),
      pollingInterval: receiptPollingMs(client.chain),
      ...(paymasterUrl !== undefined
        ? { paymaster: createPaymasterClient({ transport: transport(paymasterUrl) }) }
        : {}),
    });
    const hash = await bundler.sendUserOperation({
      account,
      calls: [{ to: call.to, value: call.value, ...(call.data !== undefined ? { data: call.data } : {}) }],
      ...(authorization !== undefined ? { authorization } : {}),
    });
    onSubmitted?.(hash);
    const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
    if (!receipt.success) {
      throw new DialError('internal_error', {
        details: `user operation ${hash} was included but its call reverted: nothing was sent`,
      });
    }
    return receipt.receipt.transactionHash;
  } catch (error) {
    throw userOperationError(error);
  }
}

/**
 * The catalogue error for what a user operation's send threw: a DialError as it is; a refusal of the
 * paymaster service or the bundler proxy by its catalogue code (a JSON-RPC error's `data.code`, or an HTTP
 * error answer's `code`, which viem keeps as the error's `details` text) with the catalogue's words; else
 * as a plain send's error ({@link sendError}).
 */
export function userOperationError(error: unknown): DialError {
  const dialError = findCause(error, isDialError);
  if (dialError !== undefined) return dialError;
  for (let current = error, depth = 0; current instanceof Object && depth < 16; depth++) {
    const code = catalogueCode(current);
    if (code !== undefined) return new DialError(code, { cause: error });
    current = (current as { cause?: unknown }).cause;
  }
  return sendError(error);
}

/** The catalogue code an error of the API's JSON-RPC routes carries, if any. */
function catalogueCode(value: object): ErrorCode | undefined {
  const { data, details } = value as { data?: unknown; details?: unknown };
  const fromData = (data as { code?: unknown } | null | undefined)?.code;
  if (isErrorCode(fromData)) return fromData;
  if (typeof details !== 'string' || !details.startsWith('{')) return undefined;
  try {
    const body = JSON.parse(details) as { code?: unknown; data?: { code?: unknown } | null };
    if (isErrorCode(body.data?.code)) return body.data.code;
    return isErrorCode(body.code) ? body.code : undefined;
  } catch {
    return undefined;
  }
}
