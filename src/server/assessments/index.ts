import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Feature } from '../app-context.js';
import { fieldError } from '../http/errors.js';
import { type AssessedPerson, type AssessmentSummary, assessmentSummary } from './summary.js';

const id = z.coerce.number().int().min(1).max(2_147_483_647);
const query = z.object({
  campaign_id: id.optional().describe("The campaign's people (or site_id)."),
  site_id: id.optional().describe("The site's people (or campaign_id)."),
});

const assessedPerson = z.object({
  type: z.enum(['contact', 'recruit', 'member']),
  id: z.number(),
  name: z.string(),
  assessment: z.string().nullable(),
  is_leader: z.boolean(),
  on_committee: z.boolean(),
}) satisfies z.ZodType<AssessedPerson>;

const summary = z
  .object({
    total: z.number(),
    leaders: z.number(),
    committee: z.number(),
    levels: z.array(
      z.object({
        slug: z.string().nullable(),
        name: z.string(),
        color: z.string().nullable(),
        count: z.number(),
        people: z.array(assessedPerson),
      }),
    ),
    over_time: z.array(z.object({ day: z.string(), counts: z.record(z.string(), z.number()) })),
  })
  .meta({ id: 'AssessmentSummary' }) satisfies z.ZodType<AssessmentSummary>;

/**
 * A campaign's or site's people by assessment and the chart of their assessments over time
 * (`GET /api/assessments/summary?campaign_id=|site_id=`, docs/conversations.md "Assessments"). The campaign or site
 * must be one the person may read (404 otherwise), and only the people they may read are counted.
 */
export const assessmentsFeature: Feature = {
  plugin: async (fastify, { ctx }) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/assessments/summary',
      {
        schema: { querystring: query, response: { 200: z.object({ data: summary }) } },
        config: {
          permission: {
            anyOf: [
              { resource: 'campaigns', action: 'read' },
              { resource: 'sites', action: 'read' },
            ],
          },
        },
      },
      async (request) => {
        const user = request.user!;
        const { campaign_id, site_id } = request.query;
        if (Boolean(campaign_id) === Boolean(site_id))
          throw fieldError('campaign_id', 'Give a campaign_id or a site_id.');
        const scope = campaign_id ? { campaign_id } : { site_id: site_id! };
        await ctx.records.show(user, ctx.resources.get(campaign_id ? 'campaigns' : 'sites')!, campaign_id ?? site_id!);
        return { data: await assessmentSummary(ctx, user, scope) };
      },
    );
  },
};
