const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

export interface HtmlPageOptions {
  /** Plain text; escaped here. */
  title: string;
  /** Extra `<head>` elements, as trusted HTML (after the robots meta, before the title). */
  head?: readonly string[];
  /** The `<main>` element's content, as trusted HTML (escape what came from outside). */
  body: readonly string[];
}

/**
 * A whole server-rendered page (the dev outbox, the sandbox checkout): UTF-8, mobile viewport, kept out of
 * search engines, no scripts, so it passes the server's strict Content-Security-Policy as is.
 */
export function htmlPage({ title, head = [], body }: HtmlPageOptions): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    ...head,
    `<title>${escapeHtml(title)}</title>`,
    '</head>',
    '<body>',
    '<main>',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
