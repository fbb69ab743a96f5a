import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { RolePolicy } from '../../../src/common/access-rules.js';
import type { AppContext } from '../../../src/server/app-context.js';
import type { DB } from '../../../src/server/db/schema.generated.js';

export interface RoleSubject {
  slug: string;
  subject: { role_id: number; permissions: string[]; policy: RolePolicy };
}

/** The roles of the database as the policy sees them (their permission strings and own rules). */
export async function rolesOf(db: Kysely<DB>): Promise<RoleSubject[]> {
  const parsed = <T>(value: unknown, empty: T): T =>
    (typeof value === 'string' ? JSON.parse(value) : (value ?? empty)) as T;
  return (await db.selectFrom('roles').select(['id', 'slug', 'permissions', 'policy']).execute()).map((role) => ({
    slug: String(role.slug),
    subject: {
      role_id: Number(role.id),
      permissions: parsed<string[]>(role.permissions, []),
      policy: parsed<RolePolicy>(role.policy, {}),
    },
  }));
}

/**
 * Each role's policy compiled cold (the compiled policies forgotten first, as a change of the role or of a record type
 * does) over every record type, `rounds` times: per role, the wall time and the process's CPU (all its threads), and
 * per record type the wall time. The schema and field caches are warmed first: the figure is the policy's compile.
 */
export async function compileTimes(ctx: AppContext, roles: RoleSubject[], rounds: number) {
  const access = ctx.records.access;
  const defs = ctx.resources.all();
  for (const { subject } of roles) for (const def of defs) await access.of(subject, def);
  const perRoleWall: number[] = [];
  const perRoleCpu: number[] = [];
  const perType: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const { subject } of roles) {
      access.clear();
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (const def of defs) {
        const at = performance.now();
        await access.of(subject, def);
        perType.push(performance.now() - at);
      }
      perRoleWall.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      perRoleCpu.push((used.user + used.system) / 1000);
    }
  }
  return { types: defs.length, perRoleWall, perRoleCpu, perType };
}
