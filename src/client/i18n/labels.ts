/** Label tokens of SPEC section 9 for site (and contractor / record) types. */
export const TYPE_LABELS: Readonly<Record<string, string>> = {
  contact: 'Contact',
  development: 'Development',
  lcmt: 'LCMT',
  lmcc: 'LMCC',
  general: 'General',
  mega: 'Mega',
  mixed: 'Mixed',
  'new-project': 'New Projects',
  'non-union': 'Non-Union',
  none: 'No Type',
  organizing: 'Organizing',
  pla: 'PLA',
  'public-works': 'Public Works',
  recruit: 'Recruit',
  residential: 'Residential',
  sb740: 'SB740',
  sb740projects: 'SB740Projects',
  sb740co: 'SB740CO',
  sb54co: 'SB54CO',
  union: 'Union',
  permits: 'Permits',
  'utility-boiler': 'Utility Boiler',
};

/** 'job sites' -> 'Job Sites' (the rest of each word is kept: 'LCMT sites' stays 'LCMT Sites'). */
export function titleCase(text: string): string {
  return text.replace(
    /(^|[\s\-/])(\p{L})/gu,
    (_match, separator: string, letter: string) => separator + letter.toUpperCase(),
  );
}

/** 'site' -> 'Site', lowercased first. */
export function capitalise(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
