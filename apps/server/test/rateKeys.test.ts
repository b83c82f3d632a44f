import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rateKey } from '../src/config/rateKey.js';
import { type LimitName, RATE_LIMITS } from '../src/config/rateLimits.js';

const SRC = join(import.meta.dirname, '..', 'src');

/** Every production source file of the server, by its path under `src/`. */
function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(SRC, path)] : [];
  });
}

describe('rate-limit keys', () => {
  it('are made by rateKey alone: no other production file casts to a RateKey', () => {
    const files = sourceFiles();
    expect(files).toContain('config/rateKey.ts');
    const casting = files.filter(
      (file) =>
        file !== 'config/rateKey.ts' &&
        /\bas\s+RateKey\b|<RateKey>/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(casting).toEqual([]);
  });

  it('name the counters as they are stored: the limit, then its subject', () => {
    expect(rateKey('otpStartsPerIp', '203.0.113.9')).toBe('otp-start:ip:203.0.113.9');
    expect(rateKey('walletRecoveryPerUser', 'user-1')).toBe('recovery:user:user-1');
    expect(rateKey('otpVerifiesPerDevice', 'sign-in', 'sms', '+447400123456', 'device')).toBe(
      'otp-verify:sign-in:sms:+447400123456:device',
    );
  });

  it('give every limit of the table counters of its own', () => {
    const names = Object.keys(RATE_LIMITS) as LimitName[];
    const keys = names.map((name) => rateKey(name, 'subject'));
    expect(new Set(keys).size).toBe(names.length);
  });
});
