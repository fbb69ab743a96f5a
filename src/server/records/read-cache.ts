import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WriteGeneration } from '../db/write-tracking.js';

const MAX_BYTES = 32 * 1_048_576;
/** Larger answers (per_page=-1 on a big table) are rare and would push everything else out. */
const MAX_ENTRY_BYTES = 1_048_576;

/** The JSON text sent as it is; the handler returns the reply, which tells Fastify the answer is out. */
const sent = <T>(reply: FastifyReply, body: string) =>
  reply.type('application/json; charset=utf-8').send(body) as unknown as T;

interface Entry {
  body: string;
  stamp: string;
}

/**
 * Answers of the generic list and show reads, kept per person and URL until the next write (READ_CACHE,
 * docs/architecture.md). An entry is served only while the write stamp is the one read before its queries ran;
 * every write through the database layer moves it (in every process, when several share a PostgreSQL), so a change
 * is visible on the next read.
 * Keys hold the user id: one person's answer is never served to another.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly writes: WriteGeneration) {
    // A write makes every entry stale: free their memory at once rather than when they are next asked for.
    writes.onBump((kind) => {
      if (kind === 'data' && this.entries.size) this.clear();
    });
  }

  /** Sends the kept answer for this person and URL, or computes, sends and keeps it. */
  async serve<T>(request: FastifyRequest, reply: FastifyReply, compute: () => Promise<T>): Promise<T> {
    const user = request.user;
    if (!user) return compute();
    const key = `${user.id}:${user.impersonator?.id ?? ''}:${request.url}`;
    const hit = this.entries.get(key);
    const stamp = await this.writes.stamp('data');
    if (hit && hit.stamp === stamp) {
      // Most recently used last, so the oldest are dropped first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return sent(reply, hit.body);
    }
    // Serialised from the route's declared answer, as an answer not kept would be.
    const body = String(reply.serialize(await compute()));
    // Kept only if nothing was written while it was computed (it might hold half of that write).
    if (body.length <= MAX_ENTRY_BYTES && stamp === (await this.writes.stamp('data'))) this.keep(key, { body, stamp });
    return sent(reply, body);
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  private keep(key: string, entry: Entry) {
    const old = this.entries.get(key);
    if (old) this.bytes -= old.body.length;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= MAX_BYTES) break;
      this.entries.delete(oldest);
      this.bytes -= value.body.length;
    }
  }
}
