/**
 * Names as slugs, the same on the client (the slug a form proposes) and the server (the slug it gives):
 * lower case, accents dropped, every run of other characters one separator, none at the ends.
 */
export function slugify(text: string, separator: '-' | '_' = '-'): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, separator)
    .replace(separator === '-' ? /^-+|-+$/g : /^_+|_+$/g, '');
}

/** A field's slug from its name: 'Gate code #2' -> 'gate_code_2', '2nd phone' -> 'f_2nd_phone' (a slug starts with a letter). */
export function slugifyField(name: string): string {
  return slugify(name, '_').replace(/^(\d)/, 'f_$1').slice(0, 60);
}

/** A record type from its singular name: 'Site visit' -> 'site-visit', '4x4' -> 't-4x4'. */
export function slugifyType(name: string): string {
  return slugify(name).replace(/^(\d)/, 't-$1').slice(0, 60);
}

/** The form of a choice's key: lower-case letters and digits, runs joined by single dashes or underscores. */
export const CHOICE_KEY = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

export const isChoiceKey = (value: string) => CHOICE_KEY.test(value) && value.length <= 60;

/** A choice's key from its label: 'Needs follow-up' -> 'needs-follow-up' (lower-case letters, digits and dashes). */
export function choiceKey(label: string): string {
  return slugify(label).slice(0, 60);
}
