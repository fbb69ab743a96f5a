import { buildQueryString, type Query } from '../http/query';

/** How many lists' next pages are remembered; the oldest is forgotten first. */
const REMEMBERED = 200;

/**
 * The `meta.next_cursor` of the pages a list has read, for the page each leads to: asked with it, the server seeks
 * that page where the one before ended instead of reading past every row before it (docs/api.md "Lists"), so the
 * react-admin list's next page and the grid's scrolling cost at page 100 what they cost at page 1. A cursor is kept
 * for one list exactly (its path and every parameter but the page); the server checks it too, and reads a page by its
 * offset when a cursor is not for it.
 */
export function createPageCursors() {
  const cursors = new Map<string, string>();
  const keyOf = (path: string, query: Query, page: number) =>
    `${path}${buildQueryString({ ...query, page: undefined, cursor: undefined })}#${page}`;
  return {
    /** The query with the cursor of its page, when the page before it was read. */
    withCursor(path: string, query: Query): Query {
      const page = Number(query.page ?? 1);
      const cursor = page > 1 ? cursors.get(keyOf(path, query, page)) : undefined;
      return cursor ? { ...query, cursor } : query;
    },
    /** Remembers the cursor a page answered with, for the page after it. */
    remember(path: string, query: Query, nextCursor: unknown) {
      if (typeof nextCursor !== 'string' || !nextCursor) return;
      const key = keyOf(path, query, Number(query.page ?? 1) + 1);
      cursors.delete(key);
      cursors.set(key, nextCursor);
      if (cursors.size > REMEMBERED) cursors.delete(cursors.keys().next().value as string);
    },
  };
}
