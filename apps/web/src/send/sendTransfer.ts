import { createEmbeddedProvider, DialError, sendTransactionWithFallback } from '@dial/core';
import { type Chain, numberToHex } from 'viem';
import { urlOf } from '../api/client';
import type { ChainClient } from '../chain/createChainClient';
import { sendWithWallet } from '../connect/sendWithWallet';
import { type DeviceUnlock, unlockHeldDevice } from '../keys/rebuildKey';
import { loadSigningAccount } from '../keys/signingAccount';
import { hasEnoughFunds } from './amount';
import { type FeePayment, feeToCover, findShortfall, shortfallError } from './feePayment';
import type { FeeEstimate } from './networkFee';
import { readSendFunds } from './readSendFunds';
import { sendError } from './sendError';
import type { TransferCall } from './transferCall';
import type { SendPlan } from './useSendForm';

/**
 * Who signs for the account's wallet: `embedded`, the key rebuilt from its shares in this browser;
 * `external`, the person's own wallet app (Dial holds none of its key), which asks them to confirm.
 */
export type WalletSigner = 'embedded' | 'external';

export interface SignAndSendOptions {
  userId: string;
  signer: WalletSigner;
  address: `0x${string}`;
  chain: Chain;
  chains: readonly Chain[];
  call: TransferCall;
  /** Signed with exactly this gas and these fee caps: the ones the balance check was made against. */
  estimate: FeeEstimate;
  /** For the embedded wallet: what signing needs, asked for beside the balance check. */
  reads?: SigningReads;
}

/** Who sends, from where: see {@link checkAndSend}. */
export interface SenderOptions {
  userId: string;
  signer: WalletSigner;
  address: `0x${string}`;
  chains: readonly Chain[];
  client: ChainClient;
  usdcAddress: `0x${string}` | undefined;
}

/**
 * "Confirm and send" up to the transaction's hash: checks the balances once more (read fresh from the chain
 * at `pending`) against the amount and the fee the wallet pays (none when the operator pays it), then signs
 * and sends: a plain transaction ({@link signAndSend}), or, when the operator pays the fee, a user operation
 * through the bundler and the paymaster ({@link sendSponsoredTransfer}). For the embedded wallet the auth
 * share and the nonce are asked for at the same time as the balances: one round of requests, then the send.
 * Nothing is signed unless the balances cover the send.
 *
 * @param onSigning - Called once the balances passed, before signing.
 * @param onShort - Called when the balances do not cover the send (before it throws), to reload them.
 * @param onSubmitted - Called when the bundler took the user operation of a sponsored send, before it is
 *   included (a plain transaction has its hash at once: none is called).
 * @throws {DialError} `insufficient_balance` (with what is missing in its words), `chain_unavailable`, or
 * what {@link signAndSend} or {@link sendSponsoredTransfer} throws.
 */
export async function checkAndSend(
  sender: SenderOptions,
  plan: Pick<SendPlan, 'chain' | 'asset' | 'amount' | 'call' | 'estimate'> & { payment?: FeePayment },
  onSigning: () => void,
  onShort: () => void,
  onSubmitted?: () => void,
): Promise<`0x${string}`> {
  const { userId, signer, address, chains, client, usdcAddress } = sender;
  const payment: FeePayment = plan.payment ?? { by: 'wallet' };
  const reads = signer === 'embedded' ? startSigningReads(client, address, userId) : undefined;
  const funds = await readSendFunds(client, address, plan.asset, usdcAddress);
  if (!hasEnoughFunds(plan.asset, plan.amount, feeToCover(payment, plan.estimate.fee), funds)) {
    onShort();
    const shortfall = findShortfall({ ...plan, funds, payment, selfPaidFee: plan.estimate.fee });
    throw shortfall === null ? new DialError('insufficient_balance') : shortfallError(shortfall);
  }
  onSigning();
  if (payment.by === 'operator' && signer === 'embedded') {
    return sendSponsoredTransfer({
      userId,
      address,
      chain: plan.chain,
      client,
      call: plan.call,
      reads,
      ...(onSubmitted !== undefined ? { onSubmitted } : {}),
    });
  }
  return signAndSend({
    userId,
    signer,
    address,
    chain: plan.chain,
    chains,
    call: plan.call,
    estimate: plan.estimate,
    ...(reads !== undefined ? { reads } : {}),
  });
}

/** Loads the user operations' code (viem's account abstraction): at the review of a sponsored send, ahead of "Confirm". */
export function loadSponsoredSend() {
  return import('./sponsoredSend');
}

export interface SponsoredTransferOptions {
  userId: string;
  address: `0x${string}`;
  chain: Chain;
  client: ChainClient;
  call: TransferCall;
  reads: SigningReads | undefined;
  /** The bundler took the operation; it is not included yet. */
  onSubmitted?(): void;
}

/**
 * Sends `call` from the embedded wallet as a user operation whose fee the operator pays: the key rebuilt
 * for it (through this browser's device, as for any signature) owns the smart account at the wallet's
 * address; the bundler is Dial's proxy (`/api/bundler/:chainId`) and the paymaster Dial's ERC-7677 service
 * (`/api/paymaster`), both on this origin with the session's cookie (the server checks the `Origin` of
 * every POST; no other header is asked for). Waits for the operation to be included; returns the hash of the
 * transaction that included it.
 *
 * @throws {DialError} the key's share errors, the paymaster's refusals (`sponsor_daily_cap`,
 * `sponsor_account_limit`, `sponsor_not_allowed`, `sponsor_unavailable`), `bundler_unavailable`,
 * `chain_unavailable`, `internal_error`. Nothing was sent when it throws.
 */
export async function sendSponsoredTransfer({
  userId,
  address,
  chain,
  client,
  call,
  reads,
  onSubmitted,
}: SponsoredTransferOptions): Promise<`0x${string}`> {
  const origin = globalThis.location.origin;
  let sponsored: Awaited<ReturnType<typeof loadSponsoredSend>>;
  try {
    sponsored = await loadSponsoredSend();
  } catch (error) {
    throw new DialError('network_error', { cause: error, details: 'the sponsored send could not be loaded' });
  }
  const owner = await loadSigningAccount(userId, address, reads?.wallet);
  return sponsored.sendSponsored({
    client,
    owner,
    call,
    bundlerUrl: new URL(urlOf('bundler', { params: { chainId: chain.id } }), origin).href,
    paymasterUrl: new URL(urlOf('paymaster'), origin).href,
    fetchOptions: { credentials: 'same-origin' },
    ...(onSubmitted !== undefined ? { onSubmitted: () => onSubmitted() } : {}),
  });
}

/**
 * What signing with the embedded wallet needs from the network, asked for at once with the balance check
 * ({@link startSigningReads}), so that signing waits for no further round trip.
 */
export interface SigningReads {
  /**
   * This browser's device unlocked (`POST /api/wallet/devices/:id/unlock`): the wallet and the device's auth
   * share, checked as ever before it signs.
   */
  wallet: Promise<DeviceUnlock>;
  /** The wallet's next nonce (`pending`); undefined when the chain did not answer (the provider asks). */
  nonce: Promise<number | undefined>;
}

/**
 * Starts the requests signing with the embedded wallet needs: this browser's device unlocked (its auth
 * share) and the nonce. Nothing is rebuilt or signed here; an error shows only when the signing uses it
 * (none when the send stops before).
 */
export function startSigningReads(
  client: Pick<ChainClient, 'getTransactionCount'>,
  address: `0x${string}`,
  userId: string,
): SigningReads {
  const wallet = unlockHeldDevice(userId);
  // Handled here so that a send stopped by the balance check leaves no unhandled rejection; signing awaits
  // `wallet` itself and so still sees its error.
  wallet.catch(() => undefined);
  return {
    wallet,
    nonce: client.getTransactionCount({ address, blockTag: 'pending' }).catch(() => undefined),
  };
}

/**
 * Signs `call` with the wallet and sends it to the chain; returns the transaction hash. An embedded wallet
 * signs with its key rebuilt from its shares for this one signature, through the embedded provider: the
 * caller has already checked the balances and had the person confirm, so the provider approves without
 * asking again. An external wallet is asked through its own app (`sendWithWallet`), which asks the person.
 *
 * @throws {DialError} the share errors of {@link loadSigningAccount}, `insufficient_balance` when the node
 * refuses for lack of funds, `chain_unavailable`, or `internal_error`. Nothing was sent when it throws.
 */
export async function signAndSend(options: SignAndSendOptions): Promise<`0x${string}`> {
  const { userId, signer, address, chain, chains, call, estimate, reads } = options;
  const transaction = {
    from: address,
    to: call.to,
    value: numberToHex(call.value),
    ...(call.data !== undefined ? { data: call.data } : {}),
    gas: numberToHex(estimate.gas),
    maxFeePerGas: numberToHex(estimate.maxFeePerGas),
    maxPriorityFeePerGas: numberToHex(estimate.maxPriorityFeePerGas),
  };
  if (signer === 'external') {
    try {
      return await sendWithWallet(address, chain, transaction);
    } catch (error) {
      throw sendError(error);
    }
  }
  // With the nonce and the type as well as the gas and fees, the provider asks the chain for nothing more.
  const nonce = reads === undefined ? undefined : await reads.nonce;
  const complete = {
    ...transaction,
    type: '0x2',
    ...(nonce !== undefined ? { nonce: numberToHex(nonce) } : {}),
  };
  const provider = createEmbeddedProvider({
    address,
    chains,
    chainId: chain.id,
    getAccount: () => loadSigningAccount(userId, address, reads?.wallet),
  });
  try {
    return await sendTransactionWithFallback(provider, complete);
  } catch (error) {
    throw sendError(error);
  } finally {
    provider.disconnect();
  }
}
