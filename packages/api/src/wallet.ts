// The embedded wallet: registering it, proof of possession, share rotation and export.
import { SHARE_LENGTH, WALLET_PROOF_PURPOSES } from '@dial/core';
import { type Static, Type } from 'typebox';
import { AccountProofSchema } from './accountChanges.js';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { RecoveryInputSchema, RecoveryMethodSchema } from './recovery.js';
import { ADDRESS_PATTERN, GenerationSchema, HexString } from './shapes.js';

/** Whether recovery is set up: its method and when, or `null`. */
export const WalletRecoverySchema = Type.Union([
  Type.Object({ method: RecoveryMethodSchema, createdAt: Type.String({ format: 'date-time' }) }),
  Type.Null(),
]);

/** A device that can open the wallet (its browser holds one half of a split of its own). */
export const DeviceInfoSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String({ description: 'The browser and system when it was enrolled ("Chrome on macOS").' }),
  how: Type.Enum(['created', 'recovered', 'linked', 'adopted'], {
    description:
      'How it came to open the wallet: it created the wallet, recovered it, was linked by QR code from another ' +
      'device, or held the share of a wallet registered before devices.',
  }),
  enrolledAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.String({ format: 'date-time', description: 'Its latest unlock (to the minute).' }),
});

/** A device that can open the wallet. */
export type DeviceInfo = Static<typeof DeviceInfoSchema>;

/** A device to enroll: its half of the key for the server to keep, and the hash of its unlock secret. */
export const DeviceInputSchema = Type.Object(
  {
    authShare: Type.String({
      maxLength: 256,
      description: `Base64 (standard, padded) of the device's ${SHARE_LENGTH}-byte auth share.`,
    }),
    secretHash: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        "SHA-256 (hex) of the device's 32-byte unlock secret, which only that browser keeps (beside its share).",
    }),
  },
  { additionalProperties: false },
);

export const AddressInputSchema = Type.String({
  pattern: ADDRESS_PATTERN,
  description: 'The address, 0x and 40 hex digits.',
});
export const AuthShareInputSchema = Type.String({
  maxLength: 256,
  description: `Base64 (standard, padded) of the ${SHARE_LENGTH}-byte auth share.`,
});
export const AddressSchema = HexString({
  pattern: ADDRESS_PATTERN,
  description: 'EIP-55 checksummed address.',
});
/** The same, typed `string`: the rotation echoes the address it was given (once checked). */
const EchoedAddressSchema = Type.String({
  pattern: ADDRESS_PATTERN,
  description: 'EIP-55 checksummed address.',
});
export const AuthShareSchema = Type.String({
  description: `Base64 (standard, padded) of the ${SHARE_LENGTH}-byte auth share.`,
});

export const ProofSchema = Type.Object(
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
      'the purpose, the generation replaced and the hashes of the shares to store (and of the device secret).',
  },
);

/** Proof of possession: the wallet key's signature over a server challenge and the change it authorises. */
export type WalletProof = Static<typeof ProofSchema>;

export const registerWalletRoute = defineRoute({
  ...ENDPOINTS.registerWallet,
  tags: ['wallet'],
  summary:
    "Registers the signed-in user's embedded wallet: its address, the recovery pair's auth share (of a split " +
    'whose recovery share is not kept until recovery is set up) and its first device (this browser).',
  session: true,
  body: Type.Object(
    {
      address: AddressInputSchema,
      authShare: AuthShareInputSchema,
      device: DeviceInputSchema,
      proof: ProofSchema,
    },
    { additionalProperties: false },
  ),
  response: { 201: Type.Object({ address: Type.String(), device: DeviceInfoSchema }) },
  errors: [
    'wallet_proof_invalid',
    'wallet_proof_expired',
    'wallet_address_taken',
    'embedded_wallet_already_exists',
  ],
});

export type RegisterWalletRequest = Static<typeof registerWalletRoute.schema.body>;

export const walletChallengeRoute = defineRoute({
  ...ENDPOINTS.walletChallenge,
  tags: ['wallet'],
  summary: "A single-use challenge for the wallet's key to sign before registering or replacing shares.",
  session: true,
  body: Type.Object({ purpose: Type.Enum([...WALLET_PROOF_PURPOSES]) }, { additionalProperties: false }),
  response: {
    201: Type.Object({ challenge: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
  },
  errors: [...RATE_LIMIT_ERRORS],
});

export type WalletChallengeRequest = Static<typeof walletChallengeRoute.schema.body>;
export type WalletChallenge = Static<(typeof walletChallengeRoute.schema.response)[201]>;

export const getWalletRoute = defineRoute({
  ...ENDPOINTS.getWallet,
  tags: ['wallet'],
  summary:
    "The signed-in user's wallet: its address, the recovery pair's generation, recovery status and how many " +
    'devices can open it. No auth share: a device gets its own from `POST /api/wallet/devices/:id/unlock`, ' +
    "recovery from `GET /api/wallet/recovery` (to this user's session only).",
  session: true,
  response: {
    200: Type.Object({
      address: AddressSchema,
      generation: GenerationSchema,
      recovery: WalletRecoverySchema,
      devices: Type.Integer({ minimum: 0, description: 'The devices that can open the wallet.' }),
      legacyAuthShare: Type.Union([AuthShareSchema, Type.Null()], {
        description:
          'Only for a wallet registered before devices, until its first device is enrolled or its recovery pair ' +
          "replaced: the one auth share of its single split, which the browser that holds that split's device " +
          'share combines with to enroll itself as a device. `null` otherwise.',
      }),
    }),
  },
  errors: ['wallet_not_found'],
});

/** `GET /api/wallet`: the address, the recovery pair's generation, recovery and devices (no auth share). */
export type StoredWallet = Static<(typeof getWalletRoute.schema.response)[200]>;

export const rotateSharesRoute = defineRoute({
  ...ENDPOINTS.rotateShares,
  tags: ['wallet'],
  summary:
    'Replaces the auth share (and the recovery share) of the same key, if the generation is still the current one.',
  session: true,
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
  response: { 200: Type.Object({ address: EchoedAddressSchema, generation: GenerationSchema }) },
  errors: [
    'reauthentication_required',
    'wallet_not_found',
    'wallet_proof_invalid',
    'wallet_proof_expired',
    'stale_share_generation',
  ],
});

export type RotateSharesRequest = Static<typeof rotateSharesRoute.schema.body>;
export type RotatedShares = Static<(typeof rotateSharesRoute.schema.response)[200]>;

export const walletExportRoute = defineRoute({
  ...ENDPOINTS.walletExport,
  tags: ['wallet'],
  summary:
    "Records the export of the key (which the browser rebuilt from its device's shares to sign the proof), for a session re-authenticated within the last 5 minutes and with the key's proof (action `export-key`); the owner is notified.",
  session: true,
  body: Type.Object({ proof: AccountProofSchema }, { additionalProperties: false }),
  response: {
    200: Type.Object({ address: AddressSchema, generation: GenerationSchema }),
  },
  errors: ['reauthentication_required', 'wallet_not_found', 'wallet_proof_invalid', 'wallet_proof_expired'],
});

export type WalletExport = Static<(typeof walletExportRoute.schema.response)[200]>;
