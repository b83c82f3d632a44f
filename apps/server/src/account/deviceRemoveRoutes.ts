import { removeDeviceRoute } from '@dial/api';
import { answerChange, changeAccount } from '../accountChanges/changeAccount.js';
import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';

/**
 * Removing a device of the wallet (`POST /api/wallet/devices/:id/remove`, issue 28): an account change like
 * forgetting a browser (`browserRoutes.ts`), at once with the key's proof, else after the cooling-off period
 * (`changeAccount`). Made, the device's auth share is deleted (`wallet/deviceStore.ts`' `removeDevice`), so
 * the share its browser holds opens nothing, and the owner is told. Registered with the account's settings,
 * not the wallet's routes: the account changes import the wallet, never the other way round.
 */
export function registerDeviceRemoveRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    removeDeviceRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...removeDeviceRoute.schema,
        description:
          'An account change (`remove-device`, target the device id), like forgetting a browser: with the ' +
          "key's proof it is made at once (200), else it waits out `COOLING_OFF_HOURS` (202, every method of " +
          "the account told). Made, the device's auth share is deleted and the owner told (`device-removed`). " +
          'An id that is not an un-removed device of the user’s: 404 `device_not_found`.',
      },
    },
    async (request, reply) => {
      const outcome = await changeAccount(
        ctx,
        request,
        { action: 'remove-device', id: request.params.id },
        request.body?.proof,
      );
      return answerChange(reply, outcome, () => ({ removed: true as const }));
    },
  );
}
