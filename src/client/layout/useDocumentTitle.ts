import { useEffect } from 'react';
import { useConfig } from '../app/hooks';

/** "Page · Product" in the browser tab. */
export function useDocumentTitle(page?: string) {
  const { name } = useConfig();
  useEffect(() => {
    document.title = page ? `${page} · ${name}` : name;
  }, [page, name]);
}
