import { createHmac, randomInt, randomUUID } from 'node:crypto';
import {
  cancelDeviceLinkRoute,
  claimDeviceLinkRoute,
  confirmDeviceLinkRoute,
  createDeviceLinkRoute,
  type DeviceLink,
  getDeviceLinkRoute,
} from '@dial/api';
import {
  DialError,
  formatLinkCode,
  LINK_CODE_ALPHABET,
  LINK_CODE_LENGTH,
  MINUTE_MS,
  normalizeLinkCode,
} from '@dial/core';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../appContext.js';
import { describeUserAgent } from '../auth/describeUserAgent.js';
import { sessionHashOf } from '../auth/reauthentication.js';
import { rateKey } from '../config/rateKey.js';
import type { Database, WalletLinksTable } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import type { TypedApp } from '../http/typedApp.js';
import { notifyOwner } from '../notices/notifyOwner.js';
import { ipSubject } from '../rateLimit/ipSubject.js';
import { enrolledSummary, readDeviceInput, verifyEnrollment } from './deviceRoutes.js';
import { enrollDevice, toDeviceInfo } from './deviceStore.js';
import { loadWalletAddress } from './walletStore.js';

/** How long a link can be claimed and confirmed. */
export const LINK_TTL_MS = 5 * MINUTE_MS;

/** A new link code, canonical: {@link LINK_CODE_LENGTH} characters of core's {@link LINK_CODE_ALPHABET}. */
function newLinkCode(): string {
  let code = '';
  for (let index = 0; index < LINK_CODE_LENGTH; index++) {
    code += LINK_CODE_ALPHABET[randomInt(0, LINK_CODE_ALPHABET.length)];
  }
  return code;
}

/**
 * What is stored of a code: an HMAC under a key derived from `SHARE_ENCRYPTION_KEY` (the one-time codes'),
 * with a label of its own, so that a copy of the database does not give the live codes by a 37-bit search.
 */
function hashLinkCode(key: Uint8Array, code: string): string {
  return createHmac('sha256', key).update(`dial/device-link\0${code}`).digest('hex');
}

/** A link as one of its two sessions may see it, or `undefined` for anyone else (another session or user). */
async function visibleLink(
  db: Kysely<Database>,
  request: FastifyRequest,
  id: string,
): Promise<{ link: WalletLinksTable; side: 'owner' | 'claimant' } | undefined> {
  const link = await db
    .selectFrom('wallet_links')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', request.user!.id)
    .executeTakeFirst();
  if (link === undefined) return undefined;
  const sessionHash = sessionHashOf(request);
  if (link.owner_session_hash === sessionHash) return { link, side: 'owner' };
  if (link.claimant_session_hash === sessionHash) return { link, side: 'claimant' };
  return undefined;
}

/** A link's state as the contract names it: `expired` once past its 5 minutes, unless confirmed or cancelled. */
function stateOf(link: WalletLinksTable, now: Date): DeviceLink['state'] {
  if ((link.state === 'waiting' || link.state === 'claimed') && link.expires_at <= now.toISOString()) {
    return 'expired';
  }
  return link.state;
}

function linkNotFound(details: string): DialError {
  return new DialError('device_link_not_found', { details });
}

/**
 * Adding a device by QR code (issue 28): the old browser creates a link with its X25519 public key and shows
 * the code; the new browser, a session of the same account, claims it with the code, its own public key and
 * the hash of its future unlock secret; both derive the same confirmation words; the old one confirms with
 * the new device's auth share (the key's proof, purpose `enroll-device`) and its held share sealed for the
 * new browser, which fetches it. The server relays public keys and ciphertext it cannot open; a link is
 * visible to its two sessions only, lasts 5 minutes, is claimed once, and is swept an hour after it expires
 * (`sweepExpiredRows`).
 */
export function registerDeviceLinkRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    createDeviceLinkRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...createDeviceLinkRoute.schema,
        description:
          "For a user with a wallet (else 404 `wallet_not_found`). The code has 8 characters of core's " +
          '`LINK_CODE_ALPHABET`, 25 letters and digits without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B; 37 ' +
          'bits), is stored only as an HMAC, lasts 5 minutes and is claimed once. Limited per user.',
      },
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        rateKey('deviceLinksPerUser', userId),
        ctx.config.rateLimits.deviceLinksPerUser,
        now,
      );
      if ((await loadWalletAddress(ctx.db, userId)) === undefined) throw new DialError('wallet_not_found');
      const expiresAt = new Date(now.getTime() + LINK_TTL_MS).toISOString();
      // A code another link holds (one chance in a trillion) is drawn again.
      for (let attempt = 1; ; attempt++) {
        const code = newLinkCode();
        const id = randomUUID();
        try {
          await ctx.db
            .insertInto('wallet_links')
            .values({
              id,
              user_id: userId,
              code_hash: hashLinkCode(ctx.keys.otp, code),
              owner_session_hash: sessionHashOf(request),
              owner_public_key: request.body.publicKey,
              owner_name: describeUserAgent(request.headers['user-agent'] ?? null),
              claimant_session_hash: null,
              claimant_public_key: null,
              claimant_secret_hash: null,
              claimant_name: null,
              sealed_share: null,
              device_id: null,
              state: 'waiting',
              created_at: now.toISOString(),
              expires_at: expiresAt,
              claimed_at: null,
              confirmed_at: null,
            })
            .execute();
          return reply.code(201).send({ id, code: formatLinkCode(code), expiresAt });
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 3) throw error;
        }
      }
    },
  );

  app.post(
    claimDeviceLinkRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...claimDeviceLinkRoute.schema,
        description:
          'By a session of the same account other than the one that created the link, within its 5 minutes, ' +
          'once: the code is read without case, spaces or dashes. Anything wrong (a code that is no link of ' +
          'this account, expired, claimed, cancelled, or claimed by its own creating session) answers 404 ' +
          '`device_link_not_found`, alike. Every try counts, per user and per IP address, so codes cannot be ' +
          'guessed.',
      },
    },
    async (request) => {
      const userId = request.user!.id;
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        rateKey('deviceLinkClaimsPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
        ctx.config.rateLimits.deviceLinkClaimsPerIp,
        now,
      );
      await ctx.rateLimiter.consume(
        rateKey('deviceLinkClaimsPerUser', userId),
        ctx.config.rateLimits.deviceLinkClaimsPerUser,
        now,
      );
      const code = normalizeLinkCode(request.body.code);
      if (code === null) throw linkNotFound('not a link code');
      const sessionHash = sessionHashOf(request);
      // One conditional update: of two claims, one wins; the creating session, another account, an expired
      // or a used link match nothing.
      const claimed = await ctx.db
        .updateTable('wallet_links')
        .set({
          state: 'claimed',
          claimant_session_hash: sessionHash,
          claimant_public_key: request.body.publicKey,
          claimant_secret_hash: request.body.secretHash,
          claimant_name: describeUserAgent(request.headers['user-agent'] ?? null),
          claimed_at: now.toISOString(),
        })
        .where('code_hash', '=', hashLinkCode(ctx.keys.otp, code))
        .where('user_id', '=', userId)
        .where('state', '=', 'waiting')
        .where('expires_at', '>', now.toISOString())
        .where('owner_session_hash', '<>', sessionHash)
        .returning(['id', 'owner_public_key', 'owner_name', 'expires_at'])
        .executeTakeFirst();
      if (claimed === undefined) throw linkNotFound('no waiting link of yours has this code');
      return {
        id: claimed.id,
        ownerPublicKey: claimed.owner_public_key,
        ownerName: claimed.owner_name,
        expiresAt: claimed.expires_at,
      };
    },
  );

  app.get(
    getDeviceLinkRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...getDeviceLinkRoute.schema,
        description:
          'To the session that created the link and the one that claimed it only (anyone else: 404 ' +
          '`device_link_not_found`). `sealedShare` and `device` go to the claiming session only, once ' +
          'confirmed.',
      },
    },
    async (request) => {
      const visible = await visibleLink(ctx.db, request, request.params.id);
      if (visible === undefined) throw linkNotFound('no link of this session');
      const { link, side } = visible;
      const state = stateOf(link, ctx.now());
      const delivered = side === 'claimant' && state === 'confirmed' && link.device_id !== null;
      const device = delivered
        ? await ctx.db
            .selectFrom('wallet_devices')
            .select(['id', 'name', 'how', 'enrolled_at', 'last_used_at'])
            .where('id', '=', link.device_id!)
            .where('user_id', '=', link.user_id)
            .executeTakeFirst()
        : undefined;
      return {
        id: link.id,
        state,
        expiresAt: link.expires_at,
        ownerPublicKey: link.owner_public_key,
        claimant:
          link.claimant_public_key === null ||
          link.claimant_secret_hash === null ||
          link.claimant_name === null
            ? null
            : {
                publicKey: link.claimant_public_key,
                secretHash: link.claimant_secret_hash,
                name: link.claimant_name,
              },
        sealedShare: delivered ? link.sealed_share : null,
        device: device === undefined ? null : toDeviceInfo(device),
      };
    },
  );

  app.post(
    confirmDeviceLinkRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...confirmDeviceLinkRoute.schema,
        description:
          'By the session that created the link only (any other: 404 `device_link_not_found`), once claimed ' +
          '(else 409 `device_link_not_claimed`) and within its 5 minutes. `device.secretHash` must be the ' +
          "claimant's, else 400 `invalid_data` (checked before the proof, which is then not used up). The " +
          "key's `proof` (purpose `enroll-device`, the wallet's current generation, this `device`) as for " +
          '`POST /api/wallet/devices`; the device is created (`how: linked`, named as the claiming browser) ' +
          'and the sealed share stored for the claimant in one transaction. The owner is told.',
      },
    },
    async (request) => {
      const { body } = request;
      const visible = await visibleLink(ctx.db, request, request.params.id);
      if (visible === undefined || visible.side !== 'owner') {
        throw linkNotFound('no link created by this session');
      }
      const { link } = visible;
      const state = stateOf(link, ctx.now());
      if (state === 'waiting') throw new DialError('device_link_not_claimed');
      if (state !== 'claimed' || link.claimant_secret_hash === null || link.claimant_name === null) {
        throw linkNotFound(`link is ${state}`);
      }
      if (body.device.secretHash !== link.claimant_secret_hash) {
        throw new DialError('invalid_data', {
          message: 'This is not the secret of the device that entered the code. Start again.',
          details: "device.secretHash is not the claimant's",
        });
      }
      const device = readDeviceInput(body.device);
      const userId = request.user!.id;
      await verifyEnrollment(ctx, request, body.address, device, body.proof);
      const now = ctx.now();
      const name = link.claimant_name;
      const enrolled = await enrollDevice(
        ctx.db,
        ctx.keys.authShare,
        { userId, name, how: 'linked', ...device },
        ctx.config.maxWalletDevices,
        now,
        async (trx, made) => {
          const confirmed = await trx
            .updateTable('wallet_links')
            .set({
              state: 'confirmed',
              sealed_share: body.sealedShare,
              device_id: made.id,
              confirmed_at: now.toISOString(),
            })
            .where('id', '=', link.id)
            .where('user_id', '=', userId)
            .where('state', '=', 'claimed')
            .where('expires_at', '>', now.toISOString())
            .returning('id')
            .executeTakeFirst();
          if (confirmed === undefined) throw linkNotFound('link expired or cancelled meanwhile');
        },
      );
      await notifyOwner(ctx, request.user!, 'device-enrolled', request.log, {
        summary: enrolledSummary(name, 'linked'),
      });
      return { device: enrolled };
    },
  );

  app.post(
    cancelDeviceLinkRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...cancelDeviceLinkRoute.schema,
        description:
          'By either of its two sessions (anyone else: 404 `device_link_not_found`). A link not yet confirmed ' +
          'becomes `cancelled`; a confirmed or cancelled one is left as it is, and its state answered.',
      },
    },
    async (request) => {
      const visible = await visibleLink(ctx.db, request, request.params.id);
      if (visible === undefined) throw linkNotFound('no link of this session');
      const cancelled = await ctx.db
        .updateTable('wallet_links')
        .set({ state: 'cancelled' })
        .where('id', '=', visible.link.id)
        .where('user_id', '=', request.user!.id)
        .where('state', 'in', ['waiting', 'claimed'])
        .returning('id')
        .executeTakeFirst();
      if (cancelled !== undefined) return { state: 'cancelled' as const };
      return { state: stateOf(visible.link, ctx.now()) };
    },
  );
}
