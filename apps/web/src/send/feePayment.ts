import type { WalletFees } from '@dial/api';
import { DialError } from '@dial/core';
import type { Chain } from 'viem';
import { formatBalance } from '../chain/formatBalance';
import type { Funds, SendAsset } from './amount';
import { formatFeeMax } from './formatFeeMax';
import type { WalletSigner } from './sendTransfer';

/** What the server says of a chain's network fee for this account (`GET /api/wallet/fees`). */
export type FeeOptions = Pick<
  WalletFees,
  'userOperations' | 'sponsored' | 'operatorName' | 'sponsoredLeftToday' | 'notSponsoredReason'
>;

/**
 * Who pays the network fee of a send: `operator`, the Dial server's operator through its paymaster (a user
 * operation, nothing taken from the wallet); `wallet`, the wallet itself in the chain's native currency.
 */
export type FeePayment = { by: 'operator'; operatorName: string } | { by: 'wallet' };

/**
 * Who pays the fee: the operator when the wallet is the embedded one (only its key can become the smart
 * account), the chain takes user operations and the server sponsors this account's fee now; else the
 * wallet. An external wallet always pays its own fee: it signs plain transactions in its own app.
 */
export function chooseFeePayment(signer: WalletSigner, options: FeeOptions | null): FeePayment {
  if (
    signer === 'embedded' &&
    options !== null &&
    options.userOperations &&
    options.sponsored &&
    options.operatorName !== null
  ) {
    return { by: 'operator', operatorName: options.operatorName };
  }
  return { by: 'wallet' };
}

/**
 * Why the operator does not pay this account's fee now, as the catalogue's error (its words say what to do),
 * or null when it does or never offers it on this chain (nothing to explain).
 */
export function notSponsoredError(options: FeeOptions | null): DialError | null {
  if (options === null || options.sponsored || !options.userOperations) return null;
  if (options.notSponsoredReason === 'account_limit') return new DialError('sponsor_account_limit');
  if (options.notSponsoredReason === 'daily_cap') return new DialError('sponsor_daily_cap');
  return null;
}

/** The fee the wallet's balances must cover: none when the operator pays it. */
export function feeToCover(payment: FeePayment, selfPaidFee: bigint): bigint {
  return payment.by === 'operator' ? 0n : selfPaidFee;
}

/** A send that the balances do not cover, in the person's words, and what can fix it. */
export interface Shortfall {
  /** What is missing, said exactly. */
  message: string;
  /**
   * The asset to add on this chain, by its symbol (`ETH`, `USDC`): the one that is short. Buying or
   * depositing it is what fixes the send.
   */
  add: string;
  /** Sending less fixes it too: the asset sent is the one the fee is paid in, and covers part of it. */
  sendLess: boolean;
}

export interface ShortfallInput {
  chain: Pick<Chain, 'name' | 'nativeCurrency'>;
  asset: SendAsset;
  amount: bigint;
  funds: Funds;
  payment: FeePayment;
  /** The most the network fee costs when the wallet pays it, in the native currency's smallest unit. */
  selfPaidFee: bigint;
}

/**
 * Why the balances do not cover the send, or null when they do. Said as it is: the asset sent that is short;
 * or, for a token, the native currency the fee needs ("Sending USDC on Base needs about 0.00002 ETH for the
 * network fee, and this wallet has none."), where sending less cannot help; or, for the native currency, the
 * fee on top of the amount, where sending less can.
 */
export function findShortfall({
  chain,
  asset,
  amount,
  funds,
  payment,
  selfPaidFee,
}: ShortfallInput): Shortfall | null {
  const native = chain.nativeCurrency;
  const fee = feeToCover(payment, selfPaidFee);
  if (asset === 'usdc') {
    const usdc = funds.usdc ?? 0n;
    if (usdc < amount) {
      return {
        message: `This wallet has ${formatBalance(usdc, { decimals: 6, symbol: 'USDC' })} on ${chain.name}, less than the ${formatBalance(amount, { decimals: 6, symbol: 'USDC' })} to send.`,
        add: 'USDC',
        sendLess: usdc > 0n,
      };
    }
    if (funds.native >= fee) return null;
    const has =
      funds.native === 0n
        ? 'this wallet has none'
        : `this wallet has only ${formatBalance(funds.native, native)}`;
    return {
      message: `Sending USDC on ${chain.name} needs about ${formatFeeMax(fee, native)} for the network fee, and ${has}.`,
      add: native.symbol,
      sendLess: false,
    };
  }
  if (funds.native >= amount + fee) return null;
  if (funds.native < amount) {
    return {
      message: `This wallet has ${formatBalance(funds.native, native)} on ${chain.name}, less than the ${formatBalance(amount, native)} to send.`,
      add: native.symbol,
      sendLess: funds.native > fee,
    };
  }
  const most = funds.native > fee ? funds.native - fee : 0n;
  return {
    message: `Sending ${formatBalance(amount, native)} also needs up to ${formatFeeMax(fee, native)} for the network fee. Send at most ${formatBalance(most, native)}, or add ${native.symbol}.`,
    add: native.symbol,
    sendLess: most > 0n,
  };
}

/** A shortfall as the catalogue's `insufficient_balance`, with its exact words: what the app's error display shows. */
export function shortfallError(shortfall: Shortfall): DialError {
  return new DialError('insufficient_balance', { message: shortfall.message });
}
