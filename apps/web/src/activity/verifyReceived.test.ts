import { encodeAbiParameters, encodeEventTopics, erc20Abi, type Log } from 'viem';
import { describe, expect, it } from 'vitest';
import type { ChainEvidence } from './verifyReceived';
import { verifyReceived } from './verifyReceived';

const ME = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SENDER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const OTHER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const FAKE_TOKEN = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const HASH = `0x${'12'.repeat(32)}` as const;

function transferLog(token: `0x${string}`, from: `0x${string}`, to: `0x${string}`, value: bigint): Log {
  return {
    address: token,
    topics: encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from, to } }) as Log['topics'],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
    blockHash: `0x${'00'.repeat(32)}`,
    blockNumber: 1n,
    logIndex: 0,
    transactionHash: HASH,
    transactionIndex: 0,
    removed: false,
  };
}

function usdcEvidence(logs: Log[], status: 'success' | 'reverted' = 'success'): ChainEvidence {
  return { receipt: { status, transactionHash: HASH, logs } };
}

function nativeEvidence(overrides: Partial<NonNullable<ChainEvidence['transaction']>> = {}): ChainEvidence {
  return {
    receipt: { status: 'success', transactionHash: HASH, logs: [] },
    transaction: { hash: HASH, from: SENDER, to: ME, value: 10n ** 16n, ...overrides },
  };
}

const usdcTransfer = { txHash: HASH, from: SENDER, to: ME, asset: 'usdc', amount: '5000000' } as const;
const nativeTransfer = {
  txHash: HASH,
  from: SENDER,
  to: ME,
  asset: 'native',
  amount: '10000000000000000',
} as const;

describe('verifyReceived: USDC', () => {
  it("verifies a Transfer log of the chain's USDC from the sender to us of exactly the amount", () => {
    const evidence = usdcEvidence([transferLog(USDC, SENDER, ME, 5_000_000n)]);
    expect(verifyReceived(usdcTransfer, ME, evidence, USDC)).toEqual({ ok: true });
    // Addresses compare case-insensitively.
    expect(verifyReceived(usdcTransfer, ME, evidence, USDC.toLowerCase() as `0x${string}`)).toEqual({
      ok: true,
    });
  });

  it('finds the matching log among others', () => {
    const evidence = usdcEvidence([
      transferLog(USDC, SENDER, OTHER, 1n),
      transferLog(USDC, SENDER, ME, 5_000_000n),
    ]);
    expect(verifyReceived(usdcTransfer, ME, evidence, USDC)).toEqual({ ok: true });
  });

  it('refuses a Transfer of another token, amount, sender or recipient', () => {
    for (const log of [
      transferLog(FAKE_TOKEN, SENDER, ME, 5_000_000n),
      transferLog(USDC, SENDER, ME, 4_999_999n),
      transferLog(USDC, OTHER, ME, 5_000_000n),
      transferLog(USDC, SENDER, OTHER, 5_000_000n),
    ]) {
      expect(verifyReceived(usdcTransfer, ME, usdcEvidence([log]), USDC).ok).toBe(false);
    }
    expect(verifyReceived(usdcTransfer, ME, usdcEvidence([]), USDC).ok).toBe(false);
  });

  it('refuses a reverted transaction, another transaction, no USDC on the chain, or a transfer not to us', () => {
    const good = [transferLog(USDC, SENDER, ME, 5_000_000n)];
    expect(verifyReceived(usdcTransfer, ME, usdcEvidence(good, 'reverted'), USDC).ok).toBe(false);
    const other = {
      receipt: { status: 'success', transactionHash: `0x${'34'.repeat(32)}`, logs: good },
    } as const;
    expect(verifyReceived(usdcTransfer, ME, other, USDC).ok).toBe(false);
    expect(verifyReceived(usdcTransfer, ME, usdcEvidence(good), undefined).ok).toBe(false);
    expect(verifyReceived(usdcTransfer, OTHER, usdcEvidence(good), USDC).ok).toBe(false);
  });
});

describe('verifyReceived: native', () => {
  it('verifies a successful transaction from the sender to us with exactly the value', () => {
    expect(verifyReceived(nativeTransfer, ME, nativeEvidence(), USDC)).toEqual({ ok: true });
  });

  it('refuses another sender, recipient, value, hash, a reverted receipt, or no transaction', () => {
    for (const evidence of [
      nativeEvidence({ from: OTHER }),
      nativeEvidence({ to: OTHER }),
      nativeEvidence({ to: null }),
      nativeEvidence({ value: 10n ** 16n + 1n }),
      nativeEvidence({ hash: `0x${'34'.repeat(32)}` }),
      {
        ...nativeEvidence(),
        receipt: { status: 'reverted', transactionHash: HASH, logs: [] },
      } as ChainEvidence,
      { receipt: { status: 'success', transactionHash: HASH, logs: [] } } as ChainEvidence,
    ]) {
      expect(verifyReceived(nativeTransfer, ME, evidence, USDC).ok).toBe(false);
    }
  });

  it('refuses an amount that is not a number', () => {
    expect(verifyReceived({ ...nativeTransfer, amount: 'lots' }, ME, nativeEvidence(), USDC).ok).toBe(false);
  });
});
