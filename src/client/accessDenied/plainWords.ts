/** What a refused action is, in the words of the sentence "You can't {verb} {things}." */
const VERBS: Record<string, string> = {
  read: 'see',
  create: 'add',
  update: 'change',
  delete: 'delete',
  restore: 'restore',
};

/**
 * A refusal in plain words: "You can't add job sites. Ask an administrator." `label` is the list's name as the menu
 * shows it (the schema's plural: "Job Sites"); `action` the permission's action (`create`).
 */
export function refusalSentence(label: string | undefined, action: string): string {
  const things = label ? label.toLowerCase() : 'this page';
  const verb = VERBS[action] ?? 'open';
  return `You can't ${verb} ${things}. Ask an administrator.`;
}
