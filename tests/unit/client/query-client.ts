import { QueryClient } from '@tanstack/react-query';
import { queryDefaults } from '../../../src/client/app/services';

/**
 * The query client a component test gives react-admin's AdminContext: a new one per render, with the app's own
 * defaults (no retries among them). With react-admin's default client a query the fake data provider cannot answer
 * was retried three times, 1 + 2 + 4 s apart, and held the screen in its loading state for 7 s.
 */
export const testQueryClient = () => new QueryClient({ defaultOptions: queryDefaults });
