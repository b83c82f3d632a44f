import type { UserOperationRequest } from '@dial/api';
import { DialError, ENTRY_POINT_V08, SIMPLE_7702_ACCOUNT } from '@dial/core';
import { type Address, concat, getAddress, type Hex, isAddressEqual, type PublicClient } from 'viem';
import type { AppContext } from '../appContext.js';
import type { User } from '../auth/users.js';
import { ChainReadError } from '../chain/chainReader.js';
import type { PaymasterConfig } from '../config/index.js';
import { checkCalls, decodeAccountCalls } from './sponsorPolicy.js';
import { isEip7702Operation, readUserOperation, type UserOperationV08 } from './userOperation.js';

/** What the paymaster service knows of an operation it may pay for, once every check passed. */
export interface CheckedOperation {
  chainId: number;
  operation: UserOperationV08;
  paymaster: PaymasterConfig;
  /** The account implementation the wallet delegates to (EIP-7702), for the operation's hash; null: none. */
  delegate: Address | null;
  /** The operator's daily cap on the chain, in wei. */
  dailyCapWei: bigint;
}

/**
 * Checks an ERC-7677 request before any fee is paid: EntryPoint v0.8; a chain whose fees this server pays;
 * the session's own embedded wallet as sender; a Simple7702Account (its delegation in the operation, or
 * already on chain: the calls are read as that contract executes them); calls `SPONSOR_CALLS` allows.
 *
 * @throws {DialError} `sponsor_unavailable`, `wallet_not_found`, `sponsor_not_allowed`, `chain_unavailable`.
 */
export async function checkOperation(
  ctx: AppContext,
  clientFor: (chainId: number) => PublicClient,
  user: User,
  request: UserOperationRequest,
  entryPoint: string,
  chainId: number,
): Promise<CheckedOperation> {
  const settings = ctx.config.sponsorship;
  if (!isAddressEqual(entryPoint as Address, ENTRY_POINT_V08)) {
    throw new DialError('sponsor_unavailable', {
      message: 'Network fees are paid only for user operations of EntryPoint v0.8.',
      details: `entryPoint ${entryPoint}`,
    });
  }
  const paymaster = settings.paymasters[chainId];
  const dailyCapWei = settings.dailyCapsWei[chainId];
  if (
    settings.calls === 'off' ||
    paymaster === undefined ||
    dailyCapWei === undefined ||
    settings.bundlerUrls[chainId] === undefined ||
    (paymaster.kind === 'dial' && settings.signerKey === null)
  ) {
    throw new DialError('sponsor_unavailable', { details: `chain ${chainId}` });
  }
  if (user.wallet === null) throw new DialError('wallet_not_found');
  const operation = readUserOperation(request);
  if (user.wallet.kind !== 'embedded' || !isAddressEqual(user.wallet.address, operation.sender)) {
    throw new DialError('sponsor_not_allowed', {
      message: "Network fees are paid only for your own Dial wallet's sends.",
      details: `sender ${operation.sender} is not the session's embedded wallet`,
    });
  }

  const delegate = await checkDelegation(clientFor, chainId, operation, request);
  await checkCalls(decodeAccountCalls(operation.callData), {
    calls: settings.calls,
    sender: operation.sender,
    userId: user.id,
    usdc: ctx.chain.usdcAddress(chainId),
    db: ctx.db,
  });
  return { chainId, operation, paymaster, delegate, dailyCapWei };
}

/**
 * The wallet's account implementation must be Simple7702Account: named by the operation's EIP-7702
 * authorization (its first operation), or already the wallet's delegation on chain. Returns the delegate to
 * hash the operation with (EIP-7702 operations), or null for an operation without the `0x7702` marker.
 */
async function checkDelegation(
  clientFor: (chainId: number) => PublicClient,
  chainId: number,
  operation: UserOperationV08,
  request: UserOperationRequest,
): Promise<Address | null> {
  const eip7702 = isEip7702Operation(operation);
  if (operation.factory !== undefined && !eip7702) {
    throw new DialError('sponsor_not_allowed', { details: 'a factory other than EIP-7702' });
  }
  const authorization = request.eip7702Auth ?? null;
  if (authorization !== null) {
    const delegate = authorization.address ?? authorization.contractAddress;
    if (!eip7702 || delegate === undefined || !isAddressEqual(delegate as Address, SIMPLE_7702_ACCOUNT)) {
      throw new DialError('sponsor_not_allowed', {
        details: `the authorization delegates to ${delegate ?? 'nothing'}, not Simple7702Account`,
      });
    }
    const authorizedChain = BigInt(authorization.chainId);
    if (authorizedChain !== 0n && authorizedChain !== BigInt(chainId)) {
      throw new DialError('sponsor_not_allowed', { details: 'the authorization is for another chain' });
    }
    return SIMPLE_7702_ACCOUNT;
  }
  let code: Hex | undefined;
  try {
    code = await clientFor(chainId).getCode({ address: operation.sender });
  } catch (error) {
    throw new DialError('chain_unavailable', {
      details: error instanceof ChainReadError ? error.message : 'reading the wallet code failed',
    });
  }
  const delegation = concat(['0xef0100', SIMPLE_7702_ACCOUNT]).toLowerCase();
  if (code?.toLowerCase() !== delegation) {
    throw new DialError('sponsor_not_allowed', {
      details: `${getAddress(operation.sender)} is not delegated to Simple7702Account`,
    });
  }
  return eip7702 ? SIMPLE_7702_ACCOUNT : null;
}
