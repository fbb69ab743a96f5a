/** The public-forms API as the administrator's screens call it (docs/public-forms.md), through the data provider. */
import { useMemo } from 'react';
import { useAppDataProvider } from '../records/hooks';

export interface PublicForm {
  id: number;
  slug: string;
  title: string;
  kind: 'record' | 'card';
  record_type: string;
  fields: string[];
  intro: string | null;
  thank_you: string;
  consent_text: string | null;
  campaign_id: number | null;
  enabled: boolean;
  /** How many submissions it has had (the list only). */
  submissions?: number;
}

export type PublicFormInput = Omit<PublicForm, 'id' | 'submissions'>;

export interface Submission {
  id: number;
  form_id: number;
  record_type: string;
  record_id: number | null;
  submitted: Record<string, unknown>;
  ip: string;
  user_agent: string | null;
  confirm_via: 'email' | 'sms' | null;
  confirmed_at: string | null;
  created_at: string;
}

/** The address people open: `/f/{slug}` on this server. */
export const publicLink = (slug: string) => `${window.location.origin}/f/${slug}`;

export function usePublicFormsApi() {
  const dp = useAppDataProvider();
  return useMemo(
    () => ({
      list: async () =>
        (await dp.action('public-forms', { action: '', method: 'GET' })).data as unknown as PublicForm[],
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
      setOpen: async ({ id, submissions: _count, ...form }: PublicForm, enabled: boolean) =>
        (await dp.action('public-forms', { id, action: '', method: 'PUT', data: { ...form, enabled } }))
          .data as unknown as PublicForm,
      remove: async (id: number) => {
        await dp.action('public-forms', { id, action: '', method: 'DELETE' });
      },
      submissions: async (id: number) =>
        (await dp.action('public-forms', { id, action: 'submissions', method: 'GET' })).data as unknown as Submission[],
    }),
    [dp],
  );
}
