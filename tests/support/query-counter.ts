import { type CompiledQuery, DefaultQueryExecutor } from 'kysely';
import { vi } from 'vitest';

/**
 * Records every statement Kysely sends while `work` runs (all executors, transactions included: they all inherit
 * `executeQuery`), so a test can count the queries of one request or read the SQL a list sent.
 */
export async function recordQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: CompiledQuery[] }> {
  const queries: CompiledQuery[] = [];
  const original = DefaultQueryExecutor.prototype.executeQuery;
  const spy = vi.spyOn(DefaultQueryExecutor.prototype, 'executeQuery').mockImplementation(function (
    this: DefaultQueryExecutor,
    compiled: CompiledQuery,
    ...rest: any[]
  ) {
    queries.push(compiled);
    return (original as any).call(this, compiled, ...rest);
  });
  try {
    return { result: await work(), queries };
  } finally {
    spy.mockRestore();
  }
}
