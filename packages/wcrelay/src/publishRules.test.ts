import { PAIRING_RPC_OPTS } from '@walletconnect/core';
import { ENGINE_RPC_OPTS, SESSION_REQUEST_EXPIRY_BOUNDARIES } from '@walletconnect/sign-client';
import { describe, expect, it } from 'vitest';
import { checkPublishTtl, PUBLISH_RULES, SESSION_REQUEST_TTL } from './publishRules.js';

describe('PUBLISH_RULES', () => {
  it("hold every tag and ttl of the SDK's Sign and pairing messages (its ENGINE_RPC_OPTS and PAIRING_RPC_OPTS)", () => {
    const fromSdk = [
      ...Object.entries(ENGINE_RPC_OPTS).flatMap(([method, kinds]) =>
        Object.entries(kinds).map(([kind, opts]) => ({ method, kind, tag: opts.tag, ttl: opts.ttl })),
      ),
      ...Object.entries(PAIRING_RPC_OPTS)
        .filter(([method]) => method !== 'unregistered_method')
        .flatMap(([method, kinds]) =>
          Object.entries(kinds).map(([kind, opts]) => ({ method, kind, tag: opts.tag, ttl: opts.ttl })),
        ),
    ];
    const ours = Object.entries(PUBLISH_RULES).map(([tag, rule]) => ({
      method: rule.method,
      kind: rule.kind,
      tag: Number(tag),
      // A session request's publish ttl is its expiry; the SDK's default is 15 minutes, within the range.
      ttl: typeof rule.ttl === 'number' ? rule.ttl : ENGINE_RPC_OPTS.wc_sessionRequest.req.ttl,
    }));
    const byTag = (a: { tag?: number }, b: { tag?: number }) => (a.tag ?? 0) - (b.tag ?? 0);
    expect(ours.sort(byTag)).toEqual(fromSdk.sort(byTag));
  });

  it("give a session request the SDK's expiry range (5 minutes to 7 days)", () => {
    expect(SESSION_REQUEST_TTL).toEqual(SESSION_REQUEST_EXPIRY_BOUNDARIES);
  });
});

describe('checkPublishTtl', () => {
  it('accepts the ttl a tag names, and a session request from 300 to 604800 seconds', () => {
    expect(checkPublishTtl(1100, 300)).toBeNull();
    expect(checkPublishTtl(1108, 300)).toBeNull();
    expect(checkPublishTtl(1108, 604_800)).toBeNull();
  });

  it('says what is wrong otherwise', () => {
    expect(checkPublishTtl(1100, 301)).toBe('ttl 301 for tag 1100 (wc_sessionPropose) is not 300');
    expect(checkPublishTtl(1108, 299.5)).toBe('ttl must be whole seconds');
    expect(checkPublishTtl('1100', 300)).toBe('tag must be an integer');
  });
});
