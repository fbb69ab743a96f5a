/**
 * Writes from the generated screens, through the app's data provider, showing the server's own success message
 * ('Site created successfully.': the `message` of `{data, message}`), refreshing the resource's cached queries
 * (our own change is not echoed back to this tab by the realtime hub), and turning a 422 into field errors for the
 * form and a 409 into the edit conflict the form offers to reload.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
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

export function useInvalidateResource() {
  const queryClient = useQueryClient();
  return useCallback(
    (...resources: string[]) => Promise.all(resources.map((resource) => queryClient.invalidateQueries({ queryKey: [resource] }))),
    [queryClient],
  );
}

export function useRecordMutations(resource: string) {
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const invalidate = useInvalidateResource();

  const fail = useCallback(
    (error: unknown): SubmitOutcome => {
      if (isApiError(error) && error.status === 409) return { conflict: error.message };
      const message = error instanceof Error ? error.message : String(error);
      notify(message, { type: 'error' });
      if (isApiError(error) && error.status === 422 && error.body?.errors) return { errors: error.body.errors };
      return { errors: {} };
    },
    [notify],
  );

  const create = useCallback(
    async (data: Record<string, unknown>, fallbackMessage: string): Promise<SubmitOutcome> => {
      try {
        const result = await dataProvider.create(resource, { data });
        notify(result.meta?.message ?? fallbackMessage, { type: 'success' });
        await invalidate(resource);
        return { record: result.data };
      } catch (error) {
        return fail(error);
      }
    },
    [dataProvider, resource, notify, invalidate, fail],
  );

  const update = useCallback(
    async (id: string | number, data: Record<string, unknown>, previousData: any, fallbackMessage: string): Promise<SubmitOutcome> => {
      try {
        const result = await dataProvider.update(resource, { id, data, previousData });
        notify(result.meta?.message ?? fallbackMessage, { type: 'success' });
        await invalidate(resource);
        return { record: result.data };
      } catch (error) {
        return fail(error);
      }
    },
    [dataProvider, resource, notify, invalidate, fail],
  );

  const remove = useCallback(
    async (record: any, fallbackMessage: string): Promise<boolean> => {
      try {
        const result = await dataProvider.delete(resource, { id: record.id, previousData: record });
        notify(result.meta?.message ?? fallbackMessage, { type: 'success' });
        await invalidate(resource);
        return true;
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
        return false;
      }
    },
    [dataProvider, resource, notify, invalidate],
  );

  const restore = useCallback(
    async (id: string | number, fallbackMessage: string): Promise<boolean> => {
      try {
        const result = await dataProvider.restore(resource, { id });
        notify(result.meta?.message ?? fallbackMessage, { type: 'success' });
        await invalidate(resource);
        return true;
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
        return false;
      }
    },
    [dataProvider, resource, notify, invalidate],
  );

  const action = useCallback(
    async (id: string | number | undefined, name: string, data?: unknown, fallbackMessage?: string): Promise<any> => {
      try {
        const result = await dataProvider.action(resource, { id, action: name, data });
        const message = result.meta?.message ?? fallbackMessage;
        if (message) notify(message, { type: 'success' });
        await invalidate(resource);
        return result.data ?? true;
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
        return null;
      }
    },
    [dataProvider, resource, notify, invalidate],
  );

  return { create, update, remove, restore, action };
}
