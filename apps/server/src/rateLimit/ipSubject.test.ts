import { describe, expect, it } from 'vitest';
import { ipSubject } from './ipSubject.js';

describe('ipSubject', () => {
  it('counts an IPv4 client by its address', () => {
    expect(ipSubject('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(ipSubject('127.0.0.1', 128)).toBe('127.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, however it is written', () => {
    expect(ipSubject('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(ipSubject('::FFFF:127.0.0.1', 64)).toBe('127.0.0.1');
    expect(ipSubject('0:0:0:0:0:ffff:cb00:7107', 64)).toBe('203.0.113.7');
    expect(ipSubject('::ffff:cb00:7107', 48)).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, written canonically, whatever the rest of its address', () => {
    const subject = '2001:db8:0:1::/64';
    expect(ipSubject('2001:db8:0:1::1', 64)).toBe(subject);
    expect(ipSubject('2001:db8:0:1:aaaa:bbbb:cccc:dddd', 64)).toBe(subject);
    expect(ipSubject('2001:0DB8:0000:0001:0000:0000:0000:0007', 64)).toBe(subject);
    expect(ipSubject('2001:db8::1:ffff:ffff:ffff:ffff', 64)).toBe(subject);
    expect(ipSubject('2001:db8:0:2::1', 64)).toBe('2001:db8:0:2::/64');
  });

  it('keeps the configured number of bits, cut inside a group too', () => {
    expect(ipSubject('2001:db8:abcd:12ff::1', 56)).toBe('2001:db8:abcd:1200::/56');
    expect(ipSubject('2001:db8:abcd:12ff::1', 48)).toBe('2001:db8:abcd::/48');
    expect(ipSubject('2001:db8:abcd:12ff::1', 32)).toBe('2001:db8::/32');
    expect(ipSubject('2001:db8:abcd:12ff::1', 128)).toBe('2001:db8:abcd:12ff::1/128');
    expect(ipSubject('2001:db8:abcd:12ff:1:2:3:4', 128)).toBe('2001:db8:abcd:12ff:1:2:3:4/128');
  });

  it('writes the first longest run of zero groups as ::, never a single zero group', () => {
    expect(ipSubject('::', 64)).toBe('::/64');
    expect(ipSubject('::1', 64)).toBe('::/64');
    expect(ipSubject('::1', 128)).toBe('::1/128');
    expect(ipSubject('1:0:0:1:0:0:0:1', 128)).toBe('1:0:0:1::1/128');
    expect(ipSubject('1:0:0:1:1:0:0:1', 128)).toBe('1::1:1:0:0:1/128');
    expect(ipSubject('1:0:1:1:1:1:1:1', 128)).toBe('1:0:1:1:1:1:1:1/128');
  });

  it('reads an address with a trailing dotted part that is not IPv4-mapped as IPv6', () => {
    expect(ipSubject('64:ff9b::203.0.113.7', 96)).toBe('64:ff9b::/96');
    expect(ipSubject('64:ff9b::203.0.113.7', 128)).toBe('64:ff9b::cb00:7107/128');
  });

  it('drops a zone id', () => {
    expect(ipSubject('fe80::1%eth0', 64)).toBe('fe80::/64');
    expect(ipSubject('fe80::1%2', 128)).toBe('fe80::1/128');
  });

  it('returns what is no IP address as it is', () => {
    expect(ipSubject('not-an-address', 64)).toBe('not-an-address');
    expect(ipSubject('', 64)).toBe('');
  });
});
