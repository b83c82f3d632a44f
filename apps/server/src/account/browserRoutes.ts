import { forgetBrowserRoute, listBrowsersRoute } from '@dial/api';
import { answerChange, changeAccount } from '../accountChanges/changeAccount.js';
import type { AppContext } from '../appContext.js';
import { listBrowsers } from '../auth/browsers.js';
import { deviceHashOf } from '../auth/devices.js';
import type { TypedApp } from '../http/typedApp.js';

/**
 * The browsers of the signed-in person's account: listed, and forgotten (with the key's proof at once, else
 * after the cooling-off period, `changeAccount`). Under /api/auth because that is the only path the browser
 * sends its device cookie to (`devices.ts`), and the list must say which browser is this one; widening the
 * cookie's path would send the long-lived token with every request instead. A browser is named by its public
 * id, never its cookie or the cookie's hash; another user's id answers `404 not_found`, as one that does not
 * exist.
 */
export function registerBrowserRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    listBrowsersRoute.url,
    { preHandler: app.requireUser, schema: listBrowsersRoute.schema },
    async (request) => ({
      browsers: await listBrowsers(ctx.db, request.user!.id, {
        now: ctx.now(),
        idleHours: ctx.config.session.idleHours,
        currentDeviceHash: deviceHashOf(request),
      }),
    }),
  );

  app.post(
    forgetBrowserRoute.url,
    { preHandler: app.requireUser, schema: forgetBrowserRoute.schema },
    async (request, reply) => {
      const outcome = await changeAccount(
        ctx,
        request,
        { action: 'forget-browser', id: request.params.id },
        request.body?.proof,
      );
      return answerChange(reply, outcome, (applied) => applied);
    },
  );
}
