import { BUNDLER_METHODS, bundlerRoute } from '@dial/api';
import { DialError } from '@dial/core';
import { type Address, isAddress, isAddressEqual } from 'viem';
import type { AppContext } from '../appContext.js';
import type { User } from '../auth/users.js';
import { rateKey } from '../config/rateKey.js';
import type { TypedApp } from '../http/typedApp.js';

/** The methods whose first parameter is a user operation, which must be the session's own wallet's. */
const SENDER_METHODS: ReadonlySet<string> = new Set([
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
]);
const ALLOWED: ReadonlySet<string> = new Set(BUNDLER_METHODS);

interface BundlerCall {
  method: string;
  params?: unknown[] | undefined;
}

/**
 * `POST /api/bundler/:chainId`: JSON-RPC passed on to the chain's ERC-4337 bundler (`BUNDLER_URL_<chainId>`),
 * so the browser never sees a hosted bundler's URL and API key, and the Content-Security-Policy keeps
 * `connect-src` to this origin. Only the user operation's methods, and sending or estimating only with the
 * session's own embedded wallet as sender; the bundler's answer (its errors too) comes back as it is.
 */
export function registerBundlerRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    bundlerRoute.url,
    { preHandler: app.requireUser, schema: bundlerRoute.schema },
    async (request, reply) => {
      const url = ctx.config.sponsorship.bundlerUrls[request.params.chainId];
      if (url === undefined) throw new DialError('bundler_unavailable');
      await ctx.rateLimiter.consume(
        rateKey('bundlerCallsPerUser', request.user!.id),
        ctx.config.rateLimits.bundlerCallsPerUser,
        ctx.now(),
      );
      const calls: BundlerCall[] = Array.isArray(request.body) ? request.body : [request.body];
      for (const call of calls) checkCall(call, request.user!);

      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request.body),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        // Not the error itself: the bundler's URL may hold an API key.
        request.log.warn({ reason: error instanceof Error ? error.name : 'error' }, 'bundler unreachable');
        throw new DialError('chain_unavailable', { details: 'the bundler could not be reached' });
      }
      const text = await response.text();
      const trimmed = text.trimStart();
      if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) {
        throw new DialError('chain_unavailable', { details: `the bundler answered HTTP ${response.status}` });
      }
      // The bundler's JSON-RPC answer as it is, errors included (a refused operation is its 200 or 4xx).
      const status = response.status >= 500 ? 502 : response.status;
      return reply
        .code(status as 200)
        .type('application/json; charset=utf-8')
        .send(text);
    },
  );
}

/** Refuses a method the proxy does not pass on, or an operation whose sender is not the session's wallet. */
function checkCall(call: BundlerCall, user: User): void {
  if (!ALLOWED.has(call.method)) {
    throw new DialError('bundler_method_not_allowed', { details: call.method });
  }
  if (!SENDER_METHODS.has(call.method)) return;
  if (user.wallet === null) throw new DialError('wallet_not_found');
  const sender = (call.params?.[0] as { sender?: unknown } | undefined)?.sender;
  if (
    typeof sender !== 'string' ||
    !isAddress(sender, { strict: false }) ||
    user.wallet.kind !== 'embedded' ||
    !isAddressEqual(sender as Address, user.wallet.address)
  ) {
    throw new DialError('sponsor_not_allowed', {
      message: "Only your own Dial wallet's operations are sent from here.",
      details: `sender ${String(sender)}`,
    });
  }
}
