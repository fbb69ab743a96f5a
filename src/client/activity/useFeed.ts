import { useEffect, useState } from 'react';
import type { Query } from '../http/query';
import { useApi } from '../insights/useInsights';
import { useAppDataProvider } from '../records/hooks';
import type { FeedAnswer, FeedEntry } from './feed';

/**
 * The feed for a query: its first page (live, through the insights cache) and the older pages a person asked for
 * with the feed's cursor. New filters start again from the newest.
 */
export function useFeed(query: Query, perPage = 30) {
  const dataProvider = useAppDataProvider();
  const first = useApi<FeedAnswer>('actions', { ...query, per_page: perPage });
  const [older, setOlder] = useState<FeedEntry[]>([]);
  const [cursor, setCursor] = useState<number | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const filterKey = JSON.stringify(query);
  useEffect(() => {
    setOlder([]);
    setCursor(null);
  }, [filterKey]);

  const page = first.data;
  const entries = [...(page?.data ?? []), ...older.filter((e) => !page?.data.some((p) => p.id === e.id))];
  const nextCursor = cursor ?? page?.meta.next_before ?? null;
  const hasMore = older.length ? cursor !== null : Boolean(page?.meta.has_more);

  const showOlder = async () => {
    if (!nextCursor) return;
    setLoadingOlder(true);
    try {
      const answer = await dataProvider.insight<FeedAnswer>('actions', {
        ...query,
        per_page: perPage,
        before: nextCursor,
      });
      setOlder((list) => [...list, ...answer.data]);
      setCursor(answer.meta.has_more ? answer.meta.next_before : null);
    } finally {
      setLoadingOlder(false);
    }
  };
  return { loaded: Boolean(page), error: first.error, entries, hasMore, showOlder, loadingOlder };
}
