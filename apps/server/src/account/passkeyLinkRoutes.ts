import { linkPasskeyOptionsRoute, linkPasskeyRoute } from '@dial/api';
import { DialError } from '@dial/core';
import { answerChange, changeAccount } from '../accountChanges/changeAccount.js';
import type { AppContext } from '../appContext.js';
import { createPasskeyChecks } from '../auth/passkeys/passkeyCeremonies.js';
import {
  challengeOf,
  issueWebauthnChallenge,
  useWebauthnChallenge,
} from '../auth/passkeys/webauthnChallenges.js';
import { sessionHashOf } from '../auth/reauthentication.js';
import { rateKey } from '../config/rateKey.js';
import type { TypedApp } from '../http/typedApp.js';
import { ipSubject } from '../rateLimit/ipSubject.js';

/**
 * `POST /api/auth/methods/passkey/options` and `/api/auth/methods/passkey`: add a passkey to the signed-in
 * account. The options name the account's passkeys (so an authenticator holding one makes no second) and a
 * challenge bound to this session, used once; the account's user handle is reused (an authenticator keeps one
 * passkey per site and handle, and the account's are told apart by `excludeCredentials`). The new passkey's
 * attestation is checked as a sign-up's is; the link itself is a change to the account (`changeAccount`),
 * made at once with the proof (the key's, or a trusted passkey's) or after the cooling-off period, with the
 * limit on methods, `method_taken` and the notices of every other method.
 */
export function registerPasskeyLinkRoutes(app: TypedApp, ctx: AppContext): void {
  const checks = createPasskeyChecks(ctx.config);

  app.post(
    linkPasskeyOptionsRoute.url,
    { preHandler: app.requireUser, schema: linkPasskeyOptionsRoute.schema },
    async (request) => {
      const user = request.user!;
      await ctx.rateLimiter.consume(
        rateKey('passkeyChallengesPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
        ctx.config.rateLimits.passkeyChallengesPerIp,
        ctx.now(),
      );
      const { count } = await ctx.db
        .selectFrom('identities')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (Number(count) >= ctx.config.maxSignInMethods) throw new DialError('methods_limit_reached');
      const own = await ctx.db
        .selectFrom('passkeys')
        .select(['credential_id', 'user_handle'])
        .where('user_id', '=', user.id)
        .orderBy('created_at')
        .execute();
      const userHandle = own[0]?.user_handle ?? checks.newUserHandle();
      const challenge = await issueWebauthnChallenge(
        ctx.db,
        { purpose: 'link', sessionHash: sessionHashOf(request) },
        userHandle,
        ctx.now(),
      );
      return {
        options: checks.creationOptions(request, {
          challenge,
          userHandle,
          userName: user.email ?? user.phone ?? `Dial ${user.createdAt.slice(0, 10)}`,
          exclude: own.map((row) => row.credential_id),
        }),
      };
    },
  );

  app.post(
    linkPasskeyRoute.url,
    { preHandler: app.requireUser, schema: linkPasskeyRoute.schema },
    async (request, reply) => {
      const { credential, name, proof } = request.body;
      const challenge = challengeOf(credential.response.clientDataJSON);
      const { userHandle } = await useWebauthnChallenge(
        ctx.db,
        challenge,
        { purpose: 'link', sessionHash: sessionHashOf(request) },
        ctx.now(),
      );
      const passkey = await checks.verifyRegistration(request, credential, {
        challenge,
        userHandle: userHandle ?? '',
        name,
      });
      // The attestation proves the new passkey; only the account's proof says its owner wants it.
      const outcome = await changeAccount(
        ctx,
        request,
        { action: 'link-method', kind: 'passkey', value: passkey.credentialId, passkey },
        proof,
      );
      return answerChange(reply, outcome, (applied) => ({ method: applied }));
    },
  );
}
