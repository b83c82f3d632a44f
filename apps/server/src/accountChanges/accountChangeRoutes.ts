import {
  accountProofRoute,
  cancelAccountChangeRoute,
  listAccountChangesRoute,
  secureAccountRoute,
} from '@dial/api';
import { DialError } from '@dial/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { type RepeatingTask, runWhileOpen, startRepeatingTask } from '../system/repeatingTask.js';
import { accountSigners } from '../wallet/accountProof.js';
import { issueChallenge } from '../wallet/walletProofs.js';
import { applyDueChanges, cancelChange, listChanges, secureAccount } from './changeAccount.js';
import { trustedPasskeys } from './stepUpProof.js';

/** How often each server looks for changes whose cooling-off period has ended. */
export const DUE_CHANGES_INTERVAL_MS = 30_000;

/**
 * The account's ownership routes (`/api/account/…`): a challenge for the key's proof, the changes asked
 * for without one (listed, cancelled), and "Secure my account"; and the timer that makes changes when
 * their cooling-off period ends (every server runs it: each change is claimed by one conditional update).
 */
export function registerAccountChangeRoutes(
  app: TypedApp,
  ctx: AppContext,
  intervalMs = DUE_CHANGES_INTERVAL_MS,
): void {
  app.post(
    accountProofRoute.url,
    { preHandler: app.requireUser, schema: accountProofRoute.schema },
    async (request, reply) => {
      const signers = await accountSigners(ctx.db, request.user!.id);
      const passkeys = await trustedPasskeys(ctx.db, request.user!.id);
      if (signers.length === 0 && passkeys.length === 0) {
        throw new DialError('account_proof_required', {
          message:
            'This account has no wallet key yet to confirm changes with, so changes wait out their cooling-off period.',
          details: 'the account has no key yet',
        });
      }
      const issued = await issueChallenge(ctx, request, 'account-change');
      return reply.code(201).send({ ...issued, signers, passkeys });
    },
  );

  app.get(
    listAccountChangesRoute.url,
    { preHandler: app.requireUser, schema: listAccountChangesRoute.schema },
    async (request) => listChanges(ctx, request),
  );

  app.post(
    cancelAccountChangeRoute.url,
    { preHandler: app.requireUser, schema: cancelAccountChangeRoute.schema },
    async (request) => ({
      change: await cancelChange(ctx, request, request.params.id, request.body.proof),
    }),
  );

  app.post(
    secureAccountRoute.url,
    { preHandler: app.requireUser, schema: secureAccountRoute.schema },
    async (request) => secureAccount(ctx, request, request.body.proof),
  );

  runWhileOpen(app, () => startDueChangesTimer(ctx, app.log, intervalMs));
}

/** Makes due changes every `intervalMs` ({@link DUE_CHANGES_INTERVAL_MS} by default). */
export function startDueChangesTimer(
  ctx: AppContext,
  log: FastifyBaseLogger,
  intervalMs = DUE_CHANGES_INTERVAL_MS,
): RepeatingTask {
  return startRepeatingTask(
    async () => {
      await applyDueChanges(ctx, log);
    },
    intervalMs,
    (error) => log.warn({ err: error }, 'making due account changes failed'),
  );
}
