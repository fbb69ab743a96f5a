import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB } from '../../src/server/db/schema.generated.js';

export type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  /** How a node's parent uses it: `SubPlan` runs once per row of the parent, `InitPlan` once. */
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
};

/** Every node of the plan PostgreSQL chooses for `query` when it may avoid scanning tables whole. */
export async function planNodes(db: Kysely<DB>, query: CompiledQuery): Promise<PlanNode[]> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const raw = Object.values(result.rows[0])[0];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node);
      node.Plans?.forEach(walk);
    };
    walk(plan[0].Plan);
    return nodes;
  });
}
