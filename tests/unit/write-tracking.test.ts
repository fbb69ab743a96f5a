import { describe, expect, it } from 'vitest';
import { classifyStatement, writesAccounts, writtenTable } from '../../src/server/db/write-tracking.js';

describe('classifyStatement: what a finished statement may have changed', () => {
  it.each([
    ['select * from users where id = $1', undefined, 'none'],
    ['  SELECT count(*) from sites', undefined, 'none'],
    ['with g as (select 1) select * from g', undefined, 'none'],
    ['begin', undefined, 'none'],
    ['analyze "users"', undefined, 'none'],
    ['explain (format json) select 1 as "one" from "sites" as "t" where "t"."deleted_at" is null', undefined, 'none'],
    ['explain select * from sites', undefined, 'none'],
    ['explain (analyze, format json) delete from sites', undefined, 'data'],
    ['explain analyze update sites set name = null', undefined, 'data'],
    ['explain select 1; delete from sites', undefined, 'data'],
    ['update "users" set "first_name" = $1 where "id" = $2', 1n, 'data'],
    ['update "users" set "first_name" = $1 where "id" = $2', 0n, 'none'],
    ['delete from "sessions" where "id" = $1', 1n, 'bookkeeping'],
    ['insert into "sessions" ("id") values ($1)', 1n, 'bookkeeping'],
    ['update "idempotency_keys" set "response" = $1 where "key" = $2', 1n, 'bookkeeping'],
    ['insert into "revisions" ("id") values ($1)', 1n, 'data'],
    ['with old as (select 1) insert into app_settings (key) values ($1)', 1n, 'data'],
    ['create index if not exists x on users (id)', undefined, 'data'],
    ['select 1; update users set first_name = null', undefined, 'data'],
  ] as const)('%s (%s rows) → %s', (text, affected, kind) => {
    expect(classifyStatement(text, affected)).toBe(kind);
  });
});

describe('writtenTable and writesAccounts: whether a write may have changed a signed-in person or their turf (kept sessions and turfs are dropped)', () => {
  it.each([
    ['insert into "region_users" ("region_id", "user_id") values ($1, $2)', true],
    ['update "regions" set "team_id" = $1 where "id" = $2', true],
    ['insert into "site_regions" ("site_id", "region_id") values ($1, $2)', false],
    ['update "users" set "first_name" = $1 where "id" = $2', true],
    ['update "roles" set "permissions" = $1 where "id" = $2', true],
    ['delete from "sessions" where "id" = $1', true],
    ['insert into "team_user" ("team_id", "user_id") values ($1, $2)', true],
    ['delete from "teams" where "id" = $1', true],
    ['insert into "sites" ("name") values ($1) returning *', false],
    ['update "tasks" as "t" set "completed_at" = $1 where "t"."id" = $2', false],
    ['insert into revisions (revisionable_type) select x.type from json_to_recordset($1::json) as x(type text)', false],
    ['with old as (select 1) insert into app_settings (key) values ($1)', true],
    ['truncate sites', true],
    ['insert into sites (name) values (1); update users set first_name = null', true],
    ['create index if not exists x on sites (id)', true],
  ] as const)('%s → %s', (text, accounts) => {
    const table = writtenTable(text);
    expect(writesAccounts(table === null ? null : new Set([table]))).toBe(accounts);
  });
});
