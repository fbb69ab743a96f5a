import { type Kysely, sql } from 'kysely';
import { normaliseChoices } from '../../../common/schema-types.js';
import { choiceKey, isChoiceKey } from '../../../common/slugs.js';

/**
 * Choice keys are slugs however a choice was typed (docs/records.md "Changing a record type"): the new-type page once
 * stored a choice's label as its key ("Needs follow-up"). Each such key becomes the slug of itself
 * (`needs-follow-up`, made distinct with `-2`... where two collide), in the field's options, in the records holding
 * it, in the logic comparing with it or setting it, and in the importers' defaults. And an archived value can be
 * restored: who restored it, when.
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table field_value_archive add column if not exists restored_at timestamptz,
    add column if not exists restored_by integer`.execute(db);
  const { rows: fields } = await sql<{
    id: number;
    slug: string;
    options: Record<string, unknown>;
    column: boolean;
    schema_id: number;
    schema_type: string;
    built_in: boolean;
    resource: string;
  }>`select f.id, f.slug, f.options, f.column, s.id as schema_id, s.type as schema_type, s.built_in, s.resource
    from schema_fields f join schemas s on s.id = f.schema_id
    where f.type in ('dropdown', 'radios') and f.options ? 'choices'`.execute(db);
  for (const field of fields) {
    const choices = normaliseChoices(field.options?.choices);
    if (choices.every((choice) => isChoiceKey(choice.value))) continue;
    const taken = new Set(choices.filter((choice) => isChoiceKey(choice.value)).map((choice) => choice.value));
    const renamed = new Map<string, string>();
    for (const choice of choices) {
      if (isChoiceKey(choice.value)) continue;
      const base = choiceKey(choice.value) || 'choice';
      let key = base;
      for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
      taken.add(key);
      renamed.set(choice.value, key);
    }
    const options = {
      ...field.options,
      choices: choices.map((choice) => ({ value: renamed.get(choice.value) ?? choice.value, label: choice.label })),
    };
    await sql`update schema_fields set options = ${JSON.stringify(options)}::jsonb, updated_at = now() where id = ${field.id}`.execute(
      db,
    );
    const mapped = (value: ReturnType<typeof sql>) =>
      sql`case ${value} ${sql.join(
        [...renamed].map(([from, to]) => sql`when ${from} then ${to}`),
        sql` `,
      )} else ${value} end`;
    const table = sql.table(field.built_in ? field.resource.replace(/-/g, '_') : 'custom_records');
    const ofType = field.built_in ? sql`true` : sql`schema_id = ${field.schema_id}`;
    if (field.column) {
      await sql`update ${table} set ${sql.ref(field.slug)} = ${mapped(sql.ref(field.slug))} where ${ofType}`.execute(
        db,
      );
    } else {
      const key = sql.lit(field.slug);
      await sql`update ${table} set custom = jsonb_set(custom, array[${key}], case jsonb_typeof(custom -> ${key})
          when 'array' then coalesce((select jsonb_agg(${mapped(sql`e`)}) from jsonb_array_elements_text(custom -> ${key}) e), '[]'::jsonb)
          else to_jsonb(${mapped(sql`(custom ->> ${key})`)}) end)
        where ${ofType} and custom ? ${key} and jsonb_typeof(custom -> ${key}) in ('string', 'array')`.execute(db);
    }
    const ref = `field:${field.id}`;
    for (const [from, to] of renamed) {
      await sql`update logic_conditions set value = ${to} where source = ${ref} and value = ${from}`.execute(db);
      await sql`update logic_actions set value = ${JSON.stringify(to)}::jsonb
        where target = ${ref} and action = 'set-value' and value = ${JSON.stringify(from)}::jsonb`.execute(db);
      await sql`update importers set defaults = jsonb_set(defaults, array[${field.slug}], ${JSON.stringify(to)}::jsonb)
        where record_type = ${field.schema_type} and defaults ->> ${field.slug} = ${from}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>) {
  await sql`alter table field_value_archive drop column if exists restored_at, drop column if exists restored_by`.execute(
    db,
  );
}
