import { enrollDeviceRoute, listDevicesRoute, unlockDeviceRoute } from '@dial/api';
import { DialError, encodeShare, readAddress } from '@dial/core';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../appContext.js';
import { describeUserAgent } from '../auth/describeUserAgent.js';
import { sessionHashOf } from '../auth/reauthentication.js';
import { rateKey } from '../config/rateKey.js';
import type { DeviceHow } from '../db/database.js';
import type { TypedApp } from '../http/typedApp.js';
import { notifyOwner } from '../notices/notifyOwner.js';
import { enrollDevice, listDevices, unlockDevice } from './deviceStore.js';
import { verifyWalletProof, type WalletProof } from './walletProofs.js';
import { readAuthShare } from './walletRoutes.js';
import { loadWalletSummary } from './walletStore.js';

/** How each way of enrolling reads in the owner's notice, after the device's name. */
const HOW_WORDS: Record<Exclude<DeviceHow, 'created'>, string> = {
  recovered: 'after your wallet was recovered on it',
  linked: 'linked from another device',
  adopted: 'the browser that held your wallet before devices',
};

/** The notice's summary of an enrolled device: its name and how it came. */
export function enrolledSummary(name: string, how: Exclude<DeviceHow, 'created'>): string {
  return `${name}, ${HOW_WORDS[how]}`;
}

/** A device's half of the key as posted (base64 auth share, hex secret hash), read and checked. */
export function readDeviceInput(device: { authShare: string; secretHash: string }) {
  return { authShare: readAuthShare(device.authShare), secretHash: device.secretHash };
}

/**
 * Checks the key's proof for enrolling one device: purpose `enroll-device`, over the registered address,
 * the recovery pair's current generation, no auth share or recovery share of the pair, and exactly this
 * device's auth share and secret hash. Uses up the challenge.
 *
 * @returns the wallet (its registered address and generation).
 * @throws {DialError} `wallet_not_found`; `invalid_data` when `address` is not the registered wallet; a
 *   proof's refusals (`wallet_proof_expired`, `wallet_proof_invalid`).
 */
export async function verifyEnrollment(
  ctx: AppContext,
  request: FastifyRequest,
  address: string,
  device: { authShare: Uint8Array; secretHash: string },
  proof: WalletProof,
) {
  const userId = request.user!.id;
  const wallet = await loadWalletSummary(ctx.db, ctx.keys.authShare, userId);
  if (wallet === undefined) throw new DialError('wallet_not_found');
  if (wallet.address !== readAddress(address)) {
    throw new DialError('invalid_data', { details: 'address is not the registered wallet' });
  }
  await verifyWalletProof(
    ctx.db,
    { userId, sessionHash: sessionHashOf(request), purpose: 'enroll-device' },
    proof,
    {
      address: wallet.address,
      fromGeneration: wallet.generation,
      authShare: null,
      recovery: null,
      device,
    },
    ctx.now(),
  );
  return wallet;
}

/**
 * The devices that open the wallet (issue 28): listed; enrolled with the key's proof (after recovery, or the
 * browser of a wallet registered before devices); unlocked by the browser that shows its secret (the only
 * way a device's auth share leaves the server). Removing one is an account change, registered with the
 * account's settings (`account/deviceRemoveRoutes.ts`, beside forgetting a browser): the account changes
 * import the wallet, not the other way round. Every query is bound to the session's user.
 */
export function registerDeviceRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    listDevicesRoute.url,
    { preHandler: app.requireUser, schema: listDevicesRoute.schema },
    async (request) => ({ devices: await listDevices(ctx.db, request.user!.id) }),
  );

  app.post(
    enrollDeviceRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...enrollDeviceRoute.schema,
        description:
          "Needs the key's `proof` (purpose `enroll-device`, `fromGeneration` the wallet's current generation, " +
          "no auth share or recovery share, and this `device`'s auth share and secret hash): a session without " +
          'the key cannot enroll a browser (403 `wallet_proof_invalid`; 400 `wallet_proof_expired`), nor reuse ' +
          'a proof for another device or secret. Past `MAX_WALLET_DEVICES` un-removed devices, 409 ' +
          '`devices_limit_reached`. Ends a legacy split (`legacyAuthShare` is null from then on). The owner is ' +
          'told (`device-enrolled`).',
      },
    },
    async (request, reply) => {
      const { body } = request;
      const device = readDeviceInput(body.device);
      const userId = request.user!.id;
      await verifyEnrollment(ctx, request, body.address, device, body.proof);
      const name = describeUserAgent(request.headers['user-agent'] ?? null);
      const enrolled = await enrollDevice(
        ctx.db,
        ctx.keys.authShare,
        { userId, name, how: body.how, ...device },
        ctx.config.maxWalletDevices,
        ctx.now(),
      );
      await notifyOwner(ctx, request.user!, 'device-enrolled', request.log, {
        summary: enrolledSummary(name, body.how),
      });
      return reply.code(201).send({ device: enrolled });
    },
  );

  app.post(
    unlockDeviceRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...unlockDeviceRoute.schema,
        description:
          "The device's auth share goes only to a session of its owner that shows the device's unlock secret " +
          '(its SHA-256 compared in constant time with the stored hash): an unknown id, another user’s device ' +
          'and a wrong secret all answer 404 `device_not_found`; a removed device, even with its right secret, ' +
          '403 `device_removed`. `lastUsedAt` moves at most once a minute. Limited per session.',
      },
    },
    async (request) => {
      const userId = request.user!.id;
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        rateKey('deviceUnlocksPerSession', sessionHashOf(request)),
        ctx.config.rateLimits.deviceUnlocksPerSession,
        now,
      );
      const unlocked = await unlockDevice(
        ctx.db,
        ctx.keys.authShare,
        userId,
        request.params.id,
        request.body.secret,
        now,
      );
      const wallet = await loadWalletSummary(ctx.db, ctx.keys.authShare, userId);
      if (wallet === undefined) throw new DialError('device_not_found');
      return {
        address: wallet.address,
        generation: wallet.generation,
        recovery: wallet.recovery,
        authShare: encodeShare(unlocked.authShare),
        device: unlocked.device,
      };
    },
  );
}
