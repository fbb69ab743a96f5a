import { z } from 'zod';
import { buildProposal, type ProposalInput } from '../proposals.js';
import { PROPOSAL_KINDS } from '../resources.js';
import { guarded, type Tool } from './scope.js';

const recordArg = z.object({ type: z.string().max(60), id: z.coerce.number().int().positive() });

export const proposeChange: Tool<ProposalInput> = {
  name: 'propose_change',
  description:
    'Propose a change for the person to approve: create a task, log a note, change a field or assign a record. Nothing is written until the person clicks Approve; say so in your answer. Propose at most one change per answer.',
  parameters: {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: [...PROPOSAL_KINDS] },
      record: {
        type: 'object',
        properties: { type: { type: 'string' }, id: { type: 'integer' } },
        required: ['type', 'id'],
        description: 'The record the change is about (required except for a task on no record).',
      },
      title: { type: 'string', description: 'create_task: what to do.' },
      task_type: { type: 'string', enum: ['call', 'meeting', 'visit'] },
      due: {
        type: 'string',
        description: 'create_task: when, as YYYY-MM-DD, an ISO date-time, or words such as "Friday".',
      },
      body: { type: 'string', description: 'log_note: the text of the note.' },
      field: { type: 'string', description: 'update_field: the field slug.' },
      value: { description: 'update_field: the new value (a related record may be given by name).' },
      assignee: { type: ['string', 'integer'], description: 'assign: "me", a person\'s name or id.' },
    },
    required: ['kind'],
  },
  args: proposeArgs(),
  run: (args, scope) =>
    guarded(async () => {
      const proposal = await buildProposal(scope, args);
      return {
        data: { proposed: proposal.summary, approval: 'waiting for the person to approve or reject' },
        records: proposal.record
          ? [
              {
                type: proposal.record.type,
                id: proposal.record.id,
                label: proposal.record.label!,
                url: proposal.record.url!,
              },
            ]
          : [],
        proposal,
      };
    }),
};

function proposeArgs(): z.ZodType<ProposalInput> {
  return z.object({
    kind: z.enum(PROPOSAL_KINDS),
    record: recordArg.nullable().optional(),
    title: z.string().max(200).optional(),
    task_type: z.enum(['call', 'meeting', 'visit']).optional(),
    due: z.string().max(100).optional(),
    body: z.string().max(5_000).optional(),
    field: z.string().max(80).optional(),
    value: z
      .union([
        z.string().max(2_000),
        z.number(),
        z.boolean(),
        z.null(),
        z.array(z.union([z.string(), z.number()])).max(50),
      ])
      .optional(),
    assignee: z.union([z.string().max(200), z.number().int()]).optional(),
  });
}
