import { type Kysely, sql } from 'kysely';

/**
 * The key a site list sorts names by, `lower(name)` (list-query.ts sortExpression), kept on the row
 * (`sites.name_key`) by a trigger, so a list that puts its matches in order in one pass (readPage: a turf's list, a
 * search) reads it instead of computing `lower(name)` for each match: on the embedded database that was a third of a
 * turf list's time (docs/benchmarks.md "Turf"). The walk of the name index (`lower(name)`) is unchanged.
 *
 * A trigger rather than a generated column: whatever writes a row back whole (a restored revision, a sync) may send
 * the column, and the trigger overwrites it; it runs only when `name` (or the key) is written, not when placing
 * sites in regions rewrites their rows. Not a field of the site (hidden from records, sites-resource.ts).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table sites add column name_key text;
    update sites set name_key = lower((name)::text);

    create function site_name_key() returns trigger language plpgsql as $fn$
    begin
      new.name_key := lower((new.name)::text);
      return new;
    end
    $fn$;
    create trigger site_name_key before insert or update of name, name_key on sites for each row execute function site_name_key();
  `.execute(db);
}
