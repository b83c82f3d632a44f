import {
  getRecoveryRoute,
  getWalletRoute,
  type RecoveryKdf,
  recoveryFailedRoute,
  registerWalletRoute,
  rotateSharesRoute,
  walletChallengeRoute,
  walletExportRoute,
} from '@dial/api';
import {
  accountChangeTarget,
  checkScryptCost,
  DialError,
  decodeShare,
  encodeShare,
  readAddress,
  SHARE_LENGTH,
} from '@dial/core';
import type { AppContext } from '../appContext.js';
import { describeUserAgent } from '../auth/describeUserAgent.js';
import { requireFreshCode, requireRecentReauth, sessionHashOf } from '../auth/reauthentication.js';
import { publishWalletEvent } from '../events/walletEvents.js';
import type { TypedApp } from '../http/typedApp.js';
import { notifyOwner } from '../notices/notifyOwner.js';
import { verifyAccountProof } from './accountProof.js';
import { consumeRecoveryTry } from './consumeRecoveryTry.js';
import { CHALLENGE_TTL_SECONDS, issueChallenge, verifyWalletProof } from './walletProofs.js';
import {
  loadRecoveryPair,
  loadWalletAddress,
  loadWalletSummary,
  rotateShares,
  saveWallet,
} from './walletStore.js';

/** Reads a posted auth share: standard base64 of exactly {@link SHARE_LENGTH} bytes. */
export function readAuthShare(text: string): Uint8Array {
  const authShare = decodeShare(text);
  if (authShare.length !== SHARE_LENGTH) {
    throw new DialError('invalid_data', { details: `auth share is ${authShare.length} bytes` });
  }
  return authShare;
}

/**
 * What the schema cannot say about a new recovery share: scrypt's N is a power of two (`checkScryptCost`,
 * the limits the web app runs scrypt within), and a password record is hardened with the server's OPRF. A
 * record without it could be guessed offline by whoever copies the database; such records from before the
 * OPRF still open, but none is written any more.
 */
function checkRecovery(recovery: { method: string; kdf: RecoveryKdf }): void {
  const { kdf } = recovery;
  const refused = kdf.name === 'scrypt' ? checkScryptCost(kdf) : null;
  if (refused !== null) throw new DialError('invalid_data', { details: refused });
  if (recovery.method === 'password' && (kdf.name !== 'scrypt' || kdf.oprf === undefined)) {
    throw new DialError('invalid_data', {
      message:
        "A recovery password must be hardened with this server's OPRF (kdf.oprf), so a copy of the database cannot be used to guess it.",
      details: 'password record without oprf',
    });
  }
}

/**
 * The user's wallet (its address, generation, recovery, devices and a legacy split's auth share), or
 * `wallet_not_found`.
 */
async function loadOwnWallet(ctx: AppContext, userId: string) {
  const wallet = await loadWalletSummary(ctx.db, ctx.keys.authShare, userId);
  if (wallet === undefined) throw new DialError('wallet_not_found');
  return wallet;
}

/**
 * `POST /api/wallet` registers the signed-in user's wallet with its first device; `GET /api/wallet` gives it
 * back to them only, without an auth share (but a legacy split's).
 */
export function registerWalletRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    registerWalletRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...registerWalletRoute.schema,
        description:
          "Needs a `proof` by the wallet's key (purpose `register-wallet`, generation 0, no recovery share, " +
          "the recovery pair's `authShare` and this browser's `device`: its auth share and secret hash), so " +
          'nobody can register an address whose key they do not hold, nor store shares the key did not sign ' +
          '(403 `wallet_proof_invalid`; 400 `wallet_proof_expired` for a used or expired challenge). The ' +
          'wallet and its first device (`how: created`, named from the User-Agent) are stored in one ' +
          'transaction. An address belongs to one account at most (409 `wallet_address_taken`); an account has ' +
          'one wallet (409 `embedded_wallet_already_exists`).',
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const address = readAddress(request.body.address);
      const authShare = readAuthShare(request.body.authShare);
      const device = {
        authShare: readAuthShare(request.body.device.authShare),
        secretHash: request.body.device.secretHash,
      };
      const now = ctx.now();
      await verifyWalletProof(
        ctx.db,
        { userId: user.id, sessionHash: sessionHashOf(request), purpose: 'register-wallet' },
        request.body.proof,
        { address, fromGeneration: 0, authShare, recovery: null, device },
        now,
      );
      const saved = await saveWallet(
        ctx.db,
        ctx.keys.authShare,
        { userId: user.id, address, authShare },
        now,
        {
          ...device,
          name: describeUserAgent(request.headers['user-agent'] ?? null),
        },
      );
      if (saved === false) {
        const own = await loadWalletAddress(ctx.db, user.id);
        throw new DialError(own === undefined ? 'wallet_address_taken' : 'embedded_wallet_already_exists');
      }
      if (saved === true) throw new Error('registered without its device');
      return reply.code(201).send({ address, device: saved });
    },
  );

  app.post(
    walletChallengeRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...walletChallengeRoute.schema,
        description:
          `Valid ${CHALLENGE_TTL_SECONDS / 60} minutes, once, for this session and purpose only. The browser ` +
          "signs core's `walletProofMessage` with it and sends the signature as `proof`. Limited per user.",
      },
    },
    async (request, reply) => reply.code(201).send(await issueChallenge(ctx, request, request.body.purpose)),
  );

  app.get(
    getWalletRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...getWalletRoute.schema,
        description:
          "No device's auth share: each goes only to its own browser (`POST /api/wallet/devices/:id/unlock`, " +
          'with the unlock secret). `legacyAuthShare` only for a wallet registered before devices, until its ' +
          'first device is enrolled or its recovery pair replaced; `null` after, for good.',
      },
    },
    async (request) => {
      const wallet = await loadOwnWallet(ctx, request.user!.id);
      return {
        address: wallet.address,
        generation: wallet.generation,
        recovery: wallet.recovery,
        devices: wallet.devices,
        legacyAuthShare: wallet.legacyAuthShare === null ? null : encodeShare(wallet.legacyAuthShare),
      };
    },
  );

  registerShareRoutes(app, ctx);
}

/**
 * The recovery pair, and export:
 * - `PUT /api/wallet/shares` replaces the recovery pair's auth share (and its recovery share) of the same key,
 *   only if the browser split from the current generation; no device changes;
 * - `GET /api/wallet/recovery` gives the owner their encrypted recovery share with the pair's auth share (not
 *   counted: checking a guess against it needs an OPRF evaluation, which is), and
 *   `POST /api/wallet/recovery/failed` reports a wrong recovery password or passkey, counted against the
 *   per-user recovery limit (see `walletRecoveryPerUser` in `config/rateLimits.ts` for the threat model);
 * - `POST /api/wallet/export` records an export (the browser rebuilt the key from its device's shares to
 *   sign the proof), for a session re-authenticated within the last 5 minutes, and tells the owner.
 */
function registerShareRoutes(app: TypedApp, ctx: AppContext): void {
  app.put(
    rotateSharesRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...rotateSharesRoute.schema,
        description:
          "Replaces the recovery pair only (each device keeps its own split). One transaction: the pair's auth " +
          'share is replaced and the generation incremented only when it still ' +
          'equals `expectedGeneration` (else 409 `stale_share_generation`, nothing changed). The recovery ' +
          'share is replaced by the given one; when none is given the old one is deleted, since a share of ' +
          'the previous split no longer combines with the new auth share. Needs a fresh one-time code: a ' +
          'sign-in within the last 10 minutes or a re-authentication within the last 5 (else 403 ' +
          '`reauthentication_required`), so a stolen older session cannot lock the owner out. Needs a `proof` ' +
          "by the wallet's key (purpose `rotate-shares`) over `expectedGeneration` and the hashes of the new " +
          'auth share and recovery share (and `device: none`), checked against the registered address before ' +
          'anything is stored (403 `wallet_proof_invalid`), so a session without the key cannot change either ' +
          "share. A wallet registered before devices loses its legacy split here (`GET /api/wallet`'s " +
          '`legacyAuthShare` is null from then on).',
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
          device: null,
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
      // Their other browsers learn at once that the shares they hold are from an older split.
      await publishWalletEvent(ctx, userId, { kind: 'keys', generation });
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
    getRecoveryRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...getRecoveryRoute.schema,
        description:
          "With the wallet's address and the recovery pair's auth share: it opens nothing without the recovery " +
          "share's password (each guess an OPRF evaluation, counted) or passkey, so it goes to any session of " +
          'the owner, as the one auth share did before devices.',
      },
    },
    async (request) => {
      // Not counted: a password record opens only with an OPRF evaluation, counted per guess, so a wrong
      // password costs one try, not two (a fetch and an evaluation). A record older than the OPRF is open to
      // offline guessing from its first fetch, whatever the count: counting fetches would protect nothing.
      const pair = await loadRecoveryPair(ctx.db, ctx.keys.authShare, request.user!.id);
      if (pair === undefined) throw new DialError('recovery_not_set_up');
      return {
        generation: pair.generation,
        method: pair.method,
        ciphertext: pair.ciphertext,
        kdf: pair.kdf,
        address: pair.address as `0x${string}`,
        authShare: encodeShare(pair.authShare),
      };
    },
  );

  app.post(
    recoveryFailedRoute.url,
    {
      preHandler: app.requireUser,
      schema: recoveryFailedRoute.schema,
    },
    async (request, reply) => {
      await consumeRecoveryTry(ctx, request.user!.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    walletExportRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...walletExportRoute.schema,
        description:
          'A record, not a lock: the browser rebuilt the key from its own device share and auth share (`POST ' +
          '/api/wallet/devices/:id/unlock`) to sign the proof, and shows it; this route gives no share. What it ' +
          "adds is a fresh one-time code, the key's proof, an `account_events` record and a notice to the " +
          "owner's phones and e-mail addresses.",
      },
    },
    async (request) => {
      const sessionHash = sessionHashOf(request);
      await requireRecentReauth(ctx.db, sessionHash, ctx.now());
      const wallet = await loadOwnWallet(ctx, request.user!.id);
      // The key proves itself too: a code alone (a SIM swap) does not export.
      await verifyAccountProof(
        ctx.db,
        { userId: request.user!.id, sessionHash },
        {
          action: 'export-key',
          target: accountChangeTarget({ action: 'export-key', address: wallet.address }),
        },
        request.body.proof,
        ctx.now(),
      );
      // A record, not a lock (the browser that proved the key holds it already): what it adds is that the
      // export is recorded and the owner told.
      await notifyOwner(ctx, request.user!, 'key-exported', request.log);
      return { address: wallet.address, generation: wallet.generation };
    },
  );
}
