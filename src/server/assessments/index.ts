import { z } from 'zod';
import type { Feature } from '../app-context.js';
import { fieldError } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { assessmentSummary } from './summary.js';

const query = z
  .object({
    campaign_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
    site_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  })
  .strip();

/**
 * A campaign's or site's people by assessment and the chart of their assessments over time
 * (`GET /api/assessments/summary?campaign_id=|site_id=`, docs/conversations.md "Assessments"). The campaign or site
 * must be one the person may read (404 otherwise), and only the people they may read are counted.
 */
export const assessmentsFeature: Feature = {
  plugin: async (app, { ctx }) => {
    app.get(
      '/api/assessments/summary',
      {
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
        const params = parseBody(query, request.query);
        if (Boolean(params.campaign_id) === Boolean(params.site_id))
          throw fieldError('campaign_id', 'Give a campaign_id or a site_id.');
        const [resource, id] = params.campaign_id ? ['campaigns', params.campaign_id] : ['sites', params.site_id!];
        await ctx.records.show(user, ctx.resources.get(resource)!, id);
        return {
          data: await assessmentSummary(
            ctx,
            user,
            params.campaign_id ? { campaign_id: params.campaign_id } : { site_id: params.site_id! },
          ),
        };
      },
    );
  },
};
