import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { AssistantMessageEvent } from '../../common/assistant-events.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { builtinAnswer } from './builtin/answer.js';
import { dailyTokenLimit, tokensUsedToday } from './limits.js';
import { type ChatMessage, ModelError, type ModelSettings } from './model/chat-client.js';
import { answerWithModel, systemPrompt, type ToolStep } from './model/loop.js';
import {
  type AnswerList,
  answerListShape,
  assistantMessagesResource,
  assistantThreadsResource,
  type Citation,
  type Proposal,
} from './resources.js';
import { createScope, type RecordRef } from './tools/scope.js';

export const BUILT_IN_MODEL = 'built-in';
/** Earlier messages of a conversation sent to the model with a new question. */
const HISTORY = 20;
/** Deltas are sent together at most this often (a model may write a few characters at a time). */
const FLUSH_MS = 40;
const MAX_TOOL_CONTENT = 20_000;

/** The person's question being answered. */
interface Question {
  id: number;
  thread_id: number;
  content: string;
}

interface Outcome {
  content: string;
  citations: Citation[];
  proposal: Proposal | null;
  outcome: 'answered' | 'refused' | 'failed';
  status: 'complete' | 'stopped' | 'failed';
  steps: ToolStep[];
  /** The list the answer counted or listed (built-in answers): a follow-up refines it, "Save as view" saves it. */
  list?: AnswerList | null;
  usage: { prompt: number; completion: number };
  model: string;
  /** The built-in assistant's time reading the question, and the process's CPU time meanwhile, in ms. */
  understood?: { ms: number; cpuMs: number };
}

/**
 * Runs the answers: one at a time per conversation, in this process, streamed to the asker's private channel and
 * saved through the record service when done. Stop cancels a run (the model request is aborted; what was written so
 * far is kept, marked stopped).
 */
export class AssistantRunner {
  private readonly runs = new Map<
    number,
    { controller: AbortController; threadId: number; userId: number; done: Promise<void> }
  >();

  constructor(
    private readonly app: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The model settings, or null for the built-in assistant (read on every run, so a changed setting applies at once). */
  modelSettings(): ModelSettings | null {
    const { baseUrl, model, apiKey, timeoutSeconds } = this.app.config.assistant;
    return baseUrl && model ? { baseUrl, model, apiKey, timeoutMs: timeoutSeconds * 1000 } : null;
  }

  busy(threadId: number): boolean {
    return [...this.runs.values()].some((run) => run.threadId === threadId);
  }

  /** Stops the answer to one of the person's questions; false when none is running. */
  stop(user: AuthUser, questionId: number): boolean {
    const run = this.runs.get(questionId);
    if (!run || run.userId !== user.id) return false;
    run.controller.abort();
    return true;
  }

  /** Stops every run of this process (shutdown). */
  stopAll() {
    for (const run of this.runs.values()) run.controller.abort();
  }

  /** Every run of this process has ended and what it told the browsers is out (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.runs.size) await Promise.all([...this.runs.values()].map((run) => run.done));
    await this.app.events.idle();
  }

  start(user: AuthUser, question: Question, context: RecordRef | null): Promise<void> {
    const controller = new AbortController();
    const done = this.run(user, question, context, controller).finally(() => this.runs.delete(question.id));
    this.runs.set(question.id, { controller, threadId: question.thread_id, userId: user.id, done });
    return done;
  }

  private async run(user: AuthUser, question: Question, context: RecordRef | null, controller: AbortController) {
    // The answer as it is written goes to the asker's own channel, through the app's event bus (in order).
    const publish = (event: AssistantMessageEvent) =>
      this.app.events.emit({ event: 'AssistantMessage', type: 'assistant', id: null, userId: user.id, data: event });
    let written = '';
    let pending = '';
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!pending) return;
      publish({
        thread_id: question.thread_id,
        reply_to: question.id,
        status: 'streaming',
        offset: written.length - pending.length,
        delta: pending,
      });
      pending = '';
    };
    const onText = (delta: string) => {
      const first = !written;
      written += delta;
      pending += delta;
      // The first words go out at once; later ones together, at most every FLUSH_MS.
      if (first) flush();
      else if (!timer) timer = setTimeout(flush, FLUSH_MS);
    };

    const started = performance.now();
    const cpu = process.cpuUsage();
    let result: Outcome;
    try {
      result = await this.answer(user, question, context, controller, onText, () => written);
    } catch (error) {
      this.app.records.logError(error, `The assistant could not answer question ${question.id}`);
      result = {
        content: `${written}${written ? '\n\n' : ''}Something went wrong while answering, and nothing was changed. Please try again.`,
        citations: [],
        proposal: null,
        outcome: 'failed',
        status: 'failed',
        steps: [],
        usage: { prompt: 0, completion: 0 },
        model: BUILT_IN_MODEL,
      };
    }
    flush();
    let messageId: number | undefined;
    try {
      messageId = await this.saveAnswer(user, question, result);
    } catch (error) {
      this.app.records.logError(error, `The answer to question ${question.id} could not be saved`);
    }
    try {
      await this.saveSteps(user, question, result);
      await this.app.records.update(
        user,
        assistantThreadsResource,
        question.thread_id,
        { last_message_at: new Date().toISOString() },
        { system: true },
      );
    } catch (error) {
      this.app.records.logError(error, `The tool steps of question ${question.id} could not be saved`);
    }
    // Where an answer's time goes, for operators and the assistant benchmark (tests/bench/assistant.ts): wall time
    // and this process's CPU time (the embedded database's work included), in ms.
    const used = process.cpuUsage(cpu);
    const ms = (n: number) => Math.round(n * 100) / 100;
    this.log.info(
      {
        question_id: question.id,
        model: result.model,
        outcome: result.outcome,
        ...(result.understood
          ? { understand_ms: ms(result.understood.ms), understand_cpu_ms: ms(result.understood.cpuMs) }
          : {}),
        answer_ms: ms(performance.now() - started),
        answer_cpu_ms: ms((used.user + used.system) / 1000),
      },
      'assistant answered',
    );
    publish({
      thread_id: question.thread_id,
      reply_to: question.id,
      status: result.status === 'complete' ? 'done' : result.status,
      message_id: messageId,
    });
    this.app.events.emit({
      event: 'AssistantRefresh',
      type: 'assistant',
      id: null,
      userId: user.id,
      data: { thread_id: question.thread_id },
    });
  }

  private async answer(
    user: AuthUser,
    question: { id: number; thread_id: number; content: string },
    context: RecordRef | null,
    controller: AbortController,
    onText: (delta: string) => void,
    written: () => string,
  ): Promise<Outcome> {
    const scope = await createScope(this.app, user, context);
    const settings = this.modelSettings();
    // The list of the conversation's last answer: what a follow-up ("of those", "them") refines, on either path.
    const previous = await this.lastList(user, question);
    let note = '';
    if (settings) {
      const limit = dailyTokenLimit(this.app, user);
      if (limit !== undefined && (await tokensUsedToday(this.app, user)) >= limit) {
        note = `_Your role's daily allowance of ${limit.toLocaleString('en-US')} model tokens is used up, so the built-in assistant answered._\n\n`;
      } else {
        try {
          const messages: ChatMessage[] = [
            { role: 'system', content: systemPrompt(scope, this.app.config.appName, previous) },
            ...(await this.history(user, question)),
            { role: 'user', content: question.content },
          ];
          const answer = await answerWithModel(settings, scope, messages, onText, controller.signal);
          return { ...answer, outcome: 'answered', status: 'complete' };
        } catch (error) {
          if (!(error instanceof ModelError)) throw error;
          if (error.kind === 'stopped') return stopped(written(), settings.model);
          if (written())
            return {
              content: `${written()}\n\n_The model stopped answering: ${error.message}_`,
              citations: [],
              proposal: null,
              outcome: 'failed',
              status: 'failed',
              steps: [],
              usage: { prompt: 0, completion: 0 },
              model: settings.model,
            };
          note = `_The model could not answer (${error.message}), so the built-in assistant answered._\n\n`;
        }
      }
    }
    const answer = await builtinAnswer(scope, question.content, previous);
    const content = note + answer.content;
    // The built-in answer is ready at once: it is sent in pieces of a few words, as a model's would be.
    for (const piece of content
      .match(/\S+\s*|\s+/g)
      ?.reduce<string[]>(
        (pieces, word, i) => (i % 6 ? ((pieces[pieces.length - 1] += word), pieces) : [...pieces, word]),
        [],
      ) ?? []) {
      if (controller.signal.aborted) return stopped(written(), BUILT_IN_MODEL);
      onText(piece);
    }
    return { ...answer, content, status: 'complete', usage: { prompt: 0, completion: 0 }, model: BUILT_IN_MODEL };
  }

  /** The conversation so far as the model reads it: the person's questions and the answers, oldest first. */
  private async history(user: AuthUser, question: { id: number; thread_id: number }): Promise<ChatMessage[]> {
    const { data } = await this.app.records.list(user, assistantMessagesResource, {
      filter: JSON.stringify({ thread_id: question.thread_id, role: ['user', 'assistant'], id_lt: question.id }),
      sort: 'id',
      order: 'desc',
      per_page: HISTORY,
    });
    return data.reverse().map((m) => ({ role: m.role, content: m.content }));
  }

  /** The list of the conversation's last answer, when it counted or listed records (what "them" and "those" mean). */
  private async lastList(user: AuthUser, question: { id: number; thread_id: number }): Promise<AnswerList | null> {
    const { data } = await this.app.records.list(user, assistantMessagesResource, {
      filter: JSON.stringify({ thread_id: question.thread_id, role: 'assistant', id_lt: question.id }),
      sort: 'id',
      order: 'desc',
      per_page: 1,
    });
    const kept = answerListShape.safeParse(data[0]?.list);
    return kept.success ? kept.data : null;
  }

  /** The tool steps of an answer, as `tool` messages (what the assistant looked at, shown under the answer). */
  private async saveSteps(user: AuthUser, question: { id: number; thread_id: number }, result: Outcome) {
    const base = { thread_id: question.thread_id, reply_to: question.id };
    for (const step of result.steps) {
      const content = JSON.stringify(step.result.data);
      await this.app.records.create(
        user,
        assistantMessagesResource,
        {
          ...base,
          role: 'tool',
          content: content.length > MAX_TOOL_CONTENT ? `${content.slice(0, MAX_TOOL_CONTENT)}...` : content,
          tool_call_id: step.id,
          tool_calls: [{ id: step.id, name: step.name, arguments: step.arguments }],
          model: result.model,
        },
        { system: true },
      );
    }
  }

  private async saveAnswer(
    user: AuthUser,
    question: { id: number; thread_id: number },
    result: Outcome,
  ): Promise<number> {
    const base = { thread_id: question.thread_id, reply_to: question.id };
    const { record } = await this.app.records.create(
      user,
      assistantMessagesResource,
      {
        ...base,
        role: 'assistant',
        content: result.content.slice(0, 40_000),
        status: result.status,
        outcome: result.outcome,
        citations: result.citations.slice(0, 200),
        proposal: result.proposal,
        list: result.list ?? null,
        prompt_tokens: result.usage.prompt,
        completion_tokens: result.usage.completion,
        model: result.model,
      },
      { system: true },
    );
    return record.id;
  }
}

const stopped = (content: string, model: string): Outcome => ({
  content: `${content}${content ? '\n\n' : ''}_Stopped._`,
  citations: [],
  proposal: null,
  outcome: 'answered',
  status: 'stopped',
  steps: [],
  usage: { prompt: 0, completion: 0 },
  model,
});
