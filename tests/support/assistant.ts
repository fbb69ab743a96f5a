import type { TestApp, TestClient } from './test-app.js';

/** Every realtime event the app publishes, in order (the publisher is wrapped; events still go out). */
export function recordEvents(t: TestApp) {
  const events: Array<{ channels: string[]; event: string; data: any }> = [];
  const publish = t.ctx.realtime.publish.bind(t.ctx.realtime);
  t.ctx.realtime.publish = async (channels: string[], event: string, data: unknown, options?: any) => {
    events.push({ channels, event, data });
    return publish(channels, event, data, options);
  };
  return events;
}

export async function newThread(client: TestClient, title?: string): Promise<number> {
  const res = await client.post('/api/assistant/threads', title ? { title } : {});
  if (res.status !== 201)
    throw new Error(`Creating a conversation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** Asks a question and waits for the answer to be saved; returns the question, the answer and the tool steps. */
export async function ask(
  t: TestApp,
  client: TestClient,
  threadId: number,
  content: string,
  context?: { type: string; id: number },
) {
  const res = await client.post('/api/assistant/messages', {
    thread_id: threadId,
    content,
    ...(context ? { context } : {}),
  });
  if (res.status !== 201) throw new Error(`Asking answered ${res.status}: ${JSON.stringify(res.body)}`);
  await t.app.assistant.idle();
  const question = res.body.data;
  const list = await client.get(
    `/api/assistant/messages?per_page=100&filter=${encodeURIComponent(JSON.stringify({ thread_id: threadId, reply_to: question.id }))}`,
  );
  const answer = list.body.data.find((m: any) => m.role === 'assistant');
  const tools = list.body.data.filter((m: any) => m.role === 'tool');
  if (!answer) throw new Error(`No answer was saved for "${content}"`);
  return { question, answer, tools };
}
