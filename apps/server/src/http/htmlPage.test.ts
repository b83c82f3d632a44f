import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlPage } from './htmlPage.js';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('htmlPage', () => {
  it('wraps the body in a whole page with an escaped title and the extra head elements', () => {
    const html = htmlPage({ title: 'A & B', head: ['<meta name="x">'], body: ['<h1>Hi</h1>'] });
    expect(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')).toBe(true);
    expect(html).toContain(
      '<meta name="robots" content="noindex">\n<meta name="x">\n<title>A &amp; B</title>',
    );
    expect(html).toContain('<main>\n<h1>Hi</h1>\n</main>');
    expect(html).not.toContain('<script');
  });
});
