import { QueryClient } from '@tanstack/react-query';

/**
 * The query client a component test gives react-admin's AdminContext: a query its fake data provider cannot answer
 * fails at once. With react-query's default (three retries, 1 + 2 + 4 s apart) each such query held the screen in its
 * loading state for 7 s, most of a component test's time.
 */
export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
