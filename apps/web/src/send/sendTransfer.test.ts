import { DialError } from '@dial/core';
import { InternalRpcError, UnauthorizedProviderError, UserRejectedRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { sendError } from './sendError';

describe('sendError', () => {
  it('keeps a share error from getAccount, found in the provider error’s causes', () => {
    const error = new UnauthorizedProviderError(new DialError('device_share_missing'));
    expect(sendError(error).code).toBe('device_share_missing');
  });

  it('maps a refusal, an unreachable chain and a lack of funds to the catalogue', () => {
    expect(sendError(new UserRejectedRequestError(new Error('no'))).code).toBe('user_rejected');
    expect(sendError(Object.assign(new Error('down'), { code: 4901 })).code).toBe('chain_unavailable');
    const funds = new InternalRpcError(
      new Error('Sender does not have enough funds: insufficient funds for gas * price + value'),
    );
    expect(sendError(funds).code).toBe('insufficient_balance');
    expect(sendError(new Error('boom')).code).toBe('internal_error');
  });
});
