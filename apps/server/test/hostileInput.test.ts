import { randomUUID } from 'node:crypto';
import { ERROR_CATALOGUE } from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, PHONE } from './testApp.js';

/** A 400 with the catalogue's code, and a message naming the field with the control character. */
function expectControlCharacterRefused(response: LightMyRequestResponse, field: string): void {
  expect(response.statusCode).toBe(400);
  const { error } = response.json();
  expect(error.code).toBe('invalid_data');
  expect(error.message).toContain(JSON.stringify(field));
  expect(error.message).toContain('control character');
}

describe.each(DIALECTS)('hostile input on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const label = dialectLabel(dialect);

  it.each([
    ['NUL', 'ada\u0000@example.com'],
    ['U+0001, which mail software drops (x\\u0001y@ reached xy@)', 'x\u0001y@example.com'],
    ['DEL', 'x\u007fy@example.com'],
    ['the C1 control NEL', 'x\u0085y@example.com'],
    ['a line feed at the end', 'ada@example.com\n'],
    ['a carriage return and a header', 'ada@example.com\r\nBcc: eve@example.com'],
  ])(`refuses an e-mail identifier with %s: 400 invalid_data, nothing sent (${label})`, async (_name, to) => {
    const t = await createTestApp(db());
    const start = await t.post('/api/auth/otp/start', { channel: 'email', to });
    expectControlCharacterRefused(start, 'to');
    const verify = await t.post('/api/auth/otp/verify', { channel: 'email', to, code: '123456' });
    expectControlCharacterRefused(verify, 'to');
    expect(t.transport.sent).toHaveLength(0);
    expect(await db().selectFrom('identities').select('value').execute()).toEqual([]);
  });

  it(`keeps x\\u0001y@example.com and xy@example.com apart: only the plain address gets a code (${label})`, async () => {
    const t = await createTestApp(db());
    expect(
      (await t.post('/api/auth/otp/start', { channel: 'email', to: 'x\u0001y@example.com' })).statusCode,
    ).toBe(400);
    await t.signIn('email', 'xy@example.com');
    expect(t.transport.sent.map((message) => message.to)).toEqual(['xy@example.com']);
    expect(await db().selectFrom('identities').select('value').execute()).toEqual([
      { value: 'xy@example.com' },
    ]);
  });

  it.each([
    ['NUL inside', '+44740012\u00003456'],
    ['a tab at the end', `${PHONE}\t`],
    ['a line feed between groups', '+44 7400\n123456'],
  ])(`refuses a phone identifier with %s (${label})`, async (_name, to) => {
    const t = await createTestApp(db());
    expectControlCharacterRefused(await t.post('/api/auth/otp/start', { channel: 'sms', to }), 'to');
    expect(t.transport.sent).toHaveLength(0);
  });

  it.each([
    ['a re-authentication key', 'reauth:ada@example.com'],
    ['a quoted local part', '"ada lovelace"@example.com'],
    ['an IP-address literal', 'ada@[127.0.0.1]'],
    ['a display name', 'Ada <ada@example.com>'],
    ['two addresses', 'ada@example.com,eve@example.com'],
    ['a non-ASCII domain', 'ada@münchen.de'],
  ])(`refuses %s as an e-mail identifier with 400 invalid_email (${label})`, async (_name, to) => {
    const t = await createTestApp(db());
    const response = await t.post('/api/auth/otp/start', { channel: 'email', to });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'invalid_email',
      message: ERROR_CATALOGUE.invalid_email.message,
    });
    expect(t.transport.sent).toHaveLength(0);
  });

  it.each([
    ['a national number (read as American before)', '2015550123'],
    ['a national number with its trunk prefix', '07400 123456'],
  ])(`refuses %s as a phone identifier with 400 invalid_phone (${label})`, async (_name, to) => {
    const t = await createTestApp(db());
    const response = await t.post('/api/auth/otp/start', { channel: 'sms', to });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_phone');
    expect(t.transport.sent).toHaveLength(0);
  });

  it(`still reads identifiers as people type them: trimmed, lower-cased, E.164 (${label})`, async () => {
    const t = await createTestApp(db());
    expect(
      (await t.post('/api/auth/otp/start', { channel: 'email', to: ' Ada@Example.com ' })).statusCode,
    ).toBe(200);
    expect((await t.post('/api/auth/otp/start', { channel: 'sms', to: '+44 7400 123456' })).statusCode).toBe(
      200,
    );
    const withZeros = await t.post('/api/auth/otp/start', { channel: 'sms', to: '0044 7400 987654' });
    expect(withZeros.statusCode).toBe(200);
    expect(t.transport.sent.map((message) => message.to)).toEqual([
      'ada@example.com',
      PHONE,
      '+447400987654',
    ]);
  });

  it(`refuses a control character in any text field, key, query parameter or path parameter (${label})`, async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);

    const code = await t.post('/api/auth/otp/verify', { channel: 'sms', to: PHONE, code: '12345\u0000' });
    expectControlCharacterRefused(code, 'code');

    const key = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp/start',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: '{"channel":"email","to":"ada@example.com","x\\u0000y":1}',
    });
    expectControlCharacterRefused(key, 'x\u0000y');

    const query = await t.get(`/api/users/lookup?phone=${encodeURIComponent(`${PHONE}\u0000`)}`, { token });
    expectControlCharacterRefused(query, 'phone');

    const param = await t.app.inject({
      method: 'PATCH',
      url: '/api/activity/%00',
      headers: { origin: ORIGIN, cookie: `dial_session=${token}` },
      payload: {},
    });
    expectControlCharacterRefused(param, 'id');
    expect(t.transport.sent).toHaveLength(1);
  });

  it(`answers ids that are no UUID with 400 invalid_data before SQL, and unknown ones with 404 (${label})`, async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const patch = (id: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/activity/${id}`,
        headers: { origin: ORIGIN, cookie: `dial_session=${token}` },
        payload: {},
      });
    for (const id of ['1', "1'%20or%20'1'='1", 'x'.repeat(36), `${randomUUID()}x`]) {
      const response = await patch(id);
      expect({ id, status: response.statusCode, code: response.json().error.code }).toEqual({
        id,
        status: 400,
        code: 'invalid_data',
      });
    }
    const unknown = await patch(randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });
});
