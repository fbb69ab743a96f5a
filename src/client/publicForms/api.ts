/** The public-forms API as the administrator's screens call it (docs/public-forms.md), through the data provider. */
import { useMemo } from 'react';
import type { PublicForm } from '../../common/public-forms';
import { useAppDataProvider } from '../records/hooks';

/** A form as the list answers it: with how many submissions it has had. */
export type ListedForm = PublicForm & { submissions?: number };

export type PublicFormInput = Omit<PublicForm, 'id' | 'actor_id' | 'created_at' | 'updated_at'>;

/** The address people open: `/f/{slug}` on this server. */
export const publicLink = (slug: string) => `${window.location.origin}/f/${slug}`;

export function usePublicFormsApi() {
  const dp = useAppDataProvider();
  return useMemo(
    () => ({
      list: async () =>
        (await dp.action('public-forms', { action: '', method: 'GET' })).data as unknown as ListedForm[],
      save: async (id: number | null, body: PublicFormInput) =>
        (
          await dp.action('public-forms', {
            id: id ?? undefined,
            action: '',
            method: id === null ? 'POST' : 'PUT',
            data: body,
          })
        ).data as unknown as PublicForm,
      /** Open or close a form (a closed form's page answers 404; its submissions stay). */
      setOpen: async ({ id, submissions: _count, ...form }: ListedForm, enabled: boolean) =>
        (await dp.action('public-forms', { id, action: '', method: 'PUT', data: { ...form, enabled } }))
          .data as unknown as PublicForm,
      remove: async (id: number) => {
        await dp.action('public-forms', { id, action: '', method: 'DELETE' });
      },
    }),
    [dp],
  );
}
