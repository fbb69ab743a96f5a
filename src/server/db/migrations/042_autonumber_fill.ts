import { type Kysely, sql } from 'kysely';

/**
 * The trigger function of autonumber fields (schemas/autonumbers.ts): each such field has its own sequence and its
 * own trigger calling this one, made with the field, so every write path (forms, the grid, imports, SQL of the
 * server's own) gets the next number, and a number once given stays with its record and is never given again.
 * Arguments: the field's key in `custom`, its sequence, its prefix and its padding (digits at least).
 * A record that holds a number keeps it whatever an update sends; a new record always gets the next one.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create or replace function autonumber_fill() returns trigger language plpgsql as $fn$
    declare
      field_key text := tg_argv[0];
      width integer := tg_argv[3]::integer;
      next_number bigint;
    begin
      if tg_op = 'UPDATE' and old.custom ->> field_key is not null then
        new.custom := jsonb_set(coalesce(new.custom, '{}'::jsonb), array[field_key], old.custom -> field_key);
        return new;
      end if;
      if tg_op = 'UPDATE' and new.custom ->> field_key is not null then
        return new;
      end if;
      next_number := nextval(tg_argv[1]::regclass);
      new.custom := coalesce(new.custom, '{}'::jsonb)
        || jsonb_build_object(field_key, tg_argv[2] || lpad(next_number::text, greatest(width, length(next_number::text)), '0'));
      return new;
    end
  $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop function if exists autonumber_fill() cascade`.execute(db);
}
