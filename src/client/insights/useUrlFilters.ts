/** Filters kept in the URL (so a report can be bookmarked, shared and reloaded as it was). */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

export function useUrlFilters<T extends Record<string, string>>(defaults: T) {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => {
    const current: Record<string, string> = { ...defaults };
    for (const [key, value] of params) current[key] = value;
    return current as T & Record<string, string>;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);
  const set = (changes: Record<string, string | null | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === undefined || value === '' || value === defaults[key]) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
  /** The filters to send: empty ones left out. */
  const query = useMemo(
    () =>
      Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== undefined)) as Record<
        string,
        string
      >,
    [values],
  );
  return { values, set, query };
}
