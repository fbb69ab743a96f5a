// @vitest-environment happy-dom
import './setup-dom';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type DataProvider, Notification } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { mainData } from '../../../src/client/app/services';
import { LogicEditor } from '../../../src/client/schemas/LogicEditor';
import { testQueryClient } from './query-client';
import { NO_DETAIL_WHEN_NOBODY_SEEN, visitSchema } from './visit-schema';

function renderEditor() {
  const create = vi.fn(async (_resource: string, params: { data: any }) => ({
    data: { id: 31, ...params.data },
    meta: { message: 'Logic block created successfully.' },
  }));
  const dataProvider = { create } as unknown as DataProvider;
  // The editor reloads the app's schemas after a save; here there is no server to ask.
  vi.spyOn(mainData, 'load').mockResolvedValue();
  render(
    <AdminContext dataProvider={dataProvider} queryClient={testQueryClient()}>
      <LogicEditor schema={visitSchema()} />
      <Notification />
    </AdminContext>,
  );
  return { create, user: userEvent.setup({ delay: null }) };
}

/** Opens the MUI select labelled `label` inside `scope` and picks `option`. */
async function choose(user: ReturnType<typeof userEvent.setup>, scope: HTMLElement, label: string, option: string) {
  await user.click(within(scope).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function optionsOf(
  user: ReturnType<typeof userEvent.setup>,
  scope: HTMLElement,
  label: string,
): Promise<string[]> {
  await user.click(within(scope).getByRole('combobox', { name: label }));
  const names = (await screen.findAllByRole('option')).map((option) => option.textContent ?? '');
  await user.keyboard('{Escape}');
  return names;
}

describe('the logic editor', () => {
  it('adds a rule whose conditions are joined by any, with a numeric comparison; reads it back and saves it', async () => {
    const { create, user } = renderEditor();
    expect(screen.getByText('No rules yet: every field is always shown.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    const rule = screen.getByTestId('rule-0');

    // First condition: Outcome equals Not home (a choice field: text operators, its choices as values).
    const first = () => rule.querySelector<HTMLElement>('[data-testid="rule-0-when-field-0"]')!.parentElement!;
    await choose(user, first(), 'Field', 'Outcome');
    expect(await optionsOf(user, first(), 'Operator')).toEqual([
      'equals',
      'does not equal',
      'contains',
      'starts with',
      'ends with',
      'is empty',
      'is not empty',
    ]);
    await choose(user, first(), 'Value', 'Not home');
    // One condition: nothing to join yet.
    expect(within(rule).queryByRole('combobox', { name: 'Must hold' })).not.toBeInTheDocument();

    // Second condition: Workers seen is less than 1 (a number field: comparisons, no text operators).
    await user.click(within(rule).getByRole('button', { name: 'And when…' }));
    const second = () => rule.querySelector<HTMLElement>('[data-testid="rule-0-when-field-1"]')!.parentElement!;
    await choose(user, second(), 'Field', 'Workers seen');
    expect(await optionsOf(user, second(), 'Operator')).toEqual([
      'equals',
      'does not equal',
      'is greater than',
      'is at least',
      'is less than',
      'is at most',
      'is empty',
      'is not empty',
    ]);
    await choose(user, second(), 'Operator', 'is less than');
    const value = within(second()).getByTestId('rule-0-when-value-1');
    expect(value).toHaveAttribute('type', 'number');
    await user.type(value, '1');

    // Any of these.
    await choose(user, rule, 'Must hold', 'Any of these');
    expect(within(rule).getByRole('button', { name: 'Or when…' })).toBeInTheDocument();

    // Then: hide Detail.
    await choose(user, rule, 'Do', 'hide');
    await choose(user, rule.querySelector<HTMLElement>('[data-testid="rule-0-then-field-0"]')!, 'Field', 'Detail');

    expect(within(rule).getByTestId('rule-0-summary')).toHaveTextContent(
      'When Outcome equals "not_home" or Workers seen is less than 1, hide Detail',
    );

    await user.click(within(rule).getByRole('button', { name: 'Save rule' }));
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith('logic-blocks', {
      data: { schema_id: 5, description: null, ...NO_DETAIL_WHEN_NOBODY_SEEN },
    });
    // The server's message shows, and the new rule's editor closes (the schema reload brings the saved rule back).
    expect(await screen.findByText('Logic block created successfully.')).toBeInTheDocument();
    expect(screen.queryByTestId('rule-0')).not.toBeInTheDocument();
  }, 60_000);

  it('offers date comparisons for a date field, and no value for is-empty', async () => {
    const { create, user } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    const rule = screen.getByTestId('rule-0');
    const condition = () => rule.querySelector<HTMLElement>('[data-testid="rule-0-when-field-0"]')!.parentElement!;
    await choose(user, condition(), 'Field', 'Visited on');
    expect(await optionsOf(user, condition(), 'Operator')).toEqual([
      'equals',
      'does not equal',
      'is before',
      'is after',
      'is empty',
      'is not empty',
    ]);
    await choose(user, condition(), 'Operator', 'is after');
    expect(within(condition()).getByTestId('rule-0-when-value-0')).toHaveAttribute('type', 'date');
    await choose(user, condition(), 'Operator', 'is empty');
    expect(within(condition()).queryByTestId('rule-0-when-value-0')).not.toBeInTheDocument();
    await choose(user, rule.querySelector<HTMLElement>('[data-testid="rule-0-then-field-0"]')!, 'Field', 'Detail');
    expect(within(rule).getByTestId('rule-0-summary')).toHaveTextContent('When Visited on is empty, show Detail');
    await user.click(within(rule).getByRole('button', { name: 'Save rule' }));
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0][1].data).toMatchObject({
      match: 'all',
      conditions: [{ source: 'field:3', operator: 'is-empty', value: null }],
      actions: [{ target: 'field:4', action: 'show-field' }],
    });
  }, 60_000);
});
