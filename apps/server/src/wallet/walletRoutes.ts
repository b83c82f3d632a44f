import { DialError, decodeShare, encodeShare, SHARE_LENGTH, WALLET_PROOF_PURPOSES } from '@dial/core';
import { Type } from 'typebox';
import { getAddress, isAddress } from 'viem';
import type { AppContext } from '../appContext.js';
import { requireFreshCode, requireRecentReauth, sessionHashOf } from '../auth/reauthentication.js';
import { errorResponses } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import { notifyOwner } from '../notices/notifyOwner.js';
import {
  KdfSchema,
  RecoveryCiphertextSchema,
  RecoveryInputSchema,
  RecoveryMethodSchema,
} from './recoverySchemas.js';
import { CHALLENGE_TTL_SECONDS, issueChallenge, verifyWalletProof } from './walletProofs.js';
import {
  loadRecoveryShare,
  loadWalletAddress,
  loadWalletSummary,
  rotateShares,
  saveWallet,
} from './walletStore.js';

const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';

const AddressInputSchema = Type.String({
  pattern: ADDRESS_PATTERN,
  description: 'The address, 0x and 40 hex digits.',
});
const AuthShareInputSchema = Type.String({
  maxLength: 256,
  description: `Base64 (standard, padded) of the ${SHARE_LENGTH}-byte auth share.`,
});
const AddressSchema = Type.String({ pattern: ADDRESS_PATTERN, description: 'EIP-55 checksummed address.' });
const AuthShareSchema = Type.String({
  description: `Base64 (standard, padded) of the ${SHARE_LENGTH}-byte auth share.`,
});
const GenerationSchema = Type.Integer({
  minimum: 1,
  description: 'Which split of the key the shares belong to: 1 at registration, +1 at every rotation.',
});

const ProofSchema = Type.Object(
  {
    challenge: Type.String({
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'The challenge from `POST /api/wallet/challenge`, as given.',
    }),
    signature: Type.String({
      pattern: '^0x[0-9a-fA-F]{130}$',
      description:
        "The wallet key's EIP-191 (`personal_sign`) signature over core's `walletProofMessage` for this change.",
    }),
  },
  {
    additionalProperties: false,
    description:
      "Proof of possession: the wallet's key signed the server's single-use challenge together with the account, " +
      'the purpose, the generation replaced and the hashes of the shares to store.',
  },
);

const WalletSchema = Type.Object({
  address: AddressSchema,
  authShare: AuthShareSchema,
  generation: GenerationSchema,
  recovery: Type.Union([
    Type.Object({ method: RecoveryMethodSchema, createdAt: Type.String({ format: 'date-time' }) }),
    Type.Null(),
  ]),
});

/** Reads a posted address: a mixed-case one must carry a valid EIP-55 checksum (it catches a mangled one). */
function readAddress(text: string): string {
  if (!isAddress(text, { strict: true })) {
    throw new DialError('invalid_data', { details: 'address checksum' });
  }
  return getAddress(text);
}

/** Reads a posted auth share: standard base64 of exactly {@link SHARE_LENGTH} bytes. */
function readAuthShare(text: string): Uint8Array {
  const authShare = decodeShare(text);
  if (authShare.length !== SHARE_LENGTH) {
    throw new DialError('invalid_data', { details: `auth share is ${authShare.length} bytes` });
  }
  return authShare;
}

/**
 * What the schema cannot say about a new recovery share: scrypt's N is a power of two, and a password
 * record is hardened with the server's OPRF. A record without it could be guessed offline by whoever copies
 * the database; such records from before the OPRF still open, but none is written any more.
 */
function checkRecovery(recovery: { method: string; kdf: { name: string; N?: number; oprf?: string } }): void {
  const { kdf } = recovery;
  if (kdf.name === 'scrypt' && kdf.N !== undefined && (kdf.N & (kdf.N - 1)) !== 0) {
    throw new DialError('invalid_data', { details: 'scrypt N is not a power of two' });
  }
  if (recovery.method === 'password' && kdf.oprf === undefined) {
    throw new DialError('invalid_data', {
      message:
        "A recovery password must be hardened with this server's OPRF (kdf.oprf), so a copy of the database cannot be used to guess it.",
      details: 'password record without oprf',
    });
  }
}

/** `POST /api/wallet` registers the signed-in user's wallet; `GET /api/wallet` gives it back to them only. */
/** The user's wallet with its decrypted auth share, or `wallet_not_found`. */
async function loadOwnWallet(ctx: AppContext, userId: string) {
  const wallet = await loadWalletSummary(ctx.db, ctx.keys.authShare, userId);
  if (wallet === undefined) throw new DialError('wallet_not_found');
  return wallet;
}

export function registerWalletRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    '/api/wallet',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary: "Registers the signed-in user's embedded wallet: its address and encrypted auth share.",
        security: [{ session: [] }],
        description:
          "Needs a `proof` by the wallet's key (purpose `register-wallet`, generation 0, no recovery share), " +
          'so nobody can register an address whose key they do not hold (403 `wallet_proof_invalid`; 400 ' +
          '`wallet_proof_expired` for a used or expired challenge). An address belongs to one account at most ' +
          '(409 `wallet_address_taken`); an account has one wallet (409 `embedded_wallet_already_exists`).',
        body: Type.Object(
          { address: AddressInputSchema, authShare: AuthShareInputSchema, proof: ProofSchema },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ address: Type.String() }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const address = readAddress(request.body.address);
      const authShare = readAuthShare(request.body.authShare);
      const now = ctx.now();
      await verifyWalletProof(
        ctx.db,
        { userId: user.id, sessionHash: sessionHashOf(request), purpose: 'register-wallet' },
        request.body.proof,
        { address, fromGeneration: 0, authShare, recovery: null },
        now,
      );
      const saved = await saveWallet(
        ctx.db,
        ctx.keys.authShare,
        { userId: user.id, address, authShare },
        now,
      );
      if (!saved) {
        const own = await loadWalletSummary(ctx.db, ctx.keys.authShare, user.id);
        throw new DialError(own === undefined ? 'wallet_address_taken' : 'embedded_wallet_already_exists');
      }
      return reply.code(201).send({ address });
    },
  );

  app.post(
    '/api/wallet/challenge',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary:
          "A single-use challenge for the wallet's key to sign before registering or replacing shares.",
        description:
          `Valid ${CHALLENGE_TTL_SECONDS / 60} minutes, once, for this session and purpose only. The browser ` +
          "signs core's `walletProofMessage` with it and sends the signature as `proof`. Limited per user.",
        security: [{ session: [] }],
        body: Type.Object(
          { purpose: Type.Enum([...WALLET_PROOF_PURPOSES]) },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ challenge: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
          ...errorResponses(400, 401, 403, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        `wallet-challenge:user:${userId}`,
        ctx.config.rateLimits.walletChallengesPerUser,
        now,
      );
      const { challenge, expiresAt } = await issueChallenge(
        ctx.db,
        { userId, sessionHash: sessionHashOf(request), purpose: request.body.purpose },
        now,
      );
      return reply.code(201).send({ challenge, expiresAt: expiresAt.toISOString() });
    },
  );

  app.get(
    '/api/wallet',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary:
          "The signed-in user's wallet address, auth share, share generation and recovery status (to this user's session only).",
        security: [{ session: [] }],
        response: { 200: WalletSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const wallet = await loadOwnWallet(ctx, request.user!.id);
      return {
        address: wallet.address,
        authShare: encodeShare(wallet.authShare),
        generation: wallet.generation,
        recovery: wallet.recovery,
      };
    },
  );

  registerShareRoutes(app, ctx);
}

/**
 * Share rotation, the recovery share and export:
 * - `PUT /api/wallet/shares` replaces the auth share (and the recovery share) of the same key, only if the
 *   browser split from the current generation;
 * - `GET /api/wallet/recovery` gives the owner their encrypted recovery share, and
 *   `POST /api/wallet/recovery/failed` reports a wrong recovery password: both count against one per-user
 *   limit (see `walletRecoveryPerUser` in `rateLimit/limits.ts` for the threat model);
 * - `GET /api/wallet/export` gives the auth share again, but only to a session re-authenticated within the
 *   last 5 minutes (the browser combines it with the device share to show the key).
 */
function registerShareRoutes(app: TypedApp, ctx: AppContext): void {
  app.put(
    '/api/wallet/shares',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary:
          'Replaces the auth share (and the recovery share) of the same key, if the generation is still the current one.',
        description:
          'One transaction: the auth share is replaced and the generation incremented only when it still ' +
          'equals `expectedGeneration` (else 409 `stale_share_generation`, nothing changed). The recovery ' +
          'share is replaced by the given one; when none is given the old one is deleted, since a share of ' +
          'the previous split no longer combines with the new auth share. Needs a fresh one-time code: a ' +
          'sign-in within the last 10 minutes or a re-authentication within the last 5 (else 403 ' +
          '`reauthentication_required`), so a stolen older session cannot lock the owner out. Needs a `proof` ' +
          "by the wallet's key (purpose `rotate-shares`) over `expectedGeneration` and the hashes of the new " +
          'auth share and recovery share, checked against the registered address before anything is stored ' +
          '(403 `wallet_proof_invalid`), so a session without the key cannot change either share.',
        security: [{ session: [] }],
        body: Type.Object(
          {
            expectedGeneration: Type.Integer({ minimum: 1, maximum: 2_147_483_646 }),
            address: AddressInputSchema,
            authShare: AuthShareInputSchema,
            recovery: Type.Optional(RecoveryInputSchema),
            proof: ProofSchema,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ address: AddressSchema, generation: GenerationSchema }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const { body } = request;
      const address = readAddress(body.address);
      const authShare = readAuthShare(body.authShare);
      if (body.recovery !== undefined) checkRecovery(body.recovery);
      const userId = request.user!.id;
      const sessionHash = sessionHashOf(request);
      await requireFreshCode(ctx.db, sessionHash, ctx.now());
      // The key must sign this exact change, checked against the REGISTERED address (read without decrypting
      // the auth share).
      const registered = await loadWalletAddress(ctx.db, userId);
      if (registered === undefined) throw new DialError('wallet_not_found');
      if (registered !== address) {
        throw new DialError('invalid_data', { details: 'address is not the registered wallet' });
      }
      await verifyWalletProof(
        ctx.db,
        { userId, sessionHash, purpose: 'rotate-shares' },
        body.proof,
        {
          address: registered,
          fromGeneration: body.expectedGeneration,
          authShare,
          recovery: body.recovery ?? null,
        },
        ctx.now(),
      );
      const generation = await rotateShares(
        ctx.db,
        ctx.keys.authShare,
        {
          userId,
          expectedGeneration: body.expectedGeneration,
          address,
          authShare,
          recovery: body.recovery,
        },
        ctx.now(),
      );
      // The owner hears of every change to their keys, so a change they did not make does not go unnoticed.
      await notifyOwner(
        ctx,
        request.user!,
        body.recovery === undefined ? 'shares-rotated' : 'recovery-changed',
        request.log,
      );
      return { address, generation };
    },
  );

  app.get(
    '/api/wallet/recovery',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary: "The signed-in user's encrypted recovery share and its KDF parameters (rate-limited).",
        security: [{ session: [] }],
        response: {
          200: Type.Object({
            generation: GenerationSchema,
            method: RecoveryMethodSchema,
            ciphertext: RecoveryCiphertextSchema,
            kdf: KdfSchema,
          }),
          ...errorResponses(401, 404, 429, 503),
        },
      },
    },
    async (request) => {
      const userId = request.user!.id;
      // Counted before the look-up, found or not: each fetch lets the browser try a password.
      await ctx.rateLimiter.consume(
        `recovery:user:${userId}`,
        ctx.config.rateLimits.walletRecoveryPerUser,
        ctx.now(),
      );
      const recovery = await loadRecoveryShare(ctx.db, userId);
      if (recovery === undefined) throw new DialError('recovery_not_set_up');
      return recovery;
    },
  );

  app.post(
    '/api/wallet/recovery/failed',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary:
          'Reports a wrong recovery password (decryption failed in the browser); counts against the recovery limit.',
        security: [{ session: [] }],
        response: {
          204: Type.Null({ description: 'Counted.' }),
          ...errorResponses(400, 401, 403, 429, 503),
        },
      },
    },
    async (request, reply) => {
      await ctx.rateLimiter.consume(
        `recovery:user:${request.user!.id}`,
        ctx.config.rateLimits.walletRecoveryPerUser,
        ctx.now(),
      );
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/wallet/export',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary:
          'The auth share for exporting the key, to a session re-authenticated within the last 5 minutes; recorded, and the owner is notified.',
        description:
          'A confirmation step, not a lock: `GET /api/wallet` gives the same auth share to any session of the ' +
          'owner, and the key is rebuilt in the browser with its device share. What this route adds is a fresh ' +
          "one-time code, an `account_events` record and a notice to the owner's phone or e-mail.",
        security: [{ session: [] }],
        response: {
          200: Type.Object({
            address: AddressSchema,
            authShare: AuthShareSchema,
            generation: GenerationSchema,
          }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      await requireRecentReauth(ctx.db, sessionHashOf(request), ctx.now());
      const wallet = await loadOwnWallet(ctx, request.user!.id);
      // The gate is a confirmation, not a lock (GET /api/wallet gives the same auth share to the owner's
      // session): what it adds is that the export is recorded and the owner told.
      await notifyOwner(ctx, request.user!, 'key-exported', request.log);
      return {
        address: wallet.address,
        authShare: encodeShare(wallet.authShare),
        generation: wallet.generation,
      };
    },
  );
}
