import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeliveryError, type OutboundMessage } from './transport.js';
import { createTwilioTransport } from './twilioTransport.js';

interface RecordedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TwilioStandIn {
  apiUrl: string;
  requests: RecordedRequest[];
}

const servers: Server[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map(closeServer));
});

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A loopback stand-in for api.twilio.com that records each request and gives one fixed answer. */
async function startTwilioStandIn(status: number, answer: unknown): Promise<TwilioStandIn> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const sms: OutboundMessage = {
  channel: 'sms',
  to: '+447700900123',
  subject: 'Your Dial code',
  text: "Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone.",
  code: '123456',
};

const twilioCreated = {
  sid: 'SM0123456789abcdef0123456789abcdef',
  account_sid: 'AC123',
  to: '+447700900123',
  from: '+15005550006',
  status: 'queued',
};

const expectedAuthorization = `Basic ${Buffer.from('AC123:secret-token').toString('base64')}`;

describe('createTwilioTransport', () => {
  it('posts the exact Messages API request for an SMS', async () => {
    const twilio = await startTwilioStandIn(201, twilioCreated);
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      apiUrl: twilio.apiUrl,
    });

    await transport.send(sms);

    expect(transport.name).toBe('twilio');
    expect(twilio.requests).toHaveLength(1);
    const [request] = twilio.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(request?.headers.authorization).toBe(expectedAuthorization);
    expect(expectedAuthorization).toBe('Basic QUMxMjM6c2VjcmV0LXRva2Vu');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect([...new URLSearchParams(request?.body)]).toEqual([
      ['To', '+447700900123'],
      ['From', '+15005550006'],
      ['Body', "Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone."],
    ]);
  });

  it('sends MessagingServiceSid instead of From when the sender is an MG… SID', async () => {
    const twilio = await startTwilioStandIn(201, twilioCreated);
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: 'MG0123456789abcdef0123456789abcdef',
      apiUrl: twilio.apiUrl,
    });

    await transport.send(sms);

    expect([...new URLSearchParams(twilio.requests[0]?.body)]).toEqual([
      ['To', '+447700900123'],
      ['MessagingServiceSid', 'MG0123456789abcdef0123456789abcdef'],
      ['Body', sms.text],
    ]);
  });

  it('encodes the account SID as one path segment and keeps a path prefix of apiUrl', async () => {
    const twilio = await startTwilioStandIn(201, twilioCreated);
    const transport = createTwilioTransport({
      accountSid: 'AC1/../x?y',
      authToken: 'secret-token',
      from: '+15005550006',
      apiUrl: `${twilio.apiUrl}/twilio/`,
    });

    await transport.send(sms);

    expect(twilio.requests[0]?.url).toBe('/twilio/2010-04-01/Accounts/AC1%2F..%2Fx%3Fy/Messages.json');
  });

  it("rejects with Twilio's error code and message, without the token, when Twilio answers 400", async () => {
    const twilio = await startTwilioStandIn(400, {
      code: 21211,
      message: "The 'To' number is not a valid phone number.",
      more_info: 'https://www.twilio.com/docs/errors/21211',
      status: 400,
    });
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      apiUrl: twilio.apiUrl,
    });

    const error = await transport.send(sms).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).status).toBe(400);
    expect((error as DeliveryError).message).toBe(
      "Twilio refused the message (HTTP 400, error 21211): The 'To' number is not a valid phone number.",
    );
    expect((error as DeliveryError).message).not.toContain('secret-token');
    expect(twilio.requests).toHaveLength(1);
  });

  it('redacts the token should Twilio ever echo it in an error message', async () => {
    const twilio = await startTwilioStandIn(401, { code: 20003, message: 'Bad token secret-token' });
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      apiUrl: twilio.apiUrl,
    });

    const error = await transport.send(sms).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).message).toBe(
      'Twilio refused the message (HTTP 401, error 20003): Bad token [redacted]',
    );
  });

  it('reports only the status when the error answer is not JSON', async () => {
    const twilio = await startTwilioStandIn(503, '<html>Service Unavailable</html>');
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      apiUrl: twilio.apiUrl,
    });

    const error = await transport.send(sms).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).status).toBe(503);
    expect((error as DeliveryError).message).toBe('Twilio refused the message (HTTP 503)');
  });

  it('rejects with a DeliveryError when nothing listens on the port', async () => {
    const twilio = await startTwilioStandIn(201, twilioCreated);
    await Promise.all(servers.splice(0).map(closeServer));
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      apiUrl: twilio.apiUrl,
    });

    const error = await transport.send(sms).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).message).toBe('Twilio could not be reached: fetch failed (ECONNREFUSED)');
    expect((error as DeliveryError).status).toBeUndefined();
    expect((error as DeliveryError).cause).toBeInstanceOf(TypeError);
  });

  it('gives up with a DeliveryError when Twilio does not answer in time', async () => {
    const hanging = createServer(() => {
      // Never answers.
    });
    servers.push(hanging);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      apiUrl: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
      timeoutMs: 50,
    });

    const error = await transport.send(sms).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).message).toBe('Twilio did not answer within 50 ms');
    expect((error as DeliveryError).cause).toMatchObject({ name: 'TimeoutError' });
  });

  it('waits 10 seconds by default', async () => {
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const fetchStub = vi.fn<typeof fetch>(
      async () => new Response(JSON.stringify(twilioCreated), { status: 201 }),
    );
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      fetch: fetchStub,
    });

    await transport.send(sms);

    expect(timeout).toHaveBeenCalledWith(10_000);
    expect(fetchStub).toHaveBeenCalledTimes(1);
    const [url, init] = fetchStub.mock.calls[0] ?? [];
    expect(String(url)).toBe('https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json');
    expect(init?.signal).toBe(timeout.mock.results[0]?.value);
  });

  it('refuses an e-mail message without calling Twilio', async () => {
    const fetchStub = vi.fn<typeof fetch>();
    const transport = createTwilioTransport({
      accountSid: 'AC123',
      authToken: 'secret-token',
      from: '+15005550006',
      fetch: fetchStub,
    });

    const error = await transport
      .send({ ...sms, channel: 'email', to: 'ada@example.test' })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).message).toBe('The Twilio transport sends SMS only, not email messages');
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it.each([
    ['http://api.twilio.example', 'must use https:'],
    ['ftp://127.0.0.1', 'must use https:'],
    ['not a url', 'not a valid URL'],
  ])('refuses the API URL %j, which would not protect the token', (apiUrl, expected) => {
    const create = () =>
      createTwilioTransport({ accountSid: 'AC123', authToken: 'secret-token', from: '+15005550006', apiUrl });
    expect(create).toThrow(TypeError);
    expect(create).toThrow(expected);
  });
});
