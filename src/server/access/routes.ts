import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PARENT_LINKS, PRIVATE_TYPES, type TypeOutlook } from '../../common/access-rules.js';
import type { FeaturePlugin } from '../app-context.js';
import { loadAuthUser } from '../auth/load-user.js';
import { answer, noQuery } from '../http/contracts.js';
import { forbidden, notFound } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { schemaStore } from '../schemas/schema-store.js';
import { assertMayGrant, assertMayManageAccount } from '../users/account-rules.js';
import { seeAs } from './outlook.js';
import { checkRolePolicy } from './policy-shape.js';
import { personFields, teamFields } from './reach.js';

const seeAsBody = z
  .object({
    user_id: z.coerce.number().int().min(1).max(2_147_483_647),
    /** A role not saved yet: its permissions and policy (both, or neither for the person's role as it is). */
    permissions: z.array(z.string().max(100)).max(2_000).optional(),
    policy: z.unknown().optional(),
  })
  .strict();

/** A record type as the role screen offers it: its fields and what its rules can reach. */
const accessType = z.object({
  type: z.string(),
  resource: z.string(),
  singular: z.string(),
  plural: z.string(),
  entity: z.string(),
  category_field: z.string().nullable(),
  fields: z.array(z.object({ slug: z.string(), name: z.string(), kind: z.string(), options: z.unknown().optional() })),
  reach: z.object({ own: z.boolean(), team: z.boolean(), turf: z.boolean(), parent: z.boolean() }),
});

/** What the person would see of one record type (access/outlook.ts). */
const typeOutlook = z.object({
  type: z.string(),
  resource: z.string(),
  plural: z.string(),
  count: z.number().int(),
  estimated: z.boolean(),
  sample: z.array(z.object({ id: z.number().int(), label: z.string() })),
}) satisfies z.ZodType<TypeOutlook>;

/**
 * The access policy's routes for the role screen (docs/api.md "Access"):
 * - GET /api/access/types: each record type a rule may name, with its fields and what its rules can reach (own, team,
 *   turf, parent), so the screen offers only rules that mean something for the type;
 * - POST /api/access/see-as {user_id, permissions?, policy?}: what that person would see of each type, with their role
 *   as it is or as it is being edited (counts, and a few records by name among those the asker may read too).
 */
export const accessRoutes: FeaturePlugin = async (fastify, { ctx }) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const records: RecordService = ctx.records;
  /** The record types of the role screen: those with a schema, and the work on records. */
  const recordTypes = async () => {
    const snapshot = await schemaStore(ctx.db).snapshot();
    return ctx.resources
      .all()
      .filter(
        (def) =>
          !(PRIVATE_TYPES as readonly string[]).includes(def.type) &&
          (snapshot.byType.has(def.type) || PARENT_LINKS[def.type]),
      );
  };

  app.get(
    '/api/access/types',
    {
      schema: { querystring: noQuery, response: { 200: answer(z.array(accessType)) } },
      config: { permission: { resource: 'roles', action: 'read' } },
    },
    async (request) => {
      records.authorize(request.user, ctx.resources.get('roles')!, 'read');
      const data = [];
      for (const def of await recordTypes()) data.push(await describeType(def));
      return { data };
    },
  );

  const describeType = async (def: ResourceDefinition) => {
    const names = await ctx.records.access.namesOf(def);
    const fields = await ctx.records.fields(def);
    const turf = await ctx.records.access.inRegions(def, []);
    return {
      type: def.type,
      resource: def.name,
      singular: names.singular,
      plural: names.plural,
      entity: def.permission ?? def.type,
      category_field: def.categoryColumn ?? null,
      fields: Object.entries(fields)
        .filter(([name, spec]) => spec.storage !== 'virtual' && !(def.hidden ?? []).includes(name))
        .map(([slug, spec]) => ({
          slug,
          name: spec.name ?? names.field(slug),
          kind: spec.kind,
          options: spec.options,
        })),
      reach: {
        own: personFields(fields).length > 0 || !PARENT_LINKS[def.type],
        team: teamFields(fields).length > 0 || personFields(fields).length > 0,
        turf: turf !== false,
        parent: Boolean(PARENT_LINKS[def.type]),
      },
    };
  };

  app.post(
    '/api/access/see-as',
    {
      schema: { body: seeAsBody, response: { 200: answer(z.array(typeOutlook)) } },
      config: { permission: { resource: 'roles', action: 'update' } },
    },
    async (request) => {
      const asker = request.user!;
      records.authorize(asker, ctx.resources.get('roles')!, 'update');
      const body = request.body;
      const person = await loadAuthUser(ctx.db, body.user_id);
      if (!person) throw notFound(`No user has the id ${body.user_id}.`);
      await assertMayManageAccount(ctx.db, asker, person, 'see as');
      let grant: { permissions: string[]; policy: Awaited<ReturnType<typeof checkRolePolicy>> } | undefined;
      if (body.permissions || body.policy !== undefined) {
        if (!body.permissions) throw forbidden('Send the permissions of the role with its policy.');
        grant = { permissions: body.permissions, policy: await checkRolePolicy(ctx.db, body.policy ?? {}) };
        assertMayGrant(asker, grant, 'see as');
      }
      return { data: await seeAs(ctx.records, await recordTypes(), asker, person, grant) };
    },
  );
};
