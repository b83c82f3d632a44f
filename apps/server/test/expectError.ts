import { ERROR_CATALOGUE, type ErrorCode } from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * The answer is exactly the catalogue's error `code`: the given status (which must be the catalogue's for
 * that code) and a body with the code and the catalogue's message, nothing else.
 */
export function expectError(response: LightMyRequestResponse, status: number, code: ErrorCode): void {
  expect(ERROR_CATALOGUE[code].status).toBe(status);
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: { error: { code, message: ERROR_CATALOGUE[code].message } },
  });
}
