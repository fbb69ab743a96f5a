import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

/** A figure's list: `GET /api/{resource}?filter=...` counts exactly the figure (docs/reports.md). */
export interface FigureLink {
  resource: string;
  filter: Record<string, unknown>;
}

/** The react-admin list URL of a figure's list (`/tasks?filter={...}`). */
export function listHref(link: FigureLink | null | undefined): string | null {
  if (!link) return null;
  return `/${link.resource}?${new URLSearchParams({ filter: JSON.stringify(link.filter) }).toString()}`;
}

/** A number that opens the list it counts. */
export function FigureLinkText({
  link,
  children,
  testId,
}: {
  link: FigureLink | null | undefined;
  children: ReactNode;
  testId?: string;
}) {
  const href = listHref(link);
  if (!href) return <span data-testid={testId}>{children}</span>;
  return (
    <Link component={RouterLink} to={href} underline="always" data-testid={testId}>
      {children}
    </Link>
  );
}
