import { describe, expect, it } from 'vitest';
import { checkScryptCost, SCRYPT_COST, SCRYPT_LIMITS } from './checkScryptCost.js';

describe('checkScryptCost', () => {
  it('accepts what Dial writes and the range around it', () => {
    expect(checkScryptCost(SCRYPT_COST)).toBeNull();
    expect(checkScryptCost({ N: SCRYPT_LIMITS.minN, r: 8, p: 1 })).toBeNull();
    expect(checkScryptCost({ N: SCRYPT_LIMITS.maxN, r: 16, p: 4 })).toBeNull();
    expect(checkScryptCost({ N: 2 ** 15, r: 1, p: 1 })).toBeNull();
  });

  it.each([
    ['N below 2^15', { N: 2 ** 14, r: 8, p: 1 }, 'scrypt N 16384 out of range'],
    ['N above 2^20', { N: 2 ** 21, r: 8, p: 1 }, 'scrypt N 2097152 out of range'],
    ['N of 2^30', { N: 2 ** 30, r: 8, p: 1 }, 'scrypt N 1073741824 out of range'],
    ['N not a power of two', { N: 2 ** 16 + 1, r: 8, p: 1 }, 'scrypt N 65537 out of range'],
    ['N not an integer', { N: 32_768.5, r: 8, p: 1 }, 'scrypt N 32768.5 out of range'],
    ['r above 16', { N: 2 ** 15, r: 17, p: 1 }, 'scrypt r 17 out of range'],
    ['r of 0', { N: 2 ** 15, r: 0, p: 1 }, 'scrypt r 0 out of range'],
    ['p above 4', { N: 2 ** 15, r: 8, p: 5 }, 'scrypt p 5 out of range'],
    ['p not an integer', { N: 2 ** 15, r: 8, p: 1.5 }, 'scrypt p 1.5 out of range'],
  ])('refuses %s', (_label, cost, reason) => {
    expect(checkScryptCost(cost)).toBe(reason);
  });
});
