/**
 * Every route loads on demand (SPEC section 2): `lazyPage` wraps a dynamic import in React.lazy with the
 * 120 s chunk timeout, a spinner while it loads, and the chunk-failure message with Retry.
 */
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useState } from 'react';
import { LoadingScreen } from '../layout/LoadingScreen';
import { ChunkErrorBoundary } from './ChunkErrorBoundary';
import { importWithTimeout, toChunkError } from './chunks';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * Chromium remembers a module that failed to load and answers every later import of the same address with the
 * same failure, so a retry asks for the chunk at a fresh address (`?retry=n`); its own imports are shared as before.
 */
function reimport<P>(error: unknown, attempt: number): Promise<{ default: ComponentType<P> }> {
  const { address } = toChunkError(error, '');
  if (!/^https?:\/\//.test(address)) return Promise.reject(error);
  const url = new URL(address);
  url.searchParams.set('retry', String(attempt));
  return import(/* @vite-ignore */ url.href);
}

/** A page that loads on demand; `preload` starts its chunk early, and a page whose chunk is in renders without suspending. */
export type LazyPage<P> = ComponentType<P> & { preload(): Promise<unknown> };

export function lazyPage<P extends object = object>(
  name: string,
  loader: Loader<P>,
  options: { fullHeight?: boolean } = {},
): LazyPage<P> {
  let attempts = 0;
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const load = () => {
    if (attempts === 0 && loading) return loading;
    const promise = importWithTimeout(
      attempts === 0 ? loader : () => loader().catch((error) => reimport<P>(error, attempts)),
      name,
    );
    loading = promise;
    void promise.then(
      (module) => {
        loaded = module.default;
      },
      () => undefined,
    );
    return promise;
  };
  let current: LazyExoticComponent<ComponentType<P>> = lazy(load);

  function LazyPage(props: P) {
    const [attempt, setAttempt] = useState(attempts);
    // Chosen once per mounted page, so it never switches between the two (which would mount it again).
    const [ready] = useState(() => loaded);
    const retry = () => {
      attempts += 1;
      current = lazy(load);
      setAttempt(attempts);
    };
    const Page = ready ?? current;
    return (
      <ChunkErrorBoundary key={attempt} onRetry={retry}>
        <Suspense fallback={<LoadingScreen fullHeight={options.fullHeight ?? false} />}>
          <Page {...(props as any)} />
        </Suspense>
      </ChunkErrorBoundary>
    );
  }
  LazyPage.displayName = `LazyPage(${name})`;
  LazyPage.preload = () => load().catch(() => undefined);
  return LazyPage;
}
