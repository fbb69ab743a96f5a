/** On-demand loading of route chunks: a 120 s load timeout (SPEC section 9) and the chunk-failure message. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(
    readonly chunk: string,
    readonly type: 'error' | 'timeout',
    readonly address: string,
    cause?: unknown,
  ) {
    super(`Loading chunk ${chunk} failed. (${type}: ${address})`);
    this.name = 'ChunkLoadError';
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

const URL_PATTERN = /(https?:\/\/[^\s'"]+|\/[^\s'"]+\.m?js)/;

/** Describe any failure of a dynamic import as a ChunkLoadError (name, type and address). */
export function toChunkError(error: unknown, chunkName: string): ChunkLoadError {
  if (error instanceof ChunkLoadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const found = message.match(URL_PATTERN)?.[0];
  const address = found ?? 'unknown address';
  const file = found?.split('/').pop()?.replace(/\?.*$/, '') ?? '';
  const name = file ? file.replace(/\.m?js$/, '') : chunkName;
  return new ChunkLoadError(name || chunkName, 'error', address, error);
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError;
}

/** Run a dynamic import with a timeout; failures become ChunkLoadError. */
export function importWithTimeout<T>(
  loader: () => Promise<T>,
  chunkName: string,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(chunkName, 'timeout', chunkName)), timeoutMs);
    loader().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(toChunkError(error, chunkName));
      },
    );
  });
}
