import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { ensureCustomFieldIndex } from '../../src/server/schemas/indexes.js';
import { startInProcessApp } from './lib/in-process-app.js';
import { percentile } from './lib/percentile.js';
import { type BenchRow, row } from './types.js';

const AREA = 'formulas';
const RECORDS = Number(process.env.BENCH_FORMULA_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

export async function benchFormulas(): Promise<BenchRow[]> {
  const { ctx, close } = await startInProcessApp('om-bench-formulas-');
  const rows: BenchRow[] = [];
  try {
    const adminId = Number(
      (await ctx.db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow())
        .id,
    );
    const admin = (await loadAuthUser(ctx.db, adminId))!;
    const schemas = ctx.resources.get('schemas')!;
    const fields = ctx.resources.get('schema-fields')!;
    const project = (await ctx.records.create(admin, schemas, {
      name_singular: 'Bench project',
      name_plural: 'Bench projects',
      fields: [
        { name: 'Estimated value', type: 'number' },
        { name: 'Start date', type: 'date' },
      ],
    })) as unknown as { record: { id: number; type: string; resource: string } };
    const chore = (await ctx.records.create(admin, schemas, {
      name_singular: 'Bench chore',
      name_plural: 'Bench chores',
      fields: [{ name: 'Project', type: 'relation', options: { target: project.record.type } }],
    })) as unknown as { record: { id: number; type: string } };
    const projectId = project.record.id;
    const choreId = chore.record.id;
    await sql`insert into custom_records (schema_id, name, custom)
        select ${projectId}, 'Project ' || g, jsonb_build_object('estimated_value', (g * 37) % 100000,
          'start_date', to_char(date '2024-01-01' + (g % 700), 'YYYY-MM-DD'))
        from generate_series(1, ${RECORDS}) g`.execute(ctx.db);
    const first = Number(
      (
        await sql<{ id: number }>`select min(id) as id from custom_records where schema_id = ${projectId}`.execute(
          ctx.db,
        )
      ).rows[0].id,
    );
    await sql`insert into custom_records (schema_id, name, custom)
        select ${choreId}, 'Chore ' || g, jsonb_build_object('project', ${first} + (g * 7919) % ${RECORDS})
        from generate_series(1, ${RECORDS}) g`.execute(ctx.db);
    for (const [name, type, options] of [
      ['Markup', 'formula', { expression: 'ROUND({Estimated value} * 1.1, 0)' }],
      ['Days', 'formula', { expression: 'DAYS({Start date}, DATE(2024, 1, 1))' }],
      ['Chores', 'rollup', { from: `${chore.record.type}.project`, function: 'count' }],
    ] as const)
      await ctx.records.create(admin, fields, { schema_id: projectId, name, type, options });
    // The indexes the saved fields get after their commit (schema-fields afterCommit), made here at once.
    for (const field of await ctx.db
      .selectFrom('schema_fields')
      .selectAll()
      .where('schema_id', 'in', [projectId, choreId])
      .execute())
      await ensureCustomFieldIndex(
        ctx.db,
        {
          id: Number(field.schema_id),
          type: field.schema_id === projectId ? project.record.type : chore.record.type,
        },
        field as never,
      );
    await sql`analyze custom_records`.execute(ctx.db);
    const def = ctx.resources.get(project.record.resource)!;
    // The administrator again: their permissions now name the new types.
    const reader = (await loadAuthUser(ctx.db, adminId))!;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['sorted by the indexed number (baseline)', { sort: 'estimated_value', order: 'desc' }],
      ['sorted by ROUND(value * 1.1)', { sort: 'markup', order: 'desc' }],
      ['filtered markup >= 50,000, sorted by it', { sort: 'markup', order: 'desc', 'filter[markup_gte]': 50_000 }],
      ['sorted by the date difference', { sort: 'days', order: 'asc' }],
      ['filtered days <= 30', { 'filter[days_lte]': 30 }],
      ['sorted by the rollup (chore count)', { sort: 'chores', order: 'desc' }],
      ['filtered chores >= 3', { 'filter[chores_gte]': 3 }],
    ];
    for (const [label, query] of cases) {
      await ctx.records.list(reader, def, { ...query, per_page: 25, total: 'estimate' });
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        await ctx.records.list(reader, def, { ...query, per_page: 25, total: 'estimate' });
        times.push(performance.now() - started);
      }
      const figure = percentile(times, 0.95);
      console.error(`[bench] formulas: ${label}: p95 ${figure.toFixed(0)} ms; load ${load()}`);
      rows.push(row(AREA, `${RECORDS.toLocaleString('en')} records, ${label}, p95 (load ${load()})`, figure, 'ms'));
    }
    const baseline = rows[0].value ?? 1;
    for (const figure of rows.slice(1))
      rows.push(
        row(AREA, `${figure.metric.replace(/, p95.*$/, '')} / baseline`, (figure.value ?? 0) / baseline, 'x', {
          atMost: 1.5,
        }),
      );
  } finally {
    await close();
  }
  return rows;
}
