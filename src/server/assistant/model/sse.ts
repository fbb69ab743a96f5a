/**
 * A parser of server-sent events (the HTML standard's "event stream" format), fed text as it arrives in chunks of
 * any size: lines end in LF, CRLF or CR (a CR at the end of one chunk and an LF at the start of the next are one line
 * end); `data:` lines of one event are joined with LF; `event:`, `id:` and `retry:` are kept; lines starting with ":"
 * are comments; an empty line dispatches the event (an event with no data is dropped); a single space after the colon
 * is removed; a field with no colon has an empty value; a byte-order mark at the very start is ignored.
 */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

export function createSseParser(onEvent: (event: ServerSentEvent) => void) {
  let buffer = '';
  let started = false;
  let pendingCr = false;
  let data: string[] = [];
  let eventName = '';
  let id: string | undefined;
  let retry: number | undefined;

  const dispatch = () => {
    if (data.length)
      onEvent({
        event: eventName || 'message',
        data: data.join('\n'),
        ...(id !== undefined ? { id } : {}),
        ...(retry !== undefined ? { retry } : {}),
      });
    data = [];
    eventName = '';
    retry = undefined;
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') eventName = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    feed(chunk: string) {
      if (!started) {
        started = chunk.length > 0;
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      }
      if (pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
      pendingCr = false;
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** The stream ended: an event not followed by an empty line is dropped, as the standard says. */
    end() {
      buffer = '';
      data = [];
    },
  };
}
