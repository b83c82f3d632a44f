import { DialError, findCause, isDialError } from '@dial/core';

/** The catalogue error for what the provider threw: a share problem as it is, else by the EIP-1193 code. */
export function sendError(error: unknown): DialError {
  const dialError = findCause(error, isDialError);
  if (dialError !== undefined) return dialError;
  const text = messages(error).toLowerCase();
  if (text.includes('insufficient funds')) return new DialError('insufficient_balance', { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 4001) return new DialError('user_rejected', { cause: error });
  if (code === 4901 || code === 4900) return new DialError('chain_unavailable', { cause: error });
  return new DialError('internal_error', { cause: error });
}

function messages(error: unknown): string {
  const parts: string[] = [];
  let current = error;
  for (let depth = 0; depth < 16 && current !== undefined && current !== null; depth++) {
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string') parts.push(message);
    const details = (current as { details?: unknown }).details;
    if (typeof details === 'string') parts.push(details);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(' ');
}
