// What a client reads of a route's declaration, as static types: the request it sends, the answers it may
// get, the error codes it may be refused with. Types only: importing them loads no schema.
import type { Static, TSchema } from 'typebox';
import type { ANY_REQUEST_ERRORS, ApiRoute } from './defineRoute.js';

/** The JSON body a route takes; `undefined` for a route without one. */
export type RequestBody<R extends ApiRoute> = R['schema'] extends { body: infer B extends TSchema }
  ? Static<B>
  : undefined;

/** A route's query parameters (`?limit=20`); `undefined` for a route without any. */
export type RequestQuery<R extends ApiRoute> = R['schema'] extends { querystring: infer Q extends TSchema }
  ? Static<Q>
  : undefined;

/** A route's path parameters (`:id` in its URL); `undefined` for a route without any. */
export type RequestParams<R extends ApiRoute> = R['schema'] extends { params: infer P extends TSchema }
  ? Static<P>
  : undefined;

/** The successes (2xx) a route declares, by status. */
type SuccessAnswers<R extends ApiRoute> = {
  [K in keyof R['schema']['response'] as `${K & number}` extends `2${string}` ? K : never]: K extends 204
    ? undefined
    : R['schema']['response'][K] extends infer S extends TSchema
      ? Static<S>
      : never;
};

/**
 * What a call of the route resolves with: the union of its successes' bodies (a `204` is `undefined`). The
 * JSON on the wire: addresses and hashes of answers are `` `0x${string}` ``.
 */
export type Answer<R extends ApiRoute> = SuccessAnswers<R>[keyof SuccessAnswers<R>];

/** A code any request may be answered with, whatever its route (an unknown path, a failure of the server). */
export type AnyRequestErrorCode = (typeof ANY_REQUEST_ERRORS)[number];

/** Every code the route declares it may answer (its own, and those every route of its kind answers). */
export type DeclaredErrorCode<R extends ApiRoute> = R['errors'][number];
