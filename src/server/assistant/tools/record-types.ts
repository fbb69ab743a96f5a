import { z } from 'zod';
import type { Tool } from './scope.js';

export const recordTypes: Tool<Record<string, never>> = {
  name: 'record_types',
  description:
    'The record types the person may read, with their fields (slug, name, kind, choices, related type): what the other tools accept.',
  parameters: { type: 'object', properties: {} },
  args: z.object({}).passthrough() as unknown as z.ZodType<Record<string, never>>,
  async run(_args, scope) {
    return {
      data: scope.types.map((info) => ({
        type: info.type,
        name: info.singular,
        plural: info.plural,
        fields: [...info.fields.values()].map((f) => ({
          slug: f.slug,
          name: f.name,
          kind: f.kind,
          ...(f.choices ? { choices: f.choices.slice(0, 30).map((c) => c.label) } : {}),
          ...(f.target ? { related: f.target } : {}),
        })),
      })),
      records: [],
    };
  },
};
