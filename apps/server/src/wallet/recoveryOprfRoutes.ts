import { recoveryOprfRoute } from '@dial/api';
import { decodeShare, deriveRecoveryOprfKey, encodeShare, evaluateRecoveryOprf } from '@dial/core';
import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { consumeRecoveryTry } from './consumeRecoveryTry.js';

/**
 * `POST /api/wallet/recovery/oprf`: the server's half of the OPRF (RFC 9497, ristretto255-SHA512, base
 * mode) that hardens recovery passwords.
 *
 * The browser encrypts a password-protected recovery share under a key made from both scrypt(password)
 * and the OPRF output of the password under this user's key, which only this server holds (derived from
 * `SHARE_ENCRYPTION_KEY`, see {@link AppContext.keys}). Whoever steals the database (or a session and the
 * ciphertext) therefore cannot check a guessed password offline: every guess needs an evaluation here,
 * and every evaluation counts against the per-user recovery limit (shared with
 * `POST /api/wallet/recovery/failed`), whether it is for recovering or for setting recovery up (the server
 * cannot tell them apart, and a stolen session could otherwise guess through "setup"). A password try is
 * this one evaluation: fetching the ciphertext is not counted, so a wrong password costs one try. The
 * element is blinded: the server learns nothing about the password, nor the output.
 */
export function registerRecoveryOprfRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    recoveryOprfRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...recoveryOprfRoute.schema,
        description:
          'RFC 9497 OPRF, base mode, ristretto255-SHA512. The browser blinds its recovery password, this ' +
          "route multiplies the element by the user's secret key, the browser unblinds and hashes the " +
          'result into the OPRF output, which it mixes with scrypt to key the recovery share. Each call ' +
          'counts against the per-user recovery limit shared with `POST /api/wallet/recovery/failed` (429 ' +
          '`too_many_requests` after it), and the answer says how many of its tries are left (`triesLeft`) ' +
          'and, when none is, how long until the next (`retryAfterSeconds`); an element that is not a valid, ' +
          'non-identity ristretto255 encoding is refused with 400 `invalid_data`.',
      },
    },
    async (request) => {
      const userId = request.user!.id;
      // Counted before the element is even read: every request is a guess the caller may check.
      const tries = await consumeRecoveryTry(ctx, userId);
      const blinded = decodeShare(request.body.blindedElement);
      const key = deriveRecoveryOprfKey(ctx.keys.recoveryOprf, userId);
      try {
        return { evaluatedElement: encodeShare(evaluateRecoveryOprf(key, blinded)), ...tries };
      } finally {
        key.fill(0);
      }
    },
  );
}
