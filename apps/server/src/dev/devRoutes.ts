import { faucetRoute, localChainRoute, outboxRoute } from '@dial/api';
import { DialError, LOCAL_CHAIN_ID, USDC_DECIMALS } from '@dial/core';
import { type Hex, parseEther } from 'viem';
import { recordSentCredit } from '../activity/recordSentCredit.js';
import type { AppContext } from '../appContext.js';
import { accountWallet } from '../auth/accountWallet.js';
import { createChainWatchDeps } from '../chainWatch/chainWatchDeps.js';
import { hasLocalChain } from '../config/index.js';
import { mintTestUsdc } from '../devchain/index.js';
import type { TypedApp } from '../http/typedApp.js';
import { renderOutboxPage } from './outboxPage.js';

/** What the faucet sends by default: 1 test ETH. */
export const FAUCET_AMOUNT_WEI = parseEther('1');
/** What the faucet mints when asked for USDC: 100 test USDC (6 decimals). */
export const FAUCET_AMOUNT_USDC_UNITS = 100n * 10n ** BigInt(USDC_DECIMALS);

/**
 * The dev outbox (`GET /dev/outbox`, `GET /dev/outbox.json`): registered outside production only.
 */
export function registerOutboxRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/dev/outbox', { schema: { hide: true } }, async (_request, reply) => {
    const records = await ctx.outbox.list();
    return reply.type('text/html; charset=utf-8').send(renderOutboxPage(records));
  });

  app.get(
    outboxRoute.url,
    {
      schema: outboxRoute.schema,
    },
    async () => ({ messages: await ctx.outbox.list() }),
  );
}

/**
 * The local chain's routes (`POST /api/dev/faucet`, `POST /api/dev/chain`), both for signed-in users only:
 * registered only in development with the local chain on.
 */
export function registerLocalChainRoutes(app: TypedApp, ctx: AppContext, rpcUrl: string): void {
  const { client } = createChainWatchDeps(ctx);
  app.post(
    faucetRoute.url,
    {
      // No body at all means the default, as before there was a choice (the schema alone would refuse it).
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: app.requireUser,
      schema: faucetRoute.schema,
    },
    async (request) => {
      const asset = request.body.asset ?? 'native';
      const usdc = ctx.config.localChain?.usdc ?? null;
      if (asset === 'usdc' && usdc === null) {
        throw new DialError('not_found', {
          details: 'the local chain has no test USDC (LOCAL_CHAIN_URL is set)',
        });
      }
      // The account's wallet: its embedded one, or the person's own wallet they signed in with.
      const wallet = await accountWallet(ctx.db, request.user!.id);
      if (wallet === null) throw new DialError('wallet_not_found');
      const to = wallet.address;
      const value = asset === 'usdc' ? FAUCET_AMOUNT_USDC_UNITS : FAUCET_AMOUNT_WEI;
      let txHash: Hex;
      try {
        txHash =
          asset === 'usdc' && usdc !== null
            ? await mintTestUsdc({ rpcUrl, chainId: LOCAL_CHAIN_ID, usdc, to, amount: value })
            : await ctx.sendFromFaucet({ rpcUrl, chainId: LOCAL_CHAIN_ID, to, value });
      } catch (error) {
        request.log.warn(
          { asset, reason: error instanceof Error ? error.message : String(error) },
          'faucet failed',
        );
        throw new DialError('chain_unavailable', { cause: error });
      }
      // In the history as "Test funds", with the status read from the receipt.
      await recordSentCredit(
        ctx,
        client,
        {
          userId: request.user!.id,
          wallet: to,
          chainId: LOCAL_CHAIN_ID,
          txHash,
          source: 'faucet',
          asset,
          amount: value,
        },
        request.log,
      );
      return { txHash, asset, value: value.toString() };
    },
  );

  app.post(
    localChainRoute.url,
    {
      // A contract deployment can be larger than the API's usual bodies.
      bodyLimit: 1024 * 1024,
      // Every method goes through unfiltered (the chain's own accounts included), so only to people signed
      // in: the web app reads the chain only on the wallet screen.
      preHandler: app.requireUser,
      schema: localChainRoute.schema,
    },
    async (request, reply) => {
      let response: Response;
      try {
        response = await fetch(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(withParams(request.body)),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        request.log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'chain unreachable',
        );
        throw new DialError('chain_unavailable', { cause: error });
      }
      const text = await response.text();
      if (!response.ok && !text.trimStart().startsWith('{') && !text.trimStart().startsWith('[')) {
        throw new DialError('chain_unavailable', { details: `chain answered HTTP ${response.status}` });
      }
      // The chain's own status and JSON-RPC body, as they are (the cast: the schema only names 200).
      return reply
        .code(response.status as 200)
        .type('application/json; charset=utf-8')
        .send(text);
    },
  );
}

type JsonRpcRequest = { params?: unknown } & Record<string, unknown>;

/** Adds `params: []` where a request left it out (viem does for some methods; EDR wants it). */
function withParams(body: JsonRpcRequest | JsonRpcRequest[]): JsonRpcRequest | JsonRpcRequest[] {
  const fill = (call: JsonRpcRequest) => (call.params === undefined ? { ...call, params: [] } : call);
  return Array.isArray(body) ? body.map(fill) : fill(body);
}

/**
 * The development routes: the dev outbox, and the local chain's (faucet, JSON-RPC proxy) when it is on.
 * `buildApp` imports this module only outside production, so a production server never loads it.
 */
export function registerDevRoutes(app: TypedApp, ctx: AppContext): void {
  registerOutboxRoutes(app, ctx);
  const localChain = ctx.config.localChain;
  if (hasLocalChain(ctx.config) && localChain !== null) {
    registerLocalChainRoutes(app, ctx, localChain.rpcUrl);
  }
}
