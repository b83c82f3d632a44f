import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../src/config/index.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, type TestApp } from './testApp.js';

// Issue 26 §6: per-IP limits count an IPv6 client by its network (IPV6_PREFIX_LENGTH, a /64 by default),
// an IPv4 client by its address: one IPv6 client picks a new address of its /64 at will.

const SRC = new URL('../src/', import.meta.url);

/** Every TypeScript file of the server's source but the tests, with its path. */
function sourceFiles(dir = SRC.pathname): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return [{ path, text: readFileSync(path, 'utf8') }];
  });
}

/** A sign-in start for a new address from a new browser at `ip` (or from `ip` forwarded by a proxy). */
function startFrom(t: TestApp, i: number, ip: string, via: 'socket' | 'proxy' = 'socket') {
  return t.post(
    '/api/auth/otp/start',
    { channel: 'email', to: `person${i}@example.com` },
    via === 'socket' ? { ip, device: null } : { headers: { 'x-forwarded-for': ip }, device: null },
  );
}

describe('every per-IP rate limit', () => {
  it('counts its client by ipSubject, never by request.ip as it is', () => {
    const keys = sourceFiles().flatMap(({ path, text }) =>
      [...text.matchAll(/rateKey\(\s*'\w+PerIp',\s*([^)]*)/g)].map((match) => ({ path, subject: match[1] })),
    );
    expect(keys.length).toBeGreaterThanOrEqual(7);
    for (const key of keys)
      expect(key, key.path).toMatchObject({ subject: expect.stringMatching(/^ipSubject\(/) });
  });
});

describe.each(DIALECTS)('per-IP limits on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it(`gives 25 addresses of one /64 only OTP_STARTS_PER_IP (20) sign-in starts, and another /64 its own (${dialectLabel(dialect)})`, async () => {
    const t = await createTestApp(db());
    expect(t.config.rateLimits.otpStartsPerIp.max).toBe(20);
    const statuses: number[] = [];
    for (let i = 1; i <= 25; i++) {
      statuses.push((await startFrom(t, i, `2001:db8:0:1:${i.toString(16)}:${i}:${i}:${i}`)).statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);
    expectError(await startFrom(t, 26, '2001:db8:0:1::1'), 429, 'too_many_requests');
    expect(t.transport.sent).toHaveLength(20);

    expect((await startFrom(t, 27, '2001:db8:0:2::1')).statusCode).toBe(200);
  });

  it('counts the same client however its address is written, and an IPv4-mapped address as its IPv4 one', async () => {
    const t = await createTestApp(db());
    const spellings = [
      '2001:db8:0:1::1',
      '2001:DB8:0:1::2',
      '2001:0db8:0000:0001:0000:0000:0000:0003',
      'fe80::1%eth0',
    ];
    for (let i = 0; i < 20; i++) {
      const ip = i < 10 ? spellings[i % 3]! : i % 2 === 0 ? '203.0.113.7' : '::ffff:203.0.113.7';
      expect((await startFrom(t, i, ip)).statusCode).toBe(200);
    }
    for (const ip of spellings.slice(0, 3)) {
      for (let i = 0; i < 10; i++) await startFrom(t, 100 + i, ip);
      expectError(await startFrom(t, 200, ip), 429, 'too_many_requests');
    }
    for (let i = 0; i < 10; i++) expect((await startFrom(t, 300 + i, '203.0.113.7')).statusCode).toBe(200);
    expectError(await startFrom(t, 400, '::ffff:203.0.113.7'), 429, 'too_many_requests');
    // An IPv4 client is its address alone: its neighbour has its own budget.
    expect((await startFrom(t, 401, '203.0.113.8')).statusCode).toBe(200);
  });

  it('counts a client behind a trusted proxy (X-Forwarded-For) by its /64 too', async () => {
    const t = await createTestApp(db(), { config: { trustProxy: parseTrustProxy('loopback') } });
    const statuses: number[] = [];
    for (let i = 1; i <= 25; i++) {
      statuses.push((await startFrom(t, i, `2001:db8:0:1::${i.toString(16)}`, 'proxy')).statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);
  });

  it('follows IPV6_PREFIX_LENGTH: 128 counts each address apart, 48 a whole /48', async () => {
    const apart = await createTestApp(db(), { config: { ipv6PrefixLength: 128 } });
    for (let i = 1; i <= 25; i++) {
      expect((await startFrom(apart, i, `2001:db8:0:1::${i.toString(16)}`)).statusCode).toBe(200);
    }

    const wide = await createTestApp(db(), { config: { ipv6PrefixLength: 48 } });
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i++) {
      statuses.push((await startFrom(wide, 100 + i, `2001:db8:1:${i.toString(16)}::1`)).statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
  });

  it('limits Sign-In with Ethereum nonces by the /64 as well (30 in 10 minutes)', async () => {
    const t = await createTestApp(db());
    const statuses: number[] = [];
    for (let i = 1; i <= 31; i++) {
      const response = await t.post('/api/auth/siwe/nonce', undefined, {
        ip: `2001:db8:0:1::${i.toString(16)}`,
        device: null,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(30).fill(200), 429]);
  });
});
