import { describe, expect, it } from 'vitest';
import { createSseParser, type ServerSentEvent } from '../../../src/server/assistant/model/sse.js';

function parse(chunks: string[]): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return events;
}

describe('the server-sent events parser', () => {
  it('reads data lines and dispatches on an empty line', () => {
    expect(parse(['data: {"a":1}\n\ndata: [DONE]\n\n'])).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'message', data: '[DONE]' },
    ]);
  });

  it('joins the data lines of one event with a line feed and keeps event, id and retry', () => {
    expect(parse(['event: delta\nid: 7\nretry: 1500\ndata: one\ndata: two\n\n'])).toEqual([
      { event: 'delta', data: 'one\ntwo', id: '7', retry: 1500 },
    ]);
  });

  it('accepts LF, CRLF and CR line ends, also when a CRLF is cut between two chunks', () => {
    expect(parse(['data: a\r\n\r\ndata: b\r\rdata: c\n\n'])).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
      { event: 'message', data: 'c' },
    ]);
    expect(parse(['data: x\r', '\n\r', '\ndata: y\n\n'])).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: 'y' },
    ]);
  });

  it('puts together lines cut anywhere, even one character at a time', () => {
    const text = 'data: {"choices":[{"delta":{"content":"Hé"}}]}\n\n: keep-alive\n\ndata: [DONE]\n\n';
    expect(parse([...text])).toEqual([
      { event: 'message', data: '{"choices":[{"delta":{"content":"Hé"}}]}' },
      { event: 'message', data: '[DONE]' },
    ]);
  });

  it('ignores comments, unknown fields, a byte-order mark, and events with no data; removes one space after the colon only', () => {
    expect(parse(['\ufeff: comment\nfoo: bar\n\nevent: ping\n\ndata:  two spaces\ndata\n\n'])).toEqual([
      { event: 'message', data: ' two spaces\n' },
    ]);
  });

  it('drops an event the stream ends before finishing', () => {
    expect(parse(['data: complete\n\ndata: cut off'])).toEqual([{ event: 'message', data: 'complete' }]);
  });
});
