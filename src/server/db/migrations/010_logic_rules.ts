import { type Kysely, sql } from 'kysely';

/**
 * Form logic on the rule engine (src/common/rule-engine, docs/records.md "Form logic"):
 * - `logic_blocks.match`: how a block's conditions combine, `all` (every block so far) or `any`.
 * - `logic_conditions.operator` loses its list of allowed values: the operators are the rule engine's table
 *   (LOGIC_OPERATORS), checked by the API on every write, so a new operator needs no migration.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table logic_blocks add column if not exists match text not null default 'all' check (match in ('all', 'any'));
    alter table logic_conditions drop constraint if exists logic_conditions_operator_check;
  `.execute(db);
}
