/** Avatar initials: first letter of the first name and of the last name ('Ada Lovelace' -> 'AL'). */
export function initials(firstName?: string | null, lastName?: string | null, fallbackName?: string | null): string {
  const first = (firstName ?? '').trim();
  const last = (lastName ?? '').trim();
  if (first || last) return `${first.charAt(0)}${last.charAt(0)}`.toUpperCase();
  const words = (fallbackName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  return `${words[0]!.charAt(0)}${words.length > 1 ? words[words.length - 1]!.charAt(0) : ''}`.toUpperCase();
}
