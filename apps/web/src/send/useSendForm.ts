import { USDC_DECIMALS } from '@dial/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Chain } from 'viem';
import type { ChainClient } from '../chain/createChainClient';
import type { BalanceState } from '../chain/useBalance';
import type { UsdcBalanceState } from '../chain/useUsdcBalance';
import { countryName } from '../sign-in/countryList';
import { initialCountry } from '../sign-in/initialCountry';
import { type Funds, hasEnoughFunds, maxSendable, parseAmount, type SendAsset } from './amount';
import {
  chooseFeePayment,
  type FeePayment,
  feeToCover,
  findShortfall,
  notSponsoredError,
} from './feePayment';
import type { FeeEstimate } from './networkFee';
import {
  parseRecipientAddress,
  parseRecipientPhone,
  type RecipientMode,
  type RecipientRules,
  refuseRecipient,
} from './recipient';
import type { WalletSigner } from './sendTransfer';
import { type TransferCall, transferCall } from './transferCall';
import { useFeeEstimate } from './useFeeEstimate';
import { useFeeOptions } from './useFeeOptions';
import { useRecipientLookup } from './useRecipientLookup';

/** What the send form holds; kept while the person checks the confirmation, so "Back" restores it. */
export interface SendDraft {
  mode: RecipientMode;
  countryCode: string;
  phone: string;
  address: string;
  asset: SendAsset;
  amount: string;
}

/** Who receives: the wallet address, and the number it was found by when chosen by phone. */
export interface Recipient {
  address: `0x${string}`;
  /** E.164, recorded with the transfer (the server masks it). */
  phone?: string;
  /** As the person typed it, grouped: "+44 7400 123456". */
  phoneDisplay?: string;
}

/** Everything the confirmation step shows and the send uses, fixed when the person pressed "Review". */
export interface SendPlan {
  chain: Chain;
  asset: SendAsset;
  amount: bigint;
  recipient: Recipient;
  call: TransferCall;
  /** The fee if the wallet pays it: also kept when the operator pays, for a send after a refusal. */
  estimate: FeeEstimate;
  /** Who pays the network fee. */
  payment: FeePayment;
}

export interface SendFormOptions {
  signer: WalletSigner;
  address: `0x${string}`;
  chain: Chain;
  usdcAddress: `0x${string}` | undefined;
  client: ChainClient;
  nativeBalance: BalanceState;
  usdcBalance: UsdcBalanceState;
  /** What the form opens with: a kept draft, a link's values, or a blank draft. */
  initial: SendDraft;
  /** Show the recipient's problem at once, not only after "Review": the value came whole from a link. */
  revealRecipient?: boolean | undefined;
}

/**
 * An empty form, the recipient asked by phone in the person's country: their own number's (`ownPhone`,
 * E.164), else the last one they picked, else their browser's (see `initialCountry`).
 */
export function blankSendDraft(ownPhone: string | null): SendDraft {
  return {
    mode: 'phone',
    countryCode: initialCountry(ownPhone),
    phone: '',
    address: '',
    asset: 'native',
    amount: '',
  };
}

/** The asset's decimals and symbol on `chain`. */
export function assetUnits(asset: SendAsset, chain: Chain): { decimals: number; symbol: string } {
  return asset === 'usdc'
    ? { decimals: USDC_DECIMALS, symbol: 'USDC' }
    : { decimals: chain.nativeCurrency.decimals, symbol: chain.nativeCurrency.symbol };
}

/**
 * The send form's state and everything read from it: the recipient (checked, and looked up when it is a
 * number), the amount, the fee estimate for the transfer as it stands, and whether the balances cover it.
 */
export function useSendForm({
  signer,
  address,
  chain,
  usdcAddress,
  client,
  nativeBalance,
  usdcBalance,
  initial,
  revealRecipient = false,
}: SendFormOptions) {
  const [draft, setDraft] = useState<SendDraft>(initial);
  /** Set by a first "Review": from then on every field's problem shows, not only the obvious ones. */
  const [submitted, setSubmitted] = useState(false);
  const update = useCallback(
    (patch: Partial<SendDraft>) => setDraft((current) => ({ ...current, ...patch })),
    [],
  );

  const asset: SendAsset = draft.asset === 'usdc' && usdcAddress !== undefined ? 'usdc' : 'native';
  const units = assetUnits(asset, chain);

  const phone = useMemo(
    () => parseRecipientPhone(draft.phone, draft.countryCode, countryName),
    [draft.phone, draft.countryCode],
  );
  // Who must not be paid: oneself, and addresses that are not wallets (see refuseRecipient).
  const rules: RecipientRules = useMemo(
    () => ({ ownAddress: address, usdcAddress, chainName: chain.name }),
    [address, usdcAddress, chain.name],
  );
  const typedAddress = useMemo(() => parseRecipientAddress(draft.address, rules), [draft.address, rules]);
  const lookup = useRecipientLookup(draft.mode === 'phone' && phone.ok ? phone.e164 : null);

  let recipient: Recipient | null = null;
  /** Why the number's wallet is refused (the person's own), shown at once like a look-up's answer. */
  let phoneRefusal: string | null = null;
  if (draft.mode === 'address' && typedAddress.ok) recipient = { address: typedAddress.address };
  if (draft.mode === 'phone' && phone.ok && lookup.status === 'found' && lookup.e164 === phone.e164) {
    phoneRefusal = refuseRecipient(lookup.recipient.address, rules, 'phone');
    if (phoneRefusal === null) {
      recipient = { address: lookup.recipient.address, phone: phone.e164, phoneDisplay: phone.display };
    }
  }

  const amount = useMemo(
    () => parseAmount(draft.amount, units.decimals, units.symbol),
    [draft.amount, units.decimals, units.symbol],
  );
  const funds: Funds | null =
    nativeBalance.status === 'ready' && (asset === 'native' || usdcBalance.status === 'ready')
      ? { native: nativeBalance.value, usdc: usdcBalance.status === 'ready' ? usdcBalance.value : undefined }
      : null;

  const balanceError =
    nativeBalance.status === 'failed'
      ? nativeBalance.error
      : asset === 'usdc' && usdcBalance.status === 'failed'
        ? usdcBalance.error
        : null;

  // The fee is estimated for the transfer as it stands: to our own address until there is a recipient (the
  // gas of a plain transfer does not depend on who receives it), and for 0 while the amount is not one the
  // chain would accept (an estimate of a transfer the balance cannot cover fails).
  const available = funds === null ? 0n : asset === 'usdc' ? (funds.usdc ?? 0n) : funds.native;
  const estimateAmount = amount.ok && amount.value <= available ? amount.value : 0n;
  const call = useMemo(
    () => transferCall(asset, recipient?.address ?? address, estimateAmount, usdcAddress),
    [asset, recipient?.address, address, estimateAmount, usdcAddress],
  );
  const fee = useFeeEstimate(client, address, call);
  const estimate = fee.state.status === 'ready' && fee.state.key === fee.key ? fee.state.estimate : null;
  // The balances came back (the network is reachable again): estimate again a fee that failed meanwhile.
  const balanceFailed = balanceError !== null;
  const { retry: retryFee } = fee;
  const feeFailed = fee.state.status === 'failed';
  const wasFailing = useRef(balanceFailed);
  useEffect(() => {
    if (wasFailing.current && !balanceFailed && feeFailed) retryFee();
    wasFailing.current = balanceFailed;
  }, [balanceFailed, feeFailed, retryFee]);

  // Who pays the fee: the operator where it sponsors this account on this chain now, else the wallet.
  const { state: feeOptions, refresh: refreshFeeOptions } = useFeeOptions(signer, chain.id);
  const options = feeOptions.status === 'ready' ? feeOptions.options : null;
  const payment = useMemo(() => chooseFeePayment(signer, options), [signer, options]);
  /** Why the operator does not pay now (its limit reached), to say beside a self-paid fee. */
  const notSponsored = notSponsoredError(options);
  const feeCovered = estimate === null ? null : feeToCover(payment, estimate.fee);

  const enough =
    amount.ok && feeCovered !== null && funds !== null
      ? hasEnoughFunds(asset, amount.value, feeCovered, funds)
      : null;
  const shortfall =
    enough === false && amount.ok && estimate !== null && funds !== null
      ? findShortfall({ chain, asset, amount: amount.value, funds, payment, selfPaidFee: estimate.fee })
      : null;
  const max = feeCovered !== null && funds !== null ? maxSendable(asset, funds, feeCovered) : null;

  const showAmountError = draft.amount.trim() !== '' || submitted;
  const amountError = !amount.ok && showAmountError ? amount.message : null;
  const recipientError =
    draft.mode === 'phone'
      ? !phone.ok && (submitted || revealRecipient)
        ? phone.message
        : phoneRefusal
      : !typedAddress.ok && (submitted || revealRecipient || draft.address.trim().length >= 42)
        ? typedAddress.message
        : null;

  /** Still working out whether the transfer can be reviewed: the fee estimate or the look-up is running. */
  const settling =
    feeOptions.status === 'loading' ||
    fee.state.status === 'loading' ||
    (fee.state.status === 'ready' && estimate === null) ||
    (draft.mode === 'phone' && phone.ok && lookup.status === 'loading');

  /**
   * The plan to confirm; 'wait' while the fee or the recipient is still being worked out (ask again when
   * `settling` turns false); null when something is missing or wrong (then every problem shows).
   */
  const review = useCallback((): SendPlan | 'wait' | null => {
    setSubmitted(true);
    if (recipient === null && draft.mode === 'phone' && phone.ok && lookup.status === 'loading')
      return 'wait';
    // Who pays the fee decides what the balances must cover.
    if (feeOptions.status === 'loading') return 'wait';
    if (
      recipient !== null &&
      amount.ok &&
      funds !== null &&
      estimate === null &&
      fee.state.status !== 'failed'
    ) {
      return 'wait';
    }
    if (recipient === null || !amount.ok || estimate === null || enough !== true) return null;
    return {
      chain,
      asset,
      amount: amount.value,
      recipient,
      call: transferCall(asset, recipient.address, amount.value, usdcAddress),
      estimate,
      payment,
    };
  }, [
    recipient,
    amount,
    estimate,
    enough,
    chain,
    asset,
    usdcAddress,
    draft.mode,
    phone.ok,
    lookup.status,
    funds,
    fee.state.status,
    payment,
    feeOptions.status,
  ]);

  return {
    draft,
    update,
    asset,
    units,
    phone,
    lookup,
    recipient,
    amount,
    amountError,
    recipientError,
    funds,
    balanceError,
    fee,
    estimate,
    payment,
    notSponsored,
    refreshFeeOptions,
    enough,
    shortfall,
    max,
    submitted,
    settling,
    review,
  };
}

export type SendForm = ReturnType<typeof useSendForm>;
