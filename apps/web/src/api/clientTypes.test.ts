import type { DialError } from '@dial/core';
import { describe, expectTypeOf, it } from 'vitest';
import { type Answer, type Body, type CallErrorCode, callApi, isRouteError, urlOf } from './client';

// The client's types are the contract's: these checks are the type-check's (`npm run typecheck --workspace
// @dial/web` fails when a `@ts-expect-error` below stops being an error). The functions holding calls are
// never run: they would send requests.

describe("the client's types, from the contract", () => {
  it('take the body, path parameters and query each route declares, and nothing else', () => {
    const wrongRequests = () => {
      // @ts-expect-error otpStart's body names the number `to`, not `phone`
      callApi('otpStart', { body: { channel: 'sms', phone: '+447400123456' } });
      // @ts-expect-error a channel the contract does not have
      callApi('otpStart', { body: { channel: 'fax', to: '+447400123456' } });
      // @ts-expect-error otpVerify needs its body
      callApi('otpVerify');
      // @ts-expect-error endSession needs its `:id`
      callApi('endSession', { body: {} });
      // @ts-expect-error `me` takes no body
      callApi('me', { body: { id: 'u1' } });
      // @ts-expect-error no route of that name
      callApi('whoami');
      // @ts-expect-error listActivity's limit is a number
      urlOf('listActivity', { query: { limit: '20' } });
      // @ts-expect-error checkTransfer's URL needs its `:id`
      urlOf('checkTransfer');
    };
    expectTypeOf(wrongRequests).toBeFunction();
    expectTypeOf<Body<'otpStart'>>().toEqualTypeOf<{
      channel: 'sms' | 'email';
      to: string;
      proof?: string;
    }>();
    expectTypeOf<Body<'me'>>().toEqualTypeOf<undefined>();
  });

  it("answer with the route's successes: their union, undefined for 204", () => {
    const wrongAnswers = async () => {
      const { user } = await callApi('me');
      // @ts-expect-error a user has no `name`
      user.name;
      const removed = await callApi('removeMethod', { params: { id: 'm1' } });
      // @ts-expect-error 200 `{ok}` or 202 `{pending}`: `ok` is not there in both
      removed.ok;
      const wallet = await callApi('getWallet');
      // @ts-expect-error the address is a string
      wallet.address satisfies number;
    };
    expectTypeOf(wrongAnswers).toBeFunction();
    expectTypeOf<Answer<'recoveryFailed'>>().toEqualTypeOf<undefined>();
    expectTypeOf<Answer<'getWallet'>['address']>().toEqualTypeOf<`0x${string}`>();
    expectTypeOf<Answer<'endOtherSessions'>>().toExtend<{ ended: number } | { pending: unknown }>();
  });

  it('narrow an error to the codes its route declares', () => {
    expectTypeOf<'proof_of_work_required'>().toExtend<CallErrorCode<'otpStart'>>();
    expectTypeOf<'network_error' | 'internal_error'>().toExtend<CallErrorCode<'me'>>();
    expectTypeOf<'wallet_not_found'>().not.toExtend<CallErrorCode<'otpStart'>>();
    expectTypeOf<'forbidden_origin'>().not.toExtend<CallErrorCode<'me'>>();
    const narrow = (error: unknown) => {
      // @ts-expect-error otpStart never answers wallet_not_found
      isRouteError('otpStart', error, 'wallet_not_found');
      if (isRouteError('otpStart', error, 'proof_of_work_required')) {
        expectTypeOf(error).toExtend<DialError>();
        expectTypeOf(error.code).toEqualTypeOf<'proof_of_work_required'>();
      }
    };
    expectTypeOf(narrow).toBeFunction();
  });
});
