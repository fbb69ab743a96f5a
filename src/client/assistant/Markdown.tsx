/**
 * Markdown, never as HTML: raw HTML in the text is dropped, images are not shown (an image would load an address from
 * outside the product). Links inside the product open the record here; other addresses are text in an assistant's
 * answer, and links opening a new tab (`https:`, `http:`, `mailto:` only) in what people wrote (`web` links: a rich
 * text field).
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { Link as RouterLink } from 'react-router-dom';

export const isInternal = (href: string | undefined): href is string => Boolean(href && /^\/(?!\/)/.test(href));

/** An answer's offered question (`/assistant?ask=...`: one reading of a question, one of several records): its words. */
export function askedBy(href: string | undefined): string | null {
  if (!href?.startsWith('/assistant?ask=')) return null;
  try {
    return new URLSearchParams(href.slice('/assistant?'.length)).get('ask');
  } catch {
    return null;
  }
}

const WEB_ADDRESS = /^(https?:|mailto:)/i;

export function Markdown({
  text,
  onNavigate,
  links = 'internal',
  onAsk,
}: {
  text: string;
  onNavigate?: () => void;
  links?: 'internal' | 'web';
  /** Offered questions become buttons that ask them (in a conversation); elsewhere they are links to the assistant. */
  onAsk?: (question: string) => void;
}) {
  const components: Components = {
    a: ({ href, children }: { href?: string; children?: ReactNode }) => {
      const asked = onAsk ? askedBy(href) : null;
      if (asked)
        return (
          <Button
            size="small"
            variant="outlined"
            onClick={() => onAsk?.(asked)}
            data-testid="assistant-offered-question"
            sx={{ textTransform: 'none', my: 0.25, textAlign: 'left' }}
          >
            {children}
          </Button>
        );
      return isInternal(href) ? (
        <Link component={RouterLink} to={href} onClick={onNavigate} data-testid="assistant-link">
          {children}
        </Link>
      ) : links === 'web' && href && WEB_ADDRESS.test(href) ? (
        <Link
          href={href}
          target="_blank"
          rel="noopener noreferrer nofollow"
          onClick={(event) => event.stopPropagation()}
        >
          {children}
        </Link>
      ) : (
        <span>
          {children}
          {href ? ` (${href})` : ''}
        </span>
      );
    },
  };
  return (
    <Box
      sx={{
        '& p': { my: 0.75 },
        '& ul, & ol': { my: 0.5, pl: 2.5 },
        '& blockquote': { m: 0, pl: 1.5, borderLeft: 3, borderColor: 'divider', color: 'text.secondary' },
        overflowWrap: 'anywhere',
      }}
    >
      <ReactMarkdown skipHtml disallowedElements={['img']} unwrapDisallowed components={components}>
        {text}
      </ReactMarkdown>
    </Box>
  );
}
