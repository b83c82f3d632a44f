// The devices that can open the wallet: each browser holds one half of a split of the key of its own, the
// server keeps the other half for it and gives it only to that browser (its unlock secret). Enrolling one
// (after recovery, or linked from another device by QR code), listing them, and removing one.
import { type Static, Type } from 'typebox';
import { PendingAnswerSchema, PROOF_ERRORS, ProofOnlyBodySchema } from './accountChanges.js';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { GenerationSchema } from './shapes.js';
import {
  AddressInputSchema,
  AddressSchema,
  AuthShareSchema,
  DeviceInfoSchema,
  DeviceInputSchema,
  ProofSchema,
  WalletRecoverySchema,
} from './wallet.js';

const IdSchema = Type.String({ format: 'uuid' });

/** A device's unlock secret: 32 random bytes, base64url without padding. */
const DeviceSecretSchema = Type.String({
  pattern: '^[A-Za-z0-9_-]{43}$',
  description:
    "The device's 32-byte unlock secret, base64url without padding, as only that browser keeps it.",
});

/** An X25519 public key: 32 bytes, base64 (standard, padded). */
const PublicKeySchema = Type.String({
  pattern: '^[A-Za-z0-9+/]{43}=$',
  description: 'An X25519 public key (32 bytes), base64 (standard, padded), made for this link only.',
});

/** The device share sealed for the new browser: AES-256-GCM under the link's X25519 agreement, base64. */
const SealedShareSchema = Type.String({
  pattern: '^[A-Za-z0-9+/]{40,200}={0,2}$',
  description:
    "The new device's held share, sealed in the old browser for the new one (AES-256-GCM under a key both derive " +
    'from their X25519 keys; the server cannot open it), with its 12-byte nonce first, base64.',
});

/** The short code a person types on the new browser (or the QR code carries). */
const LinkCodeSchema = Type.String({
  pattern: '^[A-Za-z0-9 -]{8,12}$',
  description:
    'The link code as shown, 8 letters and digits of an alphabet without look-alikes (shown `ABCD-EFGH`; ' +
    'spaces, dashes and case are ignored).',
});

export const listDevicesRoute = defineRoute({
  ...ENDPOINTS.listDevices,
  tags: ['wallet'],
  summary: 'The devices that can open the signed-in user’s wallet, the most recently used first.',
  session: true,
  response: { 200: Type.Object({ devices: Type.Array(DeviceInfoSchema) }) },
  errors: [],
});

export const unlockDeviceRoute = defineRoute({
  ...ENDPOINTS.unlockDevice,
  tags: ['wallet'],
  summary:
    "A device's auth share, to that device only (its unlock secret), with the wallet it opens; marks it used.",
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: Type.Object({ secret: DeviceSecretSchema }, { additionalProperties: false }),
  response: {
    200: Type.Object({
      address: AddressSchema,
      generation: GenerationSchema,
      recovery: WalletRecoverySchema,
      authShare: AuthShareSchema,
      device: DeviceInfoSchema,
    }),
  },
  errors: ['device_not_found', 'device_removed', ...RATE_LIMIT_ERRORS],
});

/** `POST /api/wallet/devices/:id/unlock`: the device's auth share and the wallet it opens. */
export type UnlockedDevice = Static<(typeof unlockDeviceRoute.schema.response)[200]>;

export const enrollDeviceRoute = defineRoute({
  ...ENDPOINTS.enrollDevice,
  tags: ['wallet'],
  summary:
    "Lets this browser open the wallet, with the key's proof (purpose `enroll-device`): after recovering the " +
    'key here, or for a browser that holds the share of a wallet registered before devices. The owner is told.',
  session: true,
  body: Type.Object(
    {
      address: AddressInputSchema,
      how: Type.Enum(['recovered', 'adopted']),
      device: DeviceInputSchema,
      proof: ProofSchema,
    },
    { additionalProperties: false },
  ),
  response: { 201: Type.Object({ device: DeviceInfoSchema }) },
  errors: ['wallet_not_found', 'wallet_proof_invalid', 'wallet_proof_expired', 'devices_limit_reached'],
});

export type EnrollDeviceRequest = Static<typeof enrollDeviceRoute.schema.body>;

export const removeDeviceRoute = defineRoute({
  ...ENDPOINTS.removeDevice,
  tags: ['wallet'],
  summary:
    'Removes a device: its auth share is deleted, so the share its browser holds opens nothing, and the owner ' +
    'is told. At once with the proof (200), else after the cooling-off period (202).',
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: ProofOnlyBodySchema,
  response: {
    200: Type.Object({ removed: Type.Literal(true) }),
    202: PendingAnswerSchema,
  },
  errors: ['device_not_found', ...PROOF_ERRORS],
});

/** Where a link between two browsers stands. */
const LinkStateSchema = Type.Enum(['waiting', 'claimed', 'confirmed', 'cancelled', 'expired'], {
  description:
    "`waiting` for the new browser's code, `claimed` by it (compare the words, then confirm on the old one), " +
    '`confirmed` (the sealed share waits for the new browser), `cancelled` by either, or `expired` (5 minutes).',
});

export const createDeviceLinkRoute = defineRoute({
  ...ENDPOINTS.createDeviceLink,
  tags: ['wallet'],
  summary:
    'Starts adding a device from this one: a link for 5 minutes and one use, with the code (and QR code) the ' +
    'new browser enters.',
  session: true,
  body: Type.Object({ publicKey: PublicKeySchema }, { additionalProperties: false }),
  response: {
    201: Type.Object({
      id: IdSchema,
      code: Type.String({ description: 'The link code, as shown (`ABCD-EFGH`).' }),
      expiresAt: Type.String({ format: 'date-time' }),
    }),
  },
  errors: ['wallet_not_found', ...RATE_LIMIT_ERRORS],
});

export type CreatedDeviceLink = Static<(typeof createDeviceLinkRoute.schema.response)[201]>;

export const claimDeviceLinkRoute = defineRoute({
  ...ENDPOINTS.claimDeviceLink,
  tags: ['wallet'],
  summary:
    "The new browser enters the link's code (signed in to the same account): it gives its public key and the " +
    'hash of its future unlock secret, and gets the old browser’s public key to derive the confirmation words.',
  session: true,
  body: Type.Object(
    {
      code: LinkCodeSchema,
      publicKey: PublicKeySchema,
      secretHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      id: IdSchema,
      ownerPublicKey: PublicKeySchema,
      ownerName: Type.String({ description: 'The old browser ("Chrome on macOS").' }),
      expiresAt: Type.String({ format: 'date-time' }),
    }),
  },
  errors: ['device_link_not_found', ...RATE_LIMIT_ERRORS],
});

export type ClaimedDeviceLink = Static<(typeof claimDeviceLinkRoute.schema.response)[200]>;

export const getDeviceLinkRoute = defineRoute({
  ...ENDPOINTS.getDeviceLink,
  tags: ['wallet'],
  summary:
    'A link as the session that made it or claimed it sees it: the other side’s public key once claimed, and ' +
    '(to the claiming session only) the sealed share and the new device once confirmed.',
  session: true,
  params: Type.Object({ id: IdSchema }),
  response: {
    200: Type.Object({
      id: IdSchema,
      state: LinkStateSchema,
      expiresAt: Type.String({ format: 'date-time' }),
      ownerPublicKey: PublicKeySchema,
      claimant: Type.Union([
        Type.Object({
          publicKey: PublicKeySchema,
          secretHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
          name: Type.String({ description: 'The new browser ("Safari on iOS").' }),
        }),
        Type.Null(),
      ]),
      sealedShare: Type.Union([SealedShareSchema, Type.Null()], {
        description: 'To the claiming session, once confirmed; `null` otherwise.',
      }),
      device: Type.Union([DeviceInfoSchema, Type.Null()], {
        description: 'The new device, once confirmed (to the claiming session).',
      }),
    }),
  },
  errors: ['device_link_not_found'],
});

/** `GET /api/wallet/links/:id`. */
export type DeviceLink = Static<(typeof getDeviceLinkRoute.schema.response)[200]>;

export const confirmDeviceLinkRoute = defineRoute({
  ...ENDPOINTS.confirmDeviceLink,
  tags: ['wallet'],
  summary:
    "The old browser confirms (the person saw the same words on both): the new device's auth share with the " +
    "key's proof (purpose `enroll-device`, the claimant's secret hash), and its held share sealed for it. The " +
    'owner is told.',
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: Type.Object(
    {
      address: AddressInputSchema,
      device: DeviceInputSchema,
      sealedShare: SealedShareSchema,
      proof: ProofSchema,
    },
    { additionalProperties: false },
  ),
  response: { 200: Type.Object({ device: DeviceInfoSchema }) },
  errors: [
    'device_link_not_found',
    'device_link_not_claimed',
    'wallet_not_found',
    'wallet_proof_invalid',
    'wallet_proof_expired',
    'devices_limit_reached',
  ],
});

export const cancelDeviceLinkRoute = defineRoute({
  ...ENDPOINTS.cancelDeviceLink,
  tags: ['wallet'],
  summary: 'Cancels a link that is not yet confirmed (either browser).',
  session: true,
  params: Type.Object({ id: IdSchema }),
  response: { 200: Type.Object({ state: LinkStateSchema }) },
  errors: ['device_link_not_found'],
});
