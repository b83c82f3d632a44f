import { DialError, isDialError } from '@dial/core';
import type { AccountChange } from '../api/types';
import { cancelAccountChange, type SecuredAccount, secureAccount } from './accountChangesApi';
import {
  NO_PROOF_MESSAGES,
  type ProveOptions,
  proveAccountChange,
  requireAccountProof,
} from './proveAccountChange';

/**
 * Cancels a pending change with the account key's proof (an account without a key: its trusted sessions
 * may cancel without one, so the request goes without proof when this browser has none).
 *
 * @throws {DialError} `account_proof_required` saying why this browser could not prove it,
 * `change_not_pending`, `not_found`, `user_rejected`.
 */
export async function cancelPendingChange(
  userId: string,
  id: string,
  options?: ProveOptions,
): Promise<AccountChange> {
  const attempt = await proveAccountChange(userId, { action: 'cancel-change', id }, options);
  try {
    return await cancelAccountChange(id, attempt.proof);
  } catch (error) {
    if (attempt.proof === null && isDialError(error, 'account_proof_required')) {
      throw new DialError('account_proof_required', {
        message: NO_PROOF_MESSAGES[attempt.reason],
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * "Secure my account", with the account key's proof: ends every other session, removes the methods linked
 * without proof, cancels the pending changes and forgets every other browser.
 *
 * @throws {DialError} `account_proof_required` (saying why) when this browser cannot prove it.
 */
export async function secureMyAccount(userId: string, options?: ProveOptions): Promise<SecuredAccount> {
  return secureAccount(await requireAccountProof(userId, { action: 'secure-account' }, options));
}
