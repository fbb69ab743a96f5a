import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.generated.js';

const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * The transaction as the record type's beforeWrite hooks see it during a batch: SELECT queries built with the
 * query builder are answered once per batch for the same SQL and parameters (a hook checking the site type reads
 * the same list for every row). Safe because nothing is written between the first and last row's hooks; every
 * other call (inserts, updates, raw SQL) goes straight to the transaction.
 */
export function readCachingTransaction(trx: Transaction<DB>): Transaction<DB> {
  const cache = new Map<string, Promise<unknown>>();
  const EXECUTES = new Set(['execute', 'executeTakeFirst', 'executeTakeFirstOrThrow']);
  const wrap = (target: any): any =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function') return value;
        if (EXECUTES.has(property as string)) {
          return (...args: unknown[]) => {
            const compiled = object.compile();
            if (!/^\s*select\b/i.test(compiled.sql)) return value.apply(object, args);
            const key = `${String(property)}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
            if (!cache.has(key)) cache.set(key, value.apply(object, args));
            return cache.get(key);
          };
        }
        return (...args: unknown[]) => {
          const result = value.apply(object, args);
          return result &&
            typeof result === 'object' &&
            typeof result.compile === 'function' &&
            typeof result.execute === 'function'
            ? wrap(result)
            : result;
        };
      },
    });
  const proxy = new Proxy(trx, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (property === 'selectFrom' && typeof value === 'function')
        return (...args: unknown[]) => wrap(value.apply(object, args));
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  memos.set(proxy, new Map());
  return proxy;
}

/**
 * A read a hook makes for every row (the list of site types...): on a batch's read-caching transaction it runs once
 * per batch under `key`, without even building the query again; on any other connection it simply runs.
 */
export function cachedRead<T>(db: Kysely<DB>, key: string, load: () => Promise<T>): Promise<T> {
  const memo = memos.get(db);
  if (!memo) return load();
  if (!memo.has(key)) memo.set(key, load());
  return memo.get(key) as Promise<T>;
}
