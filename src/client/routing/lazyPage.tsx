/**
 * Every route loads on demand (SPEC section 2): `lazyPage` wraps a dynamic import in React.lazy with the
 * 120 s chunk timeout, a spinner while it loads, and the chunk-failure message with Retry.
 */
import { Suspense, lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { ChunkErrorBoundary } from './ChunkErrorBoundary';
import { importWithTimeout } from './chunks';
import { LoadingScreen } from '../layout/LoadingScreen';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

export function lazyPage<P extends object = object>(name: string, loader: Loader<P>, options: { fullHeight?: boolean } = {}): ComponentType<P> {
  const load = () => importWithTimeout(loader, name);
  let current: LazyExoticComponent<ComponentType<P>> = lazy(load);
  let attempts = 0;

  function LazyPage(props: P) {
    const [attempt, setAttempt] = useState(attempts);
    const retry = () => {
      attempts += 1;
      current = lazy(load);
      setAttempt(attempts);
    };
    const Page = current;
    return (
      <ChunkErrorBoundary key={attempt} onRetry={retry}>
        <Suspense fallback={<LoadingScreen fullHeight={options.fullHeight ?? false} />}>
          <Page {...(props as any)} />
        </Suspense>
      </ChunkErrorBoundary>
    );
  }
  LazyPage.displayName = `LazyPage(${name})`;
  return LazyPage;
}
