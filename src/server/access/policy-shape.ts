import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ConditionGroup, RolePolicy, RowRule } from '../../common/access-rules.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError, HttpError } from '../http/errors.js';
import { fieldsOfType } from '../schemas/type-fields.js';
import { CONDITION_OPERATORS, conditionSql } from './compile.js';

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'A record type is named by its slug, like "site".');
const field = z.string().regex(/^[a-z][a-z0-9_]*$/, 'A field is named by its slug, like "phone".');

const item = z
  .object({ field, op: z.enum(CONDITION_OPERATORS as [string, ...string[]]), value: z.unknown().optional() })
  .strict();
const group: z.ZodType<ConditionGroup> = z.lazy(() =>
  z.union([
    z
      .object({
        all: z
          .array(z.union([item, group]))
          .min(1)
          .max(20),
      })
      .strict(),
    z
      .object({
        any: z
          .array(z.union([item, group]))
          .min(1)
          .max(20),
      })
      .strict(),
  ]),
) as z.ZodType<ConditionGroup>;
const rule: z.ZodType<RowRule> = z.lazy(() =>
  z.union([
    z.enum(['all', 'none', 'own', 'team', 'turf', 'parent']),
    z.object({ condition: group }).strict(),
    z.object({ any: z.array(rule).min(1).max(10) }).strict(),
    z.object({ all: z.array(rule).min(1).max(10) }).strict(),
  ]),
) as z.ZodType<RowRule>;
const typePolicy = z
  .object({
    read: rule.optional(),
    update: rule.optional(),
    delete: rule.optional(),
    fields: z.record(field, z.enum(['hidden', 'read_only'])).optional(),
  })
  .strict();

/** The shape of `roles.policy`: rules by record type (common/access-rules.ts RolePolicy). */
export const rolePolicyShape = z.record(slug, typePolicy);

/**
 * Checks a role's policy before it is kept: its shape, that each type and field exists, and that each condition is
 * one the filter compiler takes (a field it may filter, an operator, a value of the field's kind). 422 naming the
 * type and field otherwise.
 */
export async function checkRolePolicy(db: Kysely<DB>, raw: unknown): Promise<RolePolicy> {
  const parsed = rolePolicyShape.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fieldError(`policy.${issue.path.join('.')}`.replace(/\.$/, ''), `The policy is not valid: ${issue.message}`);
  }
  const policy = parsed.data as RolePolicy;
  for (const [type, rules] of Object.entries(policy)) {
    const fields = await fieldsOfType(db, type);
    if (!fields) throw fieldError(`policy.${type}`, `There is no record type "${type}".`);
    for (const name of Object.keys(rules.fields ?? {}))
      if (!(name in fields)) throw fieldError(`policy.${type}.fields.${name}`, `The ${type} has no field "${name}".`);
    for (const action of ['read', 'update', 'delete'] as const) {
      const row = rules[action];
      if (!row) continue;
      for (const condition of conditionsOf(row)) {
        try {
          conditionSql(condition, fields);
        } catch (error) {
          const message = error instanceof HttpError ? error.message : (error as Error).message;
          throw fieldError(`policy.${type}.${action}`, `The condition cannot be used: ${message}`);
        }
      }
    }
  }
  return policy;
}

function conditionsOf(rule: RowRule): ConditionGroup[] {
  if (typeof rule === 'string') return [];
  if ('condition' in rule) return [rule.condition];
  return ('any' in rule ? rule.any : rule.all).flatMap(conditionsOf);
}
