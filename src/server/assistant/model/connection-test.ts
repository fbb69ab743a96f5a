import { type ChatMessage, ModelError, type ModelSettings, streamChat } from './chat-client.js';

export interface CheckStep {
  name: string;
  ok: boolean;
  detail: string;
}

const TIME_TOOL = {
  type: 'function',
  function: {
    name: 'get_current_time',
    description: 'The current date and time in a time zone.',
    parameters: {
      type: 'object',
      properties: { timezone: { type: 'string', description: 'IANA time zone, e.g. America/Los_Angeles' } },
      required: ['timezone'],
    },
  },
};

/**
 * The administrator's "test connection": one streamed request offering a tool, the tool's answer sent back, and the
 * model's final words: the round trip every answer needs. Each step says plainly what went wrong.
 */
export async function testConnection(settings: ModelSettings | null): Promise<{ ok: boolean; steps: CheckStep[] }> {
  const steps: CheckStep[] = [];
  if (!settings) {
    steps.push({
      name: 'Settings',
      ok: false,
      detail:
        'ASSISTANT_BASE_URL and ASSISTANT_MODEL are not set, so the built-in assistant answers. Set them to use a model (docs/assistant.md).',
    });
    return { ok: false, steps };
  }
  steps.push({
    name: 'Settings',
    ok: true,
    detail: `Model ${settings.model} at ${settings.baseUrl}${settings.apiKey ? ', with an API key' : ', without an API key'}.`,
  });
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are testing a connection. Use the tool when asked.' },
    {
      role: 'user',
      content: 'What time is it in Los Angeles? Call get_current_time to find out, then answer in one short sentence.',
    },
  ];
  const quick = { ...settings, timeoutMs: Math.min(settings.timeoutMs, 60_000) };
  const fail = (name: string, error: unknown) => {
    steps.push({
      name,
      ok: false,
      detail: error instanceof ModelError ? error.message : `Unexpected error: ${(error as Error).message}`,
    });
    return { ok: false, steps };
  };
  let first;
  try {
    first = await streamChat(quick, { messages, tools: [TIME_TOOL] }, () => {});
  } catch (error) {
    return fail('Reach the model', error);
  }
  steps.push({
    name: 'Reach the model',
    ok: true,
    detail: `The endpoint answered with a stream${first.model ? ` from ${first.model}` : ''}.`,
  });
  const call = first.toolCalls.find((c) => c.function.name === 'get_current_time');
  if (!call) {
    steps.push({
      name: 'Tool call',
      ok: false,
      detail: first.toolCalls.length
        ? `The model called an unknown tool (${first.toolCalls.map((c) => c.function.name).join(', ')}).`
        : `The model answered without calling the tool${first.content ? ` ("${first.content.slice(0, 120)}")` : ''}. It may not support tool calls: choose a model that does (for Ollama, e.g. llama3.1 or qwen2.5).`,
    });
    return { ok: false, steps };
  }
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch {
    steps.push({
      name: 'Tool call',
      ok: false,
      detail: `The model called the tool with arguments that are not JSON: ${call.function.arguments.slice(0, 120)}`,
    });
    return { ok: false, steps };
  }
  steps.push({
    name: 'Tool call',
    ok: true,
    detail: `The model called get_current_time with ${JSON.stringify(args).slice(0, 120)}.`,
  });
  let second;
  try {
    second = await streamChat(
      quick,
      {
        messages: [
          ...messages,
          { role: 'assistant', content: first.content || null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: JSON.stringify({ time: '2026-01-01T09:30:00-08:00' }) },
        ],
        tools: [TIME_TOOL],
      },
      () => {},
    );
  } catch (error) {
    return fail('Answer from the tool result', error);
  }
  if (!second.content.trim()) {
    steps.push({
      name: 'Answer from the tool result',
      ok: false,
      detail: 'The model gave no words after the tool result.',
    });
    return { ok: false, steps };
  }
  steps.push({
    name: 'Answer from the tool result',
    ok: true,
    detail: `The model answered: "${second.content.trim().slice(0, 160)}"`,
  });
  const usage = first.usage ?? second.usage;
  steps.push({
    name: 'Token counts',
    ok: Boolean(usage),
    detail: usage
      ? `The endpoint reports token use (${usage.prompt_tokens} in, ${usage.completion_tokens} out).`
      : 'The endpoint sends no usage block: token counts stay 0 and the daily limit cannot apply.',
  });
  return { ok: steps.every((s) => s.ok || s.name === 'Token counts'), steps };
}
