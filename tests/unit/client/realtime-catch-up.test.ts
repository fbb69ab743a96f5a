import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchWhatPredates } from '../../../src/client/realtime/catchUp';

/** Once every channel listens, what the screen fetched before may predate a change nobody heard: it is fetched again. */
describe('catching up when the channels listen', () => {
  it('fetches again the answers from before, and a request on its way once it has arrived, but not later answers', async () => {
    const client = new QueryClient();
    const calls: Record<string, number> = { old: 0, slow: 0, fresh: 0 };
    let releaseSlow: () => void = () => undefined;
    const fetcher = (name: string) => () => {
      calls[name] += 1;
      if (name === 'slow' && calls.slow === 1)
        return new Promise<string>((resolve) => (releaseSlow = () => resolve(name)));
      return Promise.resolve(name);
    };
    const watch = (name: string) =>
      new QueryObserver(client, { queryKey: [name], queryFn: fetcher(name), staleTime: Infinity }).subscribe(
        () => undefined,
      );
    const stops = [watch('old')];
    client.setQueryData(['auth', 'checkAuth', {}], true);
    const refused = new QueryObserver(client, {
      queryKey: ['refused'],
      queryFn: () => ((calls.refused = (calls.refused ?? 0) + 1), Promise.reject(new Error('403'))),
      retry: false,
    }).subscribe(() => undefined);
    stops.push(refused);
    await new Promise((resolve) => setTimeout(resolve, 5));
    stops.push(watch('slow'));
    const since = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    stops.push(watch('fresh'));
    await new Promise((resolve) => setTimeout(resolve, 5));

    refetchWhatPredates(client, since);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual({ old: 2, slow: 1, fresh: 1, refused: 1 });
    releaseSlow();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual({ old: 2, slow: 2, fresh: 1, refused: 1 });
    expect(client.getQueryData(['slow'])).toBe('slow');
    expect(client.getQueryState(['auth', 'checkAuth', {}])?.isInvalidated).toBe(false);
    stops.forEach((stop) => stop());
  });
});
