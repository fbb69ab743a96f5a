/**
 * The server's own success message of a write ('Site updated successfully.': the `message` of `{data, message}`,
 * which the data provider puts in `meta.message`). react-admin's mutation hooks keep only the `data` of a result,
 * so this mutation middleware reads the message on the way back and shows it (`fallback` when the server sent
 * none). Render `useServerMessage(...)` inside an EditBase / CreateBase (the form's save context).
 */

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNotify, useRegisterMutationMiddleware } from 'react-admin';
import { isApiError } from '../http/errors';

type Write = (resource: string, params: unknown) => Promise<{ data: unknown; meta?: { message?: string } }>;

export function useServerMessage(fallback: string): void {
  const notify = useNotify();
  const middleware = useCallback(
    async (resource: string, params: unknown, next: Write) => {
      const result = await next(resource, params);
      notify(result?.meta?.message ?? fallback, { type: 'success' });
      return result;
    },
    [notify, fallback],
  );
  useRegisterMutationMiddleware<Write>(middleware);
}

/** `useServerMessage` as an element, for a screen that renders its own save context. */
export function ServerMessage({ fallback }: { fallback: string }) {
  useServerMessage(fallback);
  return null;
}

/**
 * A failed save's message as a notification (422 included: the form also puts the server's message on each field).
 * A 409 (someone else saved the record after this form opened) goes to `onConflict` instead, when given.
 */
export function useSaveError(onConflict?: (message: string) => void) {
  const notify = useNotify();
  return useCallback(
    (error: unknown) => {
      if (onConflict && isApiError(error) && error.status === 409) {
        onConflict(error.message);
        return;
      }
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    },
    [notify, onConflict],
  );
}

/**
 * After a pessimistic update react-admin patches the cached lists of the resource with the server's record in place
 * (and so marks them fresh, even one a create had marked for refetching). The server may move the record in or out
 * of a filtered or sorted list, so the resource's lists are asked again when next shown.
 */
export function useRefetchLists(resource: string) {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: [resource, 'getList'] }), [queryClient, resource]);
}
