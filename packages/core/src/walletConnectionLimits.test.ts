import { describe, expect, it } from 'vitest';
import {
  clampRequestExpiry,
  MAX_REQUEST_EXPIRY_SECONDS,
  MIN_REQUEST_EXPIRY_SECONDS,
  WALLET_PROPOSAL_TTL_SECONDS,
  WALLET_SESSION_TTL_SECONDS,
} from './walletConnectionLimits.js';

describe('wallet-connection limits', () => {
  it('lasts a session 7 days and a proposal 5 minutes', () => {
    expect(WALLET_SESSION_TTL_SECONDS).toBe(7 * 24 * 60 * 60);
    expect(WALLET_PROPOSAL_TTL_SECONDS).toBe(5 * 60);
  });

  it('lets a request wait from 5 minutes to 7 days', () => {
    expect(MIN_REQUEST_EXPIRY_SECONDS).toBe(300);
    expect(MAX_REQUEST_EXPIRY_SECONDS).toBe(604_800);
  });
});

describe('clampRequestExpiry', () => {
  it('keeps an expiry inside the range', () => {
    expect(clampRequestExpiry(300)).toBe(300);
    expect(clampRequestExpiry(3600)).toBe(3600);
    expect(clampRequestExpiry(604_800)).toBe(604_800);
  });

  it('raises a short expiry to the minimum', () => {
    expect(clampRequestExpiry(60)).toBe(300);
    expect(clampRequestExpiry(0)).toBe(300);
    expect(clampRequestExpiry(-5)).toBe(300);
    expect(clampRequestExpiry(Number.NEGATIVE_INFINITY)).toBe(300);
  });

  it('lowers a long expiry to the maximum', () => {
    expect(clampRequestExpiry(604_801)).toBe(604_800);
    expect(clampRequestExpiry(Number.POSITIVE_INFINITY)).toBe(604_800);
  });

  it('gives the minimum for NaN or no expiry', () => {
    expect(clampRequestExpiry(Number.NaN)).toBe(300);
    expect(clampRequestExpiry(undefined)).toBe(300);
  });

  it('drops fractions of a second', () => {
    expect(clampRequestExpiry(600.9)).toBe(600);
  });
});
