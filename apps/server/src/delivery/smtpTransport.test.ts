import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createSmtpTransport } from './smtpTransport.js';
import { DeliveryError, type OutboundMessage } from './transport.js';

interface ReceivedMail {
  mailFrom: string | undefined;
  rcptTo: string[];
  raw: string;
}

interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  logins: { username: string | undefined; password: string | null | undefined }[];
}

const servers: SMTPServer[] = [];
const transports: { close(): void }[] = [];

afterEach(async () => {
  for (const transport of transports.splice(0)) transport.close();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(resolve))));
});

/** A real SMTP server on loopback that keeps every message it accepts. */
async function startSmtpServer(overrides: SMTPServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const logins: TestSmtpServer['logins'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username, password: auth.password });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    ...overrides,
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { port: (server.server.address() as AddressInfo).port, received, logins };
}

function transportFor(url: string) {
  // pool: smtp-server waits 100 ms before greeting each new connection.
  const transport = createSmtpTransport({ url, from: 'Dial <no-reply@dial.test>', pool: true });
  transports.push(transport);
  return transport;
}

const email: OutboundMessage = {
  channel: 'email',
  to: 'ada@example.test',
  subject: 'Your Dial sign-in code: 123456',
  text: 'Your Dial sign-in code is 123456.\n\nIt expires in 10 minutes.\n',
  code: '123456',
};

/** The header block of a raw message, with folded lines unfolded. */
function headersOf(raw: string): Map<string, string> {
  const block = raw.split('\r\n\r\n')[0] ?? '';
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

describe('createSmtpTransport', () => {
  it('delivers one e-mail with the envelope, subject and code to a real SMTP server', async () => {
    const server = await startSmtpServer();
    const transport = transportFor(`smtp://127.0.0.1:${server.port}`);

    await transport.send(email);

    expect(transport.name).toBe('smtp');
    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail?.mailFrom).toBe('no-reply@dial.test');
    expect(mail?.rcptTo).toEqual(['ada@example.test']);
    const headers = headersOf(mail?.raw ?? '');
    expect(headers.get('subject')).toBe('Your Dial sign-in code: 123456');
    expect(headers.get('from')).toBe('Dial <no-reply@dial.test>');
    expect(headers.get('to')).toBe('ada@example.test');
    expect(headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const body = mail?.raw.slice(mail.raw.indexOf('\r\n\r\n') + 4);
    expect(body).toBe('Your Dial sign-in code is 123456.\r\n\r\nIt expires in 10 minutes.\r\n');
  });

  it('logs in with the user and percent-decoded password from the URL', async () => {
    const server = await startSmtpServer({ allowInsecureAuth: true, authOptional: false });
    const transport = transportFor(`smtp://dial:p%40ss%3Aword@127.0.0.1:${server.port}`);

    await transport.send(email);

    expect(server.logins).toEqual([{ username: 'dial', password: 'p@ss:word' }]);
    expect(server.received).toHaveLength(1);
  });

  it('rejects with a DeliveryError carrying the reply when the server refuses the recipient', async () => {
    const server = await startSmtpServer({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
      },
    });
    const transport = transportFor(`smtp://127.0.0.1:${server.port}`);

    const error = await transport.send(email).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).name).toBe('DeliveryError');
    expect((error as DeliveryError).message).toMatch(/^SMTP delivery failed: .*550 No such mailbox here/);
    expect((error as DeliveryError).cause).toMatchObject({ code: 'EENVELOPE', responseCode: 550 });
    expect(server.received).toEqual([]);
  });

  it('keeps the password out of the error even when the server echoes it', async () => {
    const password = 'hunter2-very-secret';
    const server = await startSmtpServer({
      allowInsecureAuth: true,
      authOptional: false,
      onAuth(auth, _session, callback) {
        callback(new Error(`Bad password ${auth.password ?? ''} for ${auth.username ?? ''}`));
      },
    });
    const transport = transportFor(`smtp://dial:${password}@127.0.0.1:${server.port}`);

    const error = await transport.send(email).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    const { message } = error as DeliveryError;
    expect(message).toContain('Bad password [redacted] for dial');
    expect(message).toContain('(EAUTH)');
    expect(message).not.toContain(password);
    expect(server.received).toEqual([]);
  });

  it('rejects with a DeliveryError when nothing listens on the port', async () => {
    const server = await startSmtpServer();
    const port = server.port;
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(resolve))));
    const transport = transportFor(`smtp://dial:secret-pass@127.0.0.1:${port}`);

    const error = await transport.send(email).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).message).toMatch(/ECONNREFUSED|ECONNECTION/);
    expect((error as DeliveryError).message).not.toContain('secret-pass');
  });

  it('refuses an SMS message without connecting', async () => {
    const server = await startSmtpServer();
    const transport = transportFor(`smtp://127.0.0.1:${server.port}`);

    const error = await transport
      .send({ ...email, channel: 'sms', to: '+447700900123' })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).message).toBe('The SMTP transport sends e-mail only, not sms messages');
    expect(server.received).toEqual([]);
  });

  it.each([
    'ada@example.test, eve@evil.test',
    'Ada <ada@example.test>',
    'ada@example.test\r\nBcc: eve@evil.test',
    'not-an-address',
  ])('refuses the recipient %j, which is not one bare address', async (to) => {
    const server = await startSmtpServer();
    const transport = transportFor(`smtp://127.0.0.1:${server.port}`);

    const error = await transport.send({ ...email, to }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).message).toBe('The recipient is not a single plain e-mail address');
    expect(server.received).toEqual([]);
  });

  it.each([
    ['not a url', 'SMTP_URL is not a valid URL'],
    ['https://mail.example.test', 'SMTP_URL must start with smtp:// or smtps://'],
  ])('throws a TypeError for the SMTP_URL %j', (url, expected) => {
    expect(() => createSmtpTransport({ url, from: 'no-reply@dial.test' })).toThrow(TypeError);
    expect(() => createSmtpTransport({ url, from: 'no-reply@dial.test' })).toThrow(expected);
  });
});
