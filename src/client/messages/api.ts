/** The texts-and-emails calls that are no plain list or record read, through the app's data provider. */
import { useMemo } from 'react';
import type { Message, MessageStatus } from '../../common/messages';
import { useAppDataProvider } from '../records/hooks';

export function useMessagesApi() {
  const dp = useAppDataProvider();
  return useMemo(
    () => ({
      /** A message's copies, one per person (with `status`, only those). */
      copies: async (id: number, status: MessageStatus | null) =>
        (
          await dp.action('message-sends', {
            id,
            action: 'messages',
            method: 'GET',
            query: status ? { status } : {},
          })
        ).data as unknown as Message[],
      /** The copies kept while no provider was configured, sent now. */
      sendUnsent: async (id: number) =>
        (await dp.action('message-sends', { id, action: 'send-unsent' })).meta?.message ?? 'Sent.',
      /** The unsubscribe link's page: the email address of the token gets no more emails. */
      unsubscribe: async (token: string) =>
        (await dp.action('messages', { action: 'unsubscribe', data: { token } })).meta?.message ?? 'Done.',
    }),
    [dp],
  );
}
