import { DialError, decodeShare, encodeShare, SHARE_LENGTH } from '@dial/core';
import { Type } from 'typebox';
import { getAddress, isAddress } from 'viem';
import type { AppContext } from '../appContext.js';
import { requireFreshCode, requireRecentReauth, sessionHashOf } from '../auth/reauthentication.js';
import { errorResponses } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import {
  KdfSchema,
  RecoveryCiphertextSchema,
  RecoveryInputSchema,
  RecoveryMethodSchema,
} from './recoverySchemas.js';
import { WALLET_LIMITS } from './walletLimits.js';
import { loadRecoveryShare, loadWalletSummary, rotateShares, saveWallet } from './walletStore.js';

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

/** scrypt's N must be a power of two (the schema bounds it). */
function checkKdf(kdf: { name: string; N?: number }): void {
  if (kdf.name === 'scrypt' && kdf.N !== undefined && (kdf.N & (kdf.N - 1)) !== 0) {
    throw new DialError('invalid_data', { details: 'scrypt N is not a power of two' });
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
        body: Type.Object({ address: AddressInputSchema, authShare: AuthShareInputSchema }),
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
      const saved = await saveWallet(
        ctx.db,
        ctx.keys.authShare,
        { userId: user.id, address, authShare },
        ctx.now(),
      );
      if (!saved) throw new DialError('embedded_wallet_already_exists');
      return reply.code(201).send({ address });
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
 *   limit (see {@link WALLET_LIMITS} for the threat model);
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
          '`reauthentication_required`), so a stolen older session cannot lock the owner out.',
        security: [{ session: [] }],
        body: Type.Object(
          {
            expectedGeneration: Type.Integer({ minimum: 1, maximum: 2_147_483_646 }),
            address: AddressInputSchema,
            authShare: AuthShareInputSchema,
            recovery: Type.Optional(RecoveryInputSchema),
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
      if (body.recovery !== undefined) checkKdf(body.recovery.kdf);
      await requireFreshCode(ctx.db, sessionHashOf(request), ctx.now());
      const generation = await rotateShares(
        ctx.db,
        ctx.keys.authShare,
        {
          userId: request.user!.id,
          expectedGeneration: body.expectedGeneration,
          address,
          authShare,
          recovery: body.recovery,
        },
        ctx.now(),
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
      await ctx.rateLimiter.consume(`recovery:user:${userId}`, WALLET_LIMITS.recoveryPerUser, ctx.now());
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
        WALLET_LIMITS.recoveryPerUser,
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
          'The auth share for exporting the key, to a session re-authenticated within the last 5 minutes.',
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
      return {
        address: wallet.address,
        authShare: encodeShare(wallet.authShare),
        generation: wallet.generation,
      };
    },
  );
}
