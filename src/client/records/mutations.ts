/**
 * Writes outside the record forms (which save through react-admin's edit and create controllers): delete and
 * restore, the custom actions of SPEC section 7 (complete, dismiss, share, change type, contacts, goals, reorder),
 * and the small inline writes of the work panels and the schema editor. Each goes through the app's data provider,
 * shows the server's own success message ('Site deleted successfully.': the `message` of `{data, message}`),
 * refreshes the resource's cached queries (an action's effects reach past one record, e.g. a completed task leaves
 * the open-tasks list, and our own change is not echoed back to this tab by the realtime hub), and turns a 422
 * into field errors and a 409 into the conflict the caller offers to reload.
 */

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNotify } from 'react-admin';
import { isApiError } from '../http/errors';
import { useAppDataProvider } from './hooks';

export interface SubmitOutcome {
  /** Field errors for react-hook-form (422). */
  errors?: Record<string, string>;
  /** The 409 message: someone else saved the record after this form opened. */
  conflict?: string;
  record?: any;
}

/** When a write's caller has its queries refreshed: before the write's promise settles, or after the next paint. */
type Refresh = 'await' | 'after';

const afterPaint = (work: () => void) =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(work, 0)) : setTimeout(work, 0);

export function useInvalidateResource() {
  const queryClient = useQueryClient();
  return useCallback(
    (...resources: string[]) =>
      Promise.all(resources.map((resource) => queryClient.invalidateQueries({ queryKey: [resource] }))),
    [queryClient],
  );
}

export function useRecordMutations(resource: string) {
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const invalidate = useInvalidateResource();

  const notifyError = useCallback(
    (error: unknown) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }),
    [notify],
  );

  const fail = useCallback(
    (error: unknown): SubmitOutcome => {
      if (isApiError(error) && error.status === 409) return { conflict: error.message };
      notifyError(error);
      if (isApiError(error) && error.status === 422 && error.body?.errors) return { errors: error.body.errors };
      return { errors: {} };
    },
    [notifyError],
  );

  /**
   * One write: the server's message (else the fallback) shown as a success, then the resource's queries refreshed;
   * with `refresh: 'after'` once the next frame is painted, not awaited (a grid cell shows the answer first).
   */
  const send = useCallback(
    async (write: () => Promise<any>, fallbackMessage?: string, refresh: Refresh = 'await') => {
      const result = await write();
      const message = result.meta?.message ?? fallbackMessage;
      if (message) notify(message, { type: 'success' });
      if (refresh === 'after') afterPaint(() => void invalidate(resource));
      else await invalidate(resource);
      return result;
    },
    [notify, invalidate, resource],
  );

  const create = useCallback(
    async (data: Record<string, unknown>, fallbackMessage: string): Promise<SubmitOutcome> => {
      try {
        return { record: (await send(() => dataProvider.create(resource, { data }), fallbackMessage)).data };
      } catch (error) {
        return fail(error);
      }
    },
    [dataProvider, resource, send, fail],
  );

  const update = useCallback(
    async (
      id: string | number,
      data: Record<string, unknown>,
      previousData: any,
      fallbackMessage: string,
      refresh?: Refresh,
    ): Promise<SubmitOutcome> => {
      try {
        return {
          record: (
            await send(() => dataProvider.update(resource, { id, data, previousData }), fallbackMessage, refresh)
          ).data,
        };
      } catch (error) {
        return fail(error);
      }
    },
    [dataProvider, resource, send, fail],
  );

  const remove = useCallback(
    async (record: any, fallbackMessage: string): Promise<boolean> => {
      try {
        await send(() => dataProvider.delete(resource, { id: record.id, previousData: record }), fallbackMessage);
        return true;
      } catch (error) {
        notifyError(error);
        return false;
      }
    },
    [dataProvider, resource, send, notifyError],
  );

  const restore = useCallback(
    async (id: string | number, fallbackMessage: string): Promise<boolean> => {
      try {
        await send(() => dataProvider.restore(resource, { id }), fallbackMessage);
        return true;
      } catch (error) {
        notifyError(error);
        return false;
      }
    },
    [dataProvider, resource, send, notifyError],
  );

  const action = useCallback(
    async (id: string | number | undefined, name: string, data?: unknown, fallbackMessage?: string): Promise<any> => {
      try {
        const result = await send(() => dataProvider.action(resource, { id, action: name, data }), fallbackMessage);
        return result.data ?? true;
      } catch (error) {
        notifyError(error);
        return null;
      }
    },
    [dataProvider, resource, send, notifyError],
  );

  return { create, update, remove, restore, action };
}
