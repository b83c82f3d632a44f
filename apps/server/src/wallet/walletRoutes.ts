import { DialError, decodeShare, encodeShare, SHARE_LENGTH } from '@dial/core';
import { Type } from 'typebox';
import { getAddress, isAddress } from 'viem';
import type { AppContext } from '../appContext.js';
import { errorResponses } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import { loadWallet, saveWallet } from './walletStore.js';

const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';

const WalletSchema = Type.Object({
  address: Type.String({ pattern: ADDRESS_PATTERN, description: 'EIP-55 checksummed address.' }),
  authShare: Type.String({
    description: `Base64 (standard, padded) of the ${SHARE_LENGTH}-byte auth share.`,
  }),
});

/** `POST /api/wallet` registers the signed-in user's wallet; `GET /api/wallet` gives it back to them only. */
export function registerWalletRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    '/api/wallet',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary: "Registers the signed-in user's embedded wallet: its address and encrypted auth share.",
        security: [{ session: [] }],
        body: Type.Object({
          address: Type.String({
            pattern: ADDRESS_PATTERN,
            description: 'The address, 0x and 40 hex digits.',
          }),
          authShare: Type.String({
            maxLength: 256,
            description: `Base64 (standard, padded) of the ${SHARE_LENGTH}-byte auth share.`,
          }),
        }),
        response: {
          201: Type.Object({ address: Type.String() }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      // A mixed-case address must carry a valid EIP-55 checksum; it catches a mangled address.
      if (!isAddress(request.body.address, { strict: true })) {
        throw new DialError('invalid_data', { details: 'address checksum' });
      }
      const address = getAddress(request.body.address);
      const authShare = decodeShare(request.body.authShare);
      if (authShare.length !== SHARE_LENGTH) {
        throw new DialError('invalid_data', { details: `auth share is ${authShare.length} bytes` });
      }
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
        summary: "The signed-in user's wallet address and auth share (to this user's session only).",
        security: [{ session: [] }],
        response: { 200: WalletSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const wallet = await loadWallet(ctx.db, ctx.keys.authShare, request.user!.id);
      if (wallet === undefined) throw new DialError('wallet_not_found');
      return { address: wallet.address, authShare: encodeShare(wallet.authShare) };
    },
  );
}
