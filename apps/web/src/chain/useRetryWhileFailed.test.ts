import { describe, expect, it } from 'vitest';
import { retryDelayMs, retryingText } from './useRetryWhileFailed';

describe('retryDelayMs', () => {
  it('doubles from 2 s and stays at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(retryDelayMs)).toEqual([
      2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('retryingText', () => {
  it('says the message once, and that Dial tries again by itself', () => {
    expect(retryingText({ message: 'The network could not be reached.' })).toBe(
      'The network could not be reached. Dial keeps trying.',
    );
  });
});
