import { DialError } from '@dial/core';
import { PROVIDER_ERRORS, providerErrorCode } from './walletProvider';

/** The catalogue error for what a wallet threw. */
export function walletError(error: unknown): DialError {
  const code = providerErrorCode(error);
  if (code === PROVIDER_ERRORS.userRejected || code === PROVIDER_ERRORS.unauthorized) {
    return new DialError('user_rejected', { cause: error });
  }
  if (code === PROVIDER_ERRORS.requestPending) {
    return new DialError('user_rejected', {
      cause: error,
      message: 'Your wallet is already asking you something. Open it, answer, then try again.',
    });
  }
  if (code === PROVIDER_ERRORS.disconnected || code === PROVIDER_ERRORS.chainDisconnected) {
    return new DialError('chain_unavailable', { cause: error });
  }
  return new DialError('internal_error', { cause: error });
}
