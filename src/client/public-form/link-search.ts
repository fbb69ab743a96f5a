import type { PublicField, PublicOption } from '../../common/public-forms';
import type { Answer } from './api';
import { el } from './dom';

/** Fewer letters are not searched (the server answers nothing for them either); the wait after the last key. */
const MIN_LETTERS = 2;
const PAUSE_MS = 250;

/**
 * A link field on the public page (a sign-up's employer): a combobox (WAI-ARIA 1.2, list autocomplete) whose list
 * holds the names the form offers that contain what was typed. Picking one puts its id in the hidden input the form
 * sends; typing again clears it, so only a name picked from the list is sent as a link.
 */
export function linkSearch(
  field: PublicField,
  common: Record<string, string | undefined>,
  search: (q: string) => Promise<Answer<{ data: PublicOption[] }>>,
): HTMLElement {
  const id = `field-${field.slug}`;
  const listId = `${id}-list`;
  const input = el('input', {
    ...common,
    name: undefined,
    type: 'text',
    role: 'combobox',
    autocomplete: 'off',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': listId,
    'aria-describedby': `${id}-hint ${id}-error`,
  });
  const chosen = el('input', { type: 'hidden', name: field.slug });
  const list = el('ul', { id: listId, role: 'listbox', class: 'options', 'aria-label': field.name, hidden: '' });
  const hint = el('p', { id: `${id}-hint`, class: 'hint' }, 'Type two letters or more of the name, then pick it.');
  let options: PublicOption[] = [];
  let active = -1;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const note = (text: string) => {
    list.replaceChildren(el('li', { class: 'note', 'aria-disabled': 'true' }, text));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };
  const pick = (option: PublicOption) => {
    input.value = option.name;
    chosen.value = String(option.id);
    close();
  };
  const highlight = (index: number) => {
    active = index;
    for (const [i, item] of [...list.children].entries()) item.setAttribute('aria-selected', String(i === index));
    const item = list.children[index] as HTMLElement | undefined;
    if (item) {
      input.setAttribute('aria-activedescendant', item.id);
      item.scrollIntoView({ block: 'nearest' });
    }
  };
  const show = (found: PublicOption[]) => {
    options = found;
    if (!found.length) return note('No name matches: check the spelling, or try fewer letters.');
    list.replaceChildren(
      ...found.map((option, index) => {
        const item = el('li', { id: `${listId}-${index}`, role: 'option', 'aria-selected': 'false' }, option.name);
        // Chosen on mousedown, before the input's blur could close the list.
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          pick(option);
        });
        return item;
      }),
    );
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    active = -1;
  };
  const ask = async (q: string) => {
    const mine = ++asked;
    const answer = await search(q).catch(() => null);
    if (mine !== asked) return;
    if (answer?.status === 200) show(answer.body.data);
    else note(answer?.body.message ?? 'No connection: check it and type again.');
  };

  input.addEventListener('input', () => {
    chosen.value = '';
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < MIN_LETTERS) {
      asked++;
      return close();
    }
    timer = setTimeout(() => void ask(q), PAUSE_MS);
  });
  input.addEventListener('keydown', (event) => {
    const open = !list.hidden && options.length > 0;
    if (event.key === 'ArrowDown' && open) highlight(Math.min(active + 1, options.length - 1));
    else if (event.key === 'ArrowUp' && open) highlight(Math.max(active - 1, 0));
    else if (event.key === 'Enter' && open && active >= 0) pick(options[active]);
    else if (event.key === 'Escape' && !list.hidden) close();
    else return;
    event.preventDefault();
  });
  input.addEventListener('blur', close);
  return el('div', { class: 'combo' }, input, list, hint, chosen);
}
