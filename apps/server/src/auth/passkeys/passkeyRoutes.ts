import {
  passkeySignInOptionsRoute,
  passkeySignInRoute,
  passkeySignUpOptionsRoute,
  passkeySignUpRoute,
} from '@dial/api';
import { DialError } from '@dial/core';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../appContext.js';
import { rateKey } from '../../config/rateKey.js';
import type { TypedApp } from '../../http/typedApp.js';
import { ipSubject } from '../../rateLimit/ipSubject.js';
import { deviceHashOf, ensureDevice } from '../devices.js';
import { startSignedInSession } from '../startSignedInSession.js';
import { findOrCreateUser, findUser } from '../users.js';
import { createPasskeyChecks } from './passkeyCeremonies.js';
import { storePasskey } from './passkeyStore.js';
import { challengeOf, issueWebauthnChallenge, useWebauthnChallenge } from './webauthnChallenges.js';

/**
 * Sign up and sign in with a passkey alone (`/api/auth/passkey/…`). Each ceremony starts with options whose
 * challenge is bound to this browser (its `dial_device` cookie, set when it has none) and used once, before
 * the signature is checked, by the ceremony that carries it. A sign-up makes a discoverable credential with a
 * random user handle, and creates an account whose one sign-in method it is (the allowlist and `MAX_USERS` as
 * for any sign-up); a credential id that is already a method of an account is `method_taken`, never a sign-in
 * (an attestation `none` proves only that the sender holds *a* key, not the account's). A sign-in looks the
 * credential up by its id and checks the assertion against its stored public key and counter.
 */
export function registerPasskeyRoutes(app: TypedApp, ctx: AppContext): void {
  const checks = createPasskeyChecks(ctx.config);

  const consumeChallengeBudget = (request: FastifyRequest) =>
    ctx.rateLimiter.consume(
      rateKey('passkeyChallengesPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
      ctx.config.rateLimits.passkeyChallengesPerIp,
      ctx.now(),
    );

  app.post(
    passkeySignUpOptionsRoute.url,
    { schema: passkeySignUpOptionsRoute.schema },
    async (request, reply) => {
      await consumeChallengeBudget(request);
      const deviceHash = ensureDevice(request, reply, ctx);
      const userHandle = checks.newUserHandle();
      const challenge = await issueWebauthnChallenge(
        ctx.db,
        { purpose: 'sign-up', deviceHash },
        userHandle,
        ctx.now(),
      );
      return {
        options: checks.creationOptions(request, {
          challenge,
          userHandle,
          userName: `Dial ${ctx.now().toISOString().slice(0, 10)}`,
          exclude: [],
        }),
      };
    },
  );

  app.post(passkeySignUpRoute.url, { schema: passkeySignUpRoute.schema }, async (request, reply) => {
    const { credential, name } = request.body;
    // No device cookie: no challenge can match ('' is no SHA-256).
    const binding = { purpose: 'sign-up' as const, deviceHash: deviceHashOf(request) ?? '' };
    const challenge = challengeOf(credential.response.clientDataJSON);
    const { userHandle } = await useWebauthnChallenge(ctx.db, challenge, binding, ctx.now());
    const passkey = await checks.verifyRegistration(request, credential, {
      challenge,
      userHandle: userHandle ?? '',
      name,
    });
    const taken = await ctx.db
      .selectFrom('identities')
      .select('id')
      .where('value', '=', passkey.credentialId)
      .executeTakeFirst();
    if (taken !== undefined) throw new DialError('method_taken');
    const now = ctx.now();
    const { user, isNewUser } = await findOrCreateUser(
      ctx.db,
      { kind: 'passkey', value: passkey.credentialId },
      { allowlist: ctx.config.allowlist, maxUsers: ctx.config.maxUsers },
      now,
      (trx, made) => storePasskey(trx, made, passkey, now),
    );
    // Another sign-up made this credential an account's between the check and the insert.
    if (!isNewUser) throw new DialError('method_taken');
    await startSignedInSession(request, reply, ctx, {
      user,
      isNewUser,
      method: 'passkey',
      identifier: passkey.credentialId,
    });
    return { user, isNewUser };
  });

  app.post(
    passkeySignInOptionsRoute.url,
    { schema: passkeySignInOptionsRoute.schema },
    async (request, reply) => {
      await consumeChallengeBudget(request);
      const deviceHash = ensureDevice(request, reply, ctx);
      const challenge = await issueWebauthnChallenge(
        ctx.db,
        { purpose: 'sign-in', deviceHash },
        null,
        ctx.now(),
      );
      return { options: checks.requestOptions(request, challenge) };
    },
  );

  app.post(passkeySignInRoute.url, { schema: passkeySignInRoute.schema }, async (request, reply) => {
    const { credential } = request.body;
    const binding = { purpose: 'sign-in' as const, deviceHash: deviceHashOf(request) ?? '' };
    const challenge = challengeOf(credential.response.clientDataJSON);
    await useWebauthnChallenge(ctx.db, challenge, binding, ctx.now());
    const stored = await ctx.db
      .selectFrom('passkeys')
      .select([
        'identity_id',
        'user_id',
        'credential_id',
        'public_key',
        'counter',
        'transports',
        'user_handle',
      ])
      .where('credential_id', '=', credential.id)
      .executeTakeFirst();
    if (stored === undefined) throw new DialError('passkey_unknown');
    await checks.verifyAssertion(ctx.db, credential, challenge, stored, ctx.now());
    const user = await findUser(ctx.db, stored.user_id);
    // The passkey was removed (with its account) between the look-up and now.
    if (user === undefined) throw new DialError('passkey_unknown');
    await startSignedInSession(request, reply, ctx, {
      user,
      isNewUser: false,
      method: 'passkey',
      identifier: stored.credential_id,
    });
    return { user, isNewUser: false };
  });
}
