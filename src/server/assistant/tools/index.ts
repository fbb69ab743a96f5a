import { countRecords } from './count.js';
import { marketShareTool } from './market-share.js';
import { recordsNear } from './near.js';
import { proposeChange } from './propose.js';
import { recordTypes } from './record-types.js';
import type { Tool, ToolResult, ToolScope } from './scope.js';
import { failure } from './scope.js';
import { getRecord, searchRecords } from './search.js';
import { myTasks } from './tasks.js';

/**
 * The assistant's tools: the only way an answer reaches data, for the built-in assistant and a model alike. Each reads
 * through the record service or a report service as the asking person; none writes (a change is only proposed) and
 * none reaches anything outside the product.
 */
export const TOOLS: readonly Tool[] = [
  recordTypes,
  searchRecords,
  getRecord,
  countRecords,
  marketShareTool,
  myTasks,
  recordsNear,
  proposeChange,
];

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** Runs one tool call: unknown tools and invalid arguments are answered in words, as the model needs them. */
export async function runTool(name: string, args: unknown, scope: ToolScope): Promise<ToolResult> {
  const tool = byName.get(name);
  if (!tool) return failure(`There is no tool "${name}". Tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
  const parsed = tool.args.safeParse(args ?? {});
  if (!parsed.success)
    return failure(
      `The arguments of ${name} are invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}.`,
    );
  return tool.run(parsed.data, scope);
}

/** The tools in the OpenAI chat completions `tools` format. */
export function toolDefinitions() {
  return TOOLS.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export type { Tool, ToolResult, ToolScope };
