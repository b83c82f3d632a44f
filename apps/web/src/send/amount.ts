import { formatUnits, maxUint256, parseUnits } from 'viem';

/** What the person sends: the chain's native currency, or its USDC. */
export type SendAsset = 'native' | 'usdc';

export type AmountResult = { ok: true; value: bigint } | { ok: false; message: string };

/**
 * Reads the amount field: a plain decimal ("12", "0.5", ".25") with at most `decimals` places, more than 0.
 * Grouping commas and other separators are refused rather than guessed at, so "1,5" never becomes 15.
 */
export function parseAmount(text: string, decimals: number, symbol: string): AmountResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Enter an amount.' };
  if (!/^(\d+\.?\d*|\.\d+)$/.test(trimmed)) {
    return { ok: false, message: 'Enter the amount in digits, with a point for decimals, like 12.5.' };
  }
  const fraction = trimmed.split('.')[1] ?? '';
  if (fraction.length > decimals) {
    return { ok: false, message: `${symbol} has at most ${decimals} decimal places.` };
  }
  const value = parseUnits(trimmed, decimals);
  if (value === 0n) return { ok: false, message: 'Enter an amount more than 0.' };
  if (value > maxUint256) return { ok: false, message: 'That amount is too large.' };
  return { ok: true, value };
}

/** An amount written back into the field, exactly (no rounding, no grouping): "4.999979", "100". */
export function amountInputText(value: bigint, decimals: number): string {
  return formatUnits(value, decimals);
}

export interface Funds {
  /** The native balance, in wei (or the chain's smallest unit). */
  native: bigint;
  /** The USDC balance in 6-decimal units; undefined where the chain has none. */
  usdc: bigint | undefined;
}

/**
 * The most that can be sent: for the native currency the balance less the network fee (never below 0), as
 * the fee is paid from it too; for USDC the whole token balance (the fee is paid in the native currency).
 */
export function maxSendable(asset: SendAsset, funds: Funds, fee: bigint): bigint {
  if (asset === 'usdc') return funds.usdc ?? 0n;
  return funds.native > fee ? funds.native - fee : 0n;
}

/**
 * Whether the balances cover the transfer: native, amount + fee from the native balance; USDC, the amount
 * from the token balance AND the fee from the native balance.
 */
export function hasEnoughFunds(asset: SendAsset, amount: bigint, fee: bigint, funds: Funds): boolean {
  if (asset === 'usdc') return (funds.usdc ?? 0n) >= amount && funds.native >= fee;
  return funds.native >= amount + fee;
}
