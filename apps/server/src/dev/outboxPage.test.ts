import { describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../delivery/outboxTransport.js';
import { renderOutboxPage } from './outboxPage.js';

const older: OutboxRecord = {
  id: 'msg-1',
  createdAt: '2025-01-01T12:00:00.000Z',
  channel: 'sms',
  to: '+447700900123',
  subject: 'Your Dial code',
  text: 'Your Dial code is 111111.',
  code: '111111',
};

const newer: OutboxRecord = {
  id: 'msg-2',
  createdAt: '2025-01-01T12:05:00.000Z',
  channel: 'email',
  to: 'ada@example.test',
  subject: 'Your Dial sign-in code: 222222',
  text: 'Your Dial sign-in code is 222222.\n\nIgnore this if it was not you.',
  code: '222222',
};

/** The rows of the table body, one string per `<tr>`. */
function rowsOf(html: string): string[] {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)]
    .map((match) => match[1] ?? '')
    .filter((row) => row.includes('<td>'));
}

describe('renderOutboxPage', () => {
  it('is a titled page with no scripts and no inline styles', () => {
    const html = renderOutboxPage([older, newer]);

    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<title>Dial dev outbox</title>');
    expect(html).toContain('<h1>Dial dev outbox</h1>');
    expect(html).not.toMatch(/<script|<style|style=|\son[a-z]+=/i);
  });

  it('lists time, channel, recipient, subject, code and text, newest first', () => {
    const rows = rowsOf(renderOutboxPage([older, newer]));

    expect(rows).toEqual([
      '<td><time datetime="2025-01-01T12:05:00.000Z">2025-01-01T12:05:00.000Z</time></td>' +
        '<td>E-mail</td><td>ada@example.test</td><td>Your Dial sign-in code: 222222</td>' +
        '<td><code>222222</code></td><td>Your Dial sign-in code is 222222.<br><br>Ignore this if it was not you.</td>',
      '<td><time datetime="2025-01-01T12:00:00.000Z">2025-01-01T12:00:00.000Z</time></td>' +
        '<td>SMS</td><td>+447700900123</td><td>Your Dial code</td>' +
        '<td><code>111111</code></td><td>Your Dial code is 111111.</td>',
    ]);
  });

  it('labels the columns with header cells', () => {
    const html = renderOutboxPage([older]);

    expect([...html.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((match) => match[1])).toEqual([
      'Time',
      'Channel',
      'To',
      'Subject',
      'Code',
      'Text',
    ]);
    expect(html).toContain('<caption>1 message, newest first</caption>');
  });

  it('escapes HTML in every field', () => {
    const hostile: OutboxRecord = {
      id: 'msg-3',
      createdAt: '2025-01-01T12:00:00.000Z"><script>alert(0)</script>',
      channel: 'email',
      to: '"eve"@evil.test<img src=x onerror=alert(1)>',
      subject: '<b>Subject</b> & more',
      text: "<script>alert('text')</script>",
      code: '<i>1</i>',
    };

    const html = renderOutboxPage([hostile]);

    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<i>');
    expect(html).toContain('&lt;script&gt;alert(&#39;text&#39;)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;Subject&lt;/b&gt; &amp; more');
    expect(html).toContain('&quot;eve&quot;@evil.test&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<code>&lt;i&gt;1&lt;/i&gt;</code>');
    expect(html).toContain('<time datetime="2025-01-01T12:00:00.000Z&quot;&gt;&lt;script&gt;');
  });

  it('shows a dash for a message without a code', () => {
    const { code: _code, ...withoutCode } = older;

    expect(rowsOf(renderOutboxPage([withoutCode]))[0]).toContain('<td>—</td>');
  });

  it('says "No messages yet." and shows no table when the outbox is empty', () => {
    const html = renderOutboxPage([]);

    expect(html).toContain('<p>No messages yet.</p>');
    expect(html).not.toContain('<table>');
    expect(html).toContain('<title>Dial dev outbox</title>');
  });
});
