import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat completions server on loopback, speaking the real streaming wire format:
 * `text/event-stream` with `data: {chat.completion.chunk}` lines, a role chunk, content deltas, `tool_calls` deltas
 * (id and name first, the arguments in pieces), a finish chunk, a usage chunk with empty `choices`, and
 * `data: [DONE]`. Lines are sometimes cut across writes, as a network may cut them.
 */
export interface FakeTurn {
  content?: string[];
  toolCalls?: Array<{ name: string; arguments: unknown; id?: string }>;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Pause between chunks. */
  delayMs?: number;
  /** Answer this HTTP status with `errorBody` instead of a stream. */
  status?: number;
  errorBody?: unknown;
}

export interface FakeRequest {
  headers: IncomingHttpHeaders;
  url: string;
  body: any;
}

export async function startFakeOpenAI(respond: (body: any, index: number) => FakeTurn) {
  const requests: FakeRequest[] = [];
  let aborted = 0;
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : {};
    requests.push({ headers: req.headers, url: req.url ?? '', body });
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `Unknown path ${req.url}` } }));
      return;
    }
    const turn = respond(body, requests.length - 1);
    if (turn.status) {
      res
        .writeHead(turn.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(turn.errorBody ?? { error: { message: 'refused' } }));
      return;
    }
    let closed = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        aborted++;
      }
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const base = {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      system_fingerprint: 'fp_fake',
    };
    const chunk = (choice: Record<string, unknown>) => ({
      ...base,
      choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
    });
    const events: unknown[] = [chunk({ delta: { role: 'assistant', content: '' } })];
    for (const piece of turn.content ?? []) events.push(chunk({ delta: { content: piece } }));
    for (const [index, call] of (turn.toolCalls ?? []).entries()) {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      events.push(
        chunk({
          delta: {
            tool_calls: [
              {
                index,
                id: call.id ?? `call_${index}_${requests.length}`,
                type: 'function',
                function: { name: call.name, arguments: '' },
              },
            ],
          },
        }),
      );
      for (let i = 0; i < args.length; i += 12)
        events.push(chunk({ delta: { tool_calls: [{ index, function: { arguments: args.slice(i, i + 12) } }] } }));
    }
    events.push(chunk({ delta: {}, finish_reason: turn.toolCalls?.length ? 'tool_calls' : 'stop' }));
    if (turn.usage)
      events.push({
        ...base,
        choices: [],
        usage: { ...turn.usage, total_tokens: turn.usage.prompt_tokens + turn.usage.completion_tokens },
      });
    const lines = [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), 'data: [DONE]\n\n'];
    for (const [i, line] of lines.entries()) {
      if (closed) return;
      if (i % 3 === 1) {
        // A line cut in two writes.
        const cut = Math.floor(line.length / 2);
        res.write(line.slice(0, cut));
        await new Promise((resolve) => setTimeout(resolve, 2));
        res.write(line.slice(cut));
      } else res.write(line);
      if (turn.delayMs) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get aborted() {
      return aborted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
