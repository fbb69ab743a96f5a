import { z } from 'zod';
import { rangeFilter } from '../../reports/scope.js';
import { listUrl } from '../catalogue.js';
import { describeRows } from './records.js';
import { guarded, type Tool, unknownType } from './scope.js';

const STATUSES = ['open', 'overdue', 'done', 'all'] as const;

export const myTasks: Tool<{ status?: (typeof STATUSES)[number]; due_from?: string; due_to?: string; limit?: number }> =
  {
    name: 'my_tasks',
    description:
      "The person's own tasks (assigned to them): open, overdue (open and due before now), done, or all, optionally due within days.",
    parameters: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: [...STATUSES], description: 'Default open.' },
        due_from: { type: 'string', description: 'First due day, YYYY-MM-DD.' },
        due_to: { type: 'string', description: 'Last due day, YYYY-MM-DD.' },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
    },
    args: z.object({
      status: z.enum(STATUSES).optional(),
      due_from: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional(),
      due_to: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional(),
      limit: z.number().int().min(1).max(50).optional(),
    }),
    run: (args, scope) =>
      guarded(async () => {
        const info = scope.typeOf('task');
        if (!info) return unknownType(scope, 'task');
        const status = args.status ?? 'open';
        const filter: Record<string, unknown> = {
          assignee_id: scope.user.id,
          ...rangeFilter('due_at', { from: args.due_from, to: args.due_to }),
        };
        if (status === 'open' || status === 'overdue') filter.completed_at_null = true;
        if (status === 'done') filter.completed_at_null = false;
        if (status === 'overdue') filter.due_at_lt = scope.now.toISOString();
        const { data, meta } = await scope.app.records.list(scope.user, info.def, {
          filter: JSON.stringify(filter),
          per_page: args.limit ?? 20,
          sort: 'due_at',
          order: 'asc',
        });
        return {
          data: {
            status,
            total: meta.total,
            list_url: listUrl(info, filter),
            tasks: await describeRows(scope, info, data, [
              'title',
              'type',
              'due_at',
              'completed_at',
              'taskable_type',
              'taskable_id',
              'notes',
            ]),
          },
          records: data.map((row) => scope.cite(info, row)),
        };
      }),
  };
