import { describe, expect, it } from 'vitest';
import { plainIp } from './plainIp.js';

describe('plainIp', () => {
  it('unwraps an IPv4-mapped IPv6 address', () => {
    expect(plainIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(plainIp('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('leaves IPv4, IPv6 and anything that is not a mapped IPv4 address alone', () => {
    expect(plainIp('203.0.113.7')).toBe('203.0.113.7');
    expect(plainIp('2001:db8::1')).toBe('2001:db8::1');
    expect(plainIp('::ffff:2001:db8::1')).toBe('::ffff:2001:db8::1');
    expect(plainIp('::1')).toBe('::1');
  });
});
