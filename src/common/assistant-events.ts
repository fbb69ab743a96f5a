/** `App.Events.AssistantMessage` on the asker's private channel (docs/assistant.md): the answer to `reply_to` as it is written. */
export interface AssistantMessageEvent {
  thread_id: number;
  reply_to: number;
  /** `streaming`: `delta` goes at `offset` of the answer so far; the others end the answer (`message_id` is saved). */
  status: 'streaming' | 'done' | 'stopped' | 'failed';
  offset?: number;
  delta?: string;
  message_id?: number;
}
