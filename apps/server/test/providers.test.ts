import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from './databases.js';
import { createTestApp, PHONE } from './testApp.js';

// The server configured as in production, with SMTP_URL and the TWILIO_* settings: one-time codes leave
// through a real SMTP server on loopback and through a Twilio stand-in that checks the exact request, and
// the code that arrives there signs in. Nothing reaches the dev outbox.

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; openConnections(): number }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, openConnections: () => server.connections.size };
}

interface TwilioRequest {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

async function startTwilioStandIn(): Promise<{ apiUrl: string; requests: TwilioRequest[] }> {
  const requests: TwilioRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push({
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        form: Object.fromEntries(new URLSearchParams(body)),
      });
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ sid: 'SM123', status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { apiUrl: `http://127.0.0.1:${port}`, requests };
}

/** The six-digit code in a text; fails the test when there is none. */
function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  expect(match, `a 6-digit code in: ${text}`).not.toBeNull();
  return match?.[1] as string;
}

describe('one-time codes through the configured providers', () => {
  const db = useTestDatabase('sqlite');

  it('e-mails the code through SMTP_URL, and that code signs in', async () => {
    const smtp = await startSmtpServer();
    const t = await createTestApp(db(), {
      config: { environment: 'test', mail: { smtpUrl: smtp.url, from: 'Dial <codes@dial.example>' } },
      deps: { transports: undefined },
    });

    const start = await t.post('/api/auth/otp/start', { channel: 'email', to: ' Ada@Example.com ' });
    expect(start.statusCode).toBe(200);

    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail?.from).toBe('codes@dial.example');
    expect(mail?.to).toEqual(['ada@example.com']);
    expect(mail?.raw).toMatch(/^Subject: Your Dial sign-in code: \d{6}\r?$/m);
    const code = codeIn(
      mail?.raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n') ?? '',
    );

    const verify = await t.post('/api/auth/otp/verify', { channel: 'email', to: 'ada@example.com', code });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().user.email).toBe('ada@example.com');

    const outbox = await t.get('/dev/outbox.json');
    expect(outbox.json().messages).toEqual([]);

    // Shutting the app down closes its pooled SMTP connection.
    expect(smtp.openConnections()).toBe(1);
    await t.app.close();
    await expect.poll(() => smtp.openConnections()).toBe(0);
  });

  it('texts the code through Twilio with the exact request, and that code signs in', async () => {
    const twilio = await startTwilioStandIn();
    const t = await createTestApp(db(), {
      config: {
        environment: 'test',
        twilio: {
          accountSid: 'AC0123',
          authToken: 'twilio-secret',
          from: '+15005550006',
          apiUrl: twilio.apiUrl,
        },
      },
      deps: { transports: undefined },
    });

    const start = await t.post('/api/auth/otp/start', { channel: 'sms', to: '+44 7400 123456' });
    expect(start.statusCode).toBe(200);

    expect(twilio.requests).toHaveLength(1);
    const [request] = twilio.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/2010-04-01/Accounts/AC0123/Messages.json');
    expect(request?.authorization).toBe(`Basic ${Buffer.from('AC0123:twilio-secret').toString('base64')}`);
    expect(request?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.keys(request?.form ?? {})).toEqual(['To', 'From', 'Body']);
    expect(request?.form.To).toBe(PHONE);
    expect(request?.form.From).toBe('+15005550006');
    const code = codeIn(request?.form.Body ?? '');

    const verify = await t.post('/api/auth/otp/verify', { channel: 'sms', to: PHONE, code });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().user.phone).toBe(PHONE);

    const outbox = await t.get('/dev/outbox.json');
    expect(outbox.json().messages).toEqual([]);
  });

  it('answers delivery_failed when the SMTP server is unreachable, and keeps no code', async () => {
    const smtp = await startSmtpServer();
    await closers.pop()?.();
    const t = await createTestApp(db(), {
      config: { environment: 'test', mail: { smtpUrl: smtp.url, from: 'Dial <codes@dial.example>' } },
      deps: { transports: undefined },
    });

    const start = await t.post('/api/auth/otp/start', { channel: 'email', to: 'ada@example.com' });
    expect(start.statusCode).toBe(502);
    expect(start.json().error.code).toBe('delivery_failed');
    const verify = await t.post('/api/auth/otp/verify', {
      channel: 'email',
      to: 'ada@example.com',
      code: '000000',
    });
    expect(verify.json().error.code).toBe('code_expired');
  });
});
