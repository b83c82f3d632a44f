import { type SiweNonce, siweNonceRoute, siweVerifyRoute } from '@dial/api';
import { DialError, LOCAL_CHAIN_ID, SUPPORTED_CHAINS } from '@dial/core';
import type { FastifyRequest } from 'fastify';
import type { Hex } from 'viem';
import type { AppContext } from '../../appContext.js';
import { ChainReadError } from '../../chain/chainReader.js';
import { createMessageSignatureVerifier } from '../../chain/verifyChainSignature.js';
import type { AppConfig } from '../../config/index.js';
import { rateKey } from '../../config/rateKey.js';
import type { TypedApp } from '../../http/typedApp.js';
import { ipSubject } from '../../rateLimit/ipSubject.js';
import { deviceHashOf, ensureDevice } from '../devices.js';
import { startSignedInSession } from '../startSignedInSession.js';
import { findEmbeddedWalletOwner, findOrCreateUser } from '../users.js';
import { checkSiweFields, readSiweMessage, type SiweFields, type SiweRules } from './checkSiweMessage.js';
import { checkSiweNonce, issueSiweNonce, type SiweNonceBinding, useSiweNonce } from './siweNonces.js';

/** The statements the web app puts in its messages (the server does not hold a message to its statement). */
const STATEMENTS = {
  'sign-in': 'Sign in to Dial with this wallet.',
  link: 'Add this wallet as a way to sign in to your Dial account.',
} as const;

/** A SIWE message is lines: its routes let line feeds (only) through the control-character check. */
export const MULTILINE = { multilineBodyFields: ['message'] } as const;

/** What the sign-in routes and the link routes (`account/walletLinkRoutes.ts`) check alike. */
export interface SiweChecks {
  /** The nonce and what the message must say: for the origin the request comes from, when it is ours. */
  nonceAnswer(
    request: FastifyRequest,
    issued: { nonce: string; expiresAt: Date },
    purpose: keyof typeof STATEMENTS,
  ): SiweNonce;
  /**
   * Every check of a signed message, ending with the nonce used: the message's address is proven.
   *
   * @throws {DialError} the message's, the nonce's and the signature's refusals.
   */
  proveSigned(
    body: { message: string; signature: string },
    binding: SiweNonceBinding,
    ip: string,
  ): Promise<SiweFields>;
}

/**
 * Sign-In with Ethereum (EIP-4361), the checks of its messages: those of `POST /api/auth/siwe/nonce` and
 * `/verify` (below), which sign in (and sign up) the address of a wallet the person already has, and those of
 * `POST /api/auth/methods/wallet/nonce` and `/api/auth/methods/wallet`, which link one to the signed-in
 * account (`account/walletLinkRoutes.ts`).
 *
 * A sign-in nonce is bound to the browser that asked (its `dial_device` cookie, set by the nonce route when
 * it has none), a link nonce to the session that asked, so neither works for the other purpose nor from
 * another browser or session. A message is checked field by field (`checkSiweMessage.ts`), then its nonce
 * (issued to this browser or session, unused, unexpired), then its signature (`verifyChainSignature.ts`:
 * EIP-191, ERC-1271, ERC-6492); only then is the nonce used, in one statement that lets one request through.
 * No limit is counted per address (see `checkSignature`): naming someone's address spends nothing of theirs.
 */
export function createSiweChecks(ctx: AppContext): SiweChecks {
  const rules: SiweRules = { origins: ctx.config.allowedOrigins, chainIds: siweChainIds(ctx.config) };
  const verifier = createMessageSignatureVerifier(ctx.config);
  const limits = ctx.config.rateLimits;

  const nonceAnswer = (
    request: FastifyRequest,
    issued: { nonce: string; expiresAt: Date },
    purpose: keyof typeof STATEMENTS,
  ): SiweNonce => {
    const origin = messageOrigin(ctx.config, request.headers.origin);
    return {
      nonce: issued.nonce,
      expiresAt: issued.expiresAt.toISOString(),
      domain: origin.host,
      uri: origin.origin,
      chainIds: [...rules.chainIds],
      statement: STATEMENTS[purpose],
    };
  };

  /**
   * Whether the message's address signed it. A signature by the address's own key is recovered here and
   * never counted, so nobody else's requests can hold its holder back; only this browser's own spent budget
   * stops it. Any other signature (a contract wallet's, or garbage naming someone's address) must be asked
   * of the chain's RPC: each such check is counted first against this browser and this IP address.
   *
   * @throws {DialError} `siwe_signature_invalid`, `too_many_requests`; `chain_unavailable` when the chain
   * had to be asked and could not answer.
   */
  const checkSignature = async (
    fields: SiweFields,
    body: { message: string; signature: string },
    from: { browser: string; ip: string },
  ): Promise<void> => {
    // Whole bytes only: the schema's pattern allows an odd number of hex digits, which is no signature.
    if (body.signature.length % 2 !== 0) throw new DialError('siwe_signature_invalid');
    const signed = { address: fields.address, message: body.message, signature: body.signature as Hex };
    const now = ctx.now();
    const browserKey = rateKey('siweChainChecksPerDevice', from.browser);
    await ctx.rateLimiter.peek(browserKey, limits.siweChainChecksPerDevice, now);
    if (await verifier.signedByKey(signed)) return;
    await ctx.rateLimiter.consume(browserKey, limits.siweChainChecksPerDevice, now);
    await ctx.rateLimiter.consume(
      rateKey('siweChainChecksPerIp', ipSubject(from.ip, ctx.config.ipv6PrefixLength)),
      limits.siweChainChecksPerIp,
      now,
    );
    let valid: boolean;
    try {
      valid = await verifier.signedOnChain(fields.chainId, signed);
    } catch (error) {
      if (!(error instanceof ChainReadError)) throw error;
      throw new DialError('chain_unavailable', { details: error.message });
    }
    if (!valid) throw new DialError('siwe_signature_invalid');
  };

  const proveSigned = async (
    body: { message: string; signature: string },
    binding: SiweNonceBinding,
    ip: string,
  ): Promise<SiweFields> => {
    const now = ctx.now();
    const fields = readSiweMessage(body.message);
    checkSiweFields(fields, rules, now);
    await checkSiweNonce(ctx.db, fields.nonce, binding, now);
    // The nonce was issued to this browser (or session): its counters are the sender's own.
    const browser =
      binding.purpose === 'sign-in' ? `device:${binding.deviceHash}` : `session:${binding.sessionHash}`;
    await checkSignature(fields, body, { browser, ip });
    await useSiweNonce(ctx.db, fields.nonce, binding, ctx.now());
    return fields;
  };

  return { nonceAnswer, proveSigned };
}

/** `POST /api/auth/siwe/nonce` and `/verify`: sign in (and sign up) with a wallet's signed message. */
export function registerSiweRoutes(app: TypedApp, ctx: AppContext): void {
  const { nonceAnswer, proveSigned } = createSiweChecks(ctx);
  const limits = ctx.config.rateLimits;

  app.post(siweNonceRoute.url, { schema: siweNonceRoute.schema }, async (request, reply) => {
    const now = ctx.now();
    await ctx.rateLimiter.consume(
      rateKey('siweNoncesPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
      limits.siweNoncesPerIp,
      now,
    );
    const deviceHash = ensureDevice(request, reply, ctx);
    const issued = await issueSiweNonce(ctx.db, { purpose: 'sign-in', deviceHash }, now);
    return nonceAnswer(request, issued, 'sign-in');
  });

  app.post(
    siweVerifyRoute.url,
    { schema: siweVerifyRoute.schema, config: MULTILINE },
    async (request, reply) => {
      // No device cookie: no nonce can match ('' is no SHA-256).
      const binding: SiweNonceBinding = { purpose: 'sign-in', deviceHash: deviceHashOf(request) ?? '' };
      const { address } = await proveSigned(request.body, binding, request.ip);
      // An embedded wallet's own key (exported, say) signs in to the account it belongs to: one address is
      // never the wallet of two accounts.
      const embeddedOwner = await findEmbeddedWalletOwner(ctx.db, address);
      const { user, isNewUser } =
        embeddedOwner !== undefined
          ? { user: embeddedOwner, isNewUser: false }
          : await findOrCreateUser(
              ctx.db,
              { kind: 'wallet', value: address },
              { allowlist: ctx.config.allowlist, maxUsers: ctx.config.maxUsers },
              ctx.now(),
            );
      await startSignedInSession(request, reply, ctx, {
        user,
        isNewUser,
        method: 'wallet',
        identifier: address,
      });
      return { user, isNewUser };
    },
  );
}

/** The chain ids a message may name: the supported chains, and the local chain while it is on. */
export function siweChainIds(config: Pick<AppConfig, 'localChain'>): number[] {
  return [
    ...SUPPORTED_CHAINS.map((chain) => chain.id),
    ...(config.localChain === null ? [] : [LOCAL_CHAIN_ID]),
  ];
}

/**
 * The origin a message is for: the request's `Origin` when it is one of ours (a loopback alias in
 * development), else `PUBLIC_URL`'s.
 */
function messageOrigin(
  config: Pick<AppConfig, 'allowedOrigins' | 'publicUrl'>,
  origin: string | undefined,
): URL {
  return new URL(origin !== undefined && config.allowedOrigins.includes(origin) ? origin : config.publicUrl);
}
