import { createSseParser } from './sse.js';

/**
 * One streamed call to an OpenAI-compatible chat completions endpoint (OpenAI, Ollama, llama.cpp's server, vLLM, ...):
 * `POST {base}/chat/completions` with `stream: true`, read as server-sent events: text deltas are handed to `onText`
 * as they come, `tool_calls` deltas are put together by index, and the usage block (`stream_options.include_usage`)
 * is kept. Plain `fetch`, so it runs on Node 20 with no SDK.
 */
export interface ModelSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface ChatTurn {
  content: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: { prompt_tokens: number; completion_tokens: number } | null;
  model: string | null;
}

export type ModelErrorKind =
  | 'unreachable'
  | 'auth'
  | 'not-found'
  | 'rejected'
  | 'rate-limited'
  | 'server'
  | 'protocol'
  | 'timeout'
  | 'stopped';

/** A failure said plainly, for the person and for the administrator's connection test. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/chat\/completions$/, '')}/chat/completions`;
}

/** The first sentence of an error body: `{error: {message}}`, `{error: "..."}`, `{message}` or text. */
function reason(body: string): string {
  try {
    const parsed = JSON.parse(body);
    const message =
      parsed?.error?.message ??
      (typeof parsed?.error === 'string' ? parsed.error : undefined) ??
      parsed?.message ??
      parsed?.detail;
    if (typeof message === 'string' && message) return message.slice(0, 300);
  } catch {
    // not JSON
  }
  return body.trim().slice(0, 300) || 'no reason given';
}

function httpFailure(status: number, body: string, url: string): ModelError {
  const why = reason(body);
  if (status === 401 || status === 403)
    return new ModelError(
      'auth',
      `The model endpoint refused the API key (HTTP ${status}: ${why}). Check ASSISTANT_API_KEY.`,
      status,
    );
  if (status === 404)
    return new ModelError(
      'not-found',
      `The model endpoint answered 404 at ${url} (${why}). Check ASSISTANT_BASE_URL (it usually ends in /v1) and ASSISTANT_MODEL.`,
      status,
    );
  if (status === 429)
    return new ModelError('rate-limited', `The model endpoint is limiting requests (HTTP 429: ${why}).`, status);
  if (status >= 500) return new ModelError('server', `The model endpoint failed (HTTP ${status}: ${why}).`, status);
  return new ModelError(
    'rejected',
    `The model endpoint refused the request (HTTP ${status}: ${why}). The model may not support tool calls or streaming.`,
    status,
  );
}

function networkFailure(error: unknown, url: string): ModelError {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? '';
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (code === 'ECONNREFUSED')
    return new ModelError(
      'unreachable',
      `Nothing answers at ${host} (connection refused). Is the model server running?`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ModelError(
      'unreachable',
      `The host ${host} is not known (DNS lookup failed). Check ASSISTANT_BASE_URL.`,
    );
  if (code.startsWith('CERT') || code.includes('TLS') || code.includes('SSL'))
    return new ModelError('unreachable', `The TLS certificate of ${host} was refused (${code}).`);
  return new ModelError(
    'unreachable',
    `${host} could not be reached (${code || cause?.message || (error as Error)?.message || 'network error'}).`,
  );
}

interface Accumulated {
  id: string;
  name: string;
  arguments: string;
}

export async function streamChat(
  settings: ModelSettings,
  request: { messages: ChatMessage[]; tools?: unknown[]; toolChoice?: unknown },
  onText: (delta: string) => void,
  stop?: AbortSignal,
): Promise<ChatTurn> {
  const url = completionsUrl(settings.baseUrl);
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = stop ? AbortSignal.any([stop, timeout]) : timeout;
  const body: Record<string, unknown> = {
    model: settings.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools?.length) {
    body.tools = request.tools;
    body.tool_choice = request.toolChoice ?? 'auto';
  }
  const aborted = () =>
    stop?.aborted
      ? new ModelError('stopped', 'Stopped.')
      : new ModelError('timeout', `The model did not finish within ${Math.round(settings.timeoutMs / 1000)} seconds.`);

  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw aborted();
    throw networkFailure(error, url);
  }
  if (!response.ok) throw httpFailure(response.status, await response.text().catch(() => ''), url);

  const turn: ChatTurn = { content: '', toolCalls: [], finishReason: null, usage: null, model: null };
  const calls = new Map<number, Accumulated>();
  const take = (chunk: any) => {
    if (chunk?.error)
      throw new ModelError('server', `The model endpoint reported an error: ${reason(JSON.stringify(chunk))}`);
    if (typeof chunk?.model === 'string') turn.model = chunk.model;
    if (chunk?.usage && typeof chunk.usage === 'object') {
      turn.usage = {
        prompt_tokens: Number(chunk.usage.prompt_tokens) || 0,
        completion_tokens: Number(chunk.usage.completion_tokens) || 0,
      };
    }
    for (const choice of Array.isArray(chunk?.choices) ? chunk.choices : []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? choice.message ?? {};
      if (typeof delta.content === 'string' && delta.content) {
        turn.content += delta.content;
        onText(delta.content);
      }
      for (const [position, call] of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []).entries()) {
        const index = typeof call.index === 'number' ? call.index : position;
        const current = calls.get(index) ?? { id: '', name: '', arguments: '' };
        if (call.id) current.id = call.id;
        if (call.function?.name) current.name += call.function.name;
        if (call.function?.arguments)
          current.arguments +=
            typeof call.function.arguments === 'string'
              ? call.function.arguments
              : JSON.stringify(call.function.arguments);
        calls.set(index, current);
      }
      if (choice.finish_reason) turn.finishReason = choice.finish_reason;
    }
  };

  try {
    if ((response.headers.get('content-type') ?? '').includes('application/json')) {
      // A server that ignores `stream` answers one JSON completion.
      take(JSON.parse(await response.text()));
    } else {
      let done = false;
      let failure: unknown = null;
      const parser = createSseParser((event) => {
        if (done || failure) return;
        if (event.data.trim() === '[DONE]') {
          done = true;
          return;
        }
        try {
          take(JSON.parse(event.data));
        } catch (error) {
          failure =
            error instanceof ModelError
              ? error
              : new ModelError(
                  'protocol',
                  `The model endpoint sent something that is not a chat completion chunk: ${event.data.slice(0, 120)}`,
                );
        }
      });
      const decoder = new TextDecoder();
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(bytes, { stream: true }));
        if (failure) throw failure;
        if (done) break;
      }
      parser.feed(decoder.decode());
      parser.end();
      if (failure) throw failure;
    }
  } catch (error) {
    if (error instanceof ModelError) throw error;
    if (signal.aborted) throw aborted();
    throw new ModelError('protocol', `The model's answer could not be read: ${(error as Error).message}`);
  } finally {
    if (!response.bodyUsed) await response.body?.cancel().catch(() => {});
  }
  turn.toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({
      id: call.id || `call_${index}`,
      type: 'function' as const,
      function: { name: call.name, arguments: call.arguments },
    }));
  return turn;
}
