import type { OutboxRecord } from '../delivery/outboxTransport.js';
import { escapeHtml, htmlPage } from '../http/htmlPage.js';

const CHANNEL_LABEL = { sms: 'SMS', email: 'E-mail' } as const;

/**
 * Renders the dev outbox as a self-contained HTML page: a plain semantic table, newest first, with no
 * scripts and no styles, so it passes a strict Content-Security-Policy as is.
 *
 * @param records - the stored messages; they are shown newest first whatever their order.
 */
export function renderOutboxPage(records: OutboxRecord[]): string {
  const newestFirst = [...records].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const body =
    newestFirst.length === 0
      ? '<p>No messages yet.</p>'
      : [
          '<table>',
          `<caption>${newestFirst.length === 1 ? '1 message' : `${newestFirst.length} messages`}, newest first</caption>`,
          '<thead><tr><th scope="col">Time</th><th scope="col">Channel</th><th scope="col">To</th>' +
            '<th scope="col">Subject</th><th scope="col">Code</th><th scope="col">Text</th></tr></thead>',
          '<tbody>',
          ...newestFirst.map(renderRow),
          '</tbody>',
          '</table>',
        ].join('\n');
  return htmlPage({
    title: 'Dial dev outbox',
    body: [
      '<h1>Dial dev outbox</h1>',
      '<p>Messages the development server would have sent by SMS or e-mail. Reload the page to see new ones.</p>',
      body,
    ],
  });
}

function renderRow(record: OutboxRecord): string {
  const code = record.code === undefined ? '—' : `<code>${escapeHtml(record.code)}</code>`;
  const text = record.text
    .split(/\r\n|\r|\n/)
    .map(escapeHtml)
    .join('<br>');
  return (
    '<tr>' +
    `<td><time datetime="${escapeHtml(record.createdAt)}">${escapeHtml(record.createdAt)}</time></td>` +
    `<td>${CHANNEL_LABEL[record.channel] ?? escapeHtml(String(record.channel))}</td>` +
    `<td>${escapeHtml(record.to)}</td>` +
    `<td>${escapeHtml(record.subject)}</td>` +
    `<td>${code}</td>` +
    `<td>${text}</td>` +
    '</tr>'
  );
}
