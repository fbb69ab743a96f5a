import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { listQuery, record } from '../http/contracts.js';
import { fieldError } from '../http/errors.js';
import { type BoardValue, readBoard } from './board.js';
import { readableType } from './readable-type.js';

const boardValue = z.union([z.string(), z.number(), z.null()]);
const boardColumns = z.array(boardValue).min(1).max(100);
const board = z
  .object({
    data: z.array(
      z.object({ value: boardValue, total: z.number().int(), data: z.array(record) }).meta({ id: 'BoardColumn' }),
    ),
    meta: z.object({ by: z.string() }),
  })
  .meta({ id: 'Board' });

/** The `columns` parameter: a JSON array of the columns' values (null: the column of records without one). */
function columnsOf(raw: string | undefined): BoardValue[] {
  if (!raw) throw fieldError('columns', 'Name the columns, as a JSON array of their values.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fieldError('columns', 'The columns must be a JSON array of values.');
  }
  const checked = boardColumns.safeParse(parsed);
  if (!checked.success)
    throw fieldError('columns', 'The columns must be a JSON array of 1 to 100 values (text, numbers or null).');
  return checked.data;
}

/**
 * GET /api/records/{resource}/board?by=<field>&columns=<JSON array>: a kanban's first page of every column in one
 * request (each column's records and count), over the list's own query (`filters=`, `filter[...]`, `search`, `view=`,
 * `sort`, `per_page`, 50 by default), read with the same access rules as the list.
 */
export function registerBoardRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/records/:resource/board',
    {
      schema: {
        params: z.object({ resource: z.string() }),
        querystring: listQuery.extend({
          by: z.string().optional().describe('The field whose values are the columns.'),
          columns: z
            .string()
            .optional()
            .describe('The columns as a JSON array of the field’s values, null for the column without one.'),
        }),
        response: { 200: board },
      },
      config: { permission: { resource: ':resource', action: 'read' } },
    },
    async (request) => {
      const { def, user } = readableType(ctx, request.user, request.params.resource);
      const { by, columns, ...query } = request.query;
      if (!by) throw fieldError('by', 'Name the field whose values are the columns.');
      const data = await readBoard(ctx.records, user, def, query, by, columnsOf(columns));
      return { data, meta: { by } };
    },
  );
}
