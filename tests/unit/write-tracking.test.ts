import { describe, expect, it } from 'vitest';
import { classifyStatement } from '../../src/server/db/write-tracking.js';

describe('classifyStatement: what a finished statement may have changed', () => {
  it.each([
    ['select * from users where id = $1', undefined, 'none'],
    ['  SELECT count(*) from sites', undefined, 'none'],
    ['with g as (select 1) select * from g', undefined, 'none'],
    ['begin', undefined, 'none'],
    ['analyze "users"', undefined, 'none'],
    ['update "users" set "first_name" = $1 where "id" = $2', 1n, 'data'],
    ['update "users" set "first_name" = $1 where "id" = $2', 0n, 'none'],
    ['delete from "sessions" where "id" = $1', 1n, 'bookkeeping'],
    ['insert into "sessions" ("id") values ($1)', 1n, 'bookkeeping'],
    ['insert into "revisions" ("id") values ($1)', 1n, 'data'],
    ['with old as (select 1) insert into app_settings (key) values ($1)', 1n, 'data'],
    ['create index if not exists x on users (id)', undefined, 'data'],
    ['select 1; update users set first_name = null', undefined, 'data'],
  ] as const)('%s (%s rows) → %s', (text, affected, kind) => {
    expect(classifyStatement(text, affected)).toBe(kind);
  });
});
