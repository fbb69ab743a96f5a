/** Reference data every installation starts with (SPEC sections 3 and 9). Administrators edit it afterwards. */
export const FEATURES = [
  { slug: 'map', name: 'Map', description: 'The map of job sites and contractors.' },
  { slug: 'sites', name: 'Job sites', description: 'Job site lists by category.' },
  { slug: 'contractors', name: 'Contractors', description: 'Contractor lists.' },
  { slug: 'grievances', name: 'Grievances', description: 'Grievance tracking.' },
  { slug: 'system', name: 'System', description: 'User and system administration.' },
  { slug: 'reports', name: 'Reports', description: 'Market share and performance reports.' },
  { slug: 'assistant', name: 'Assistant', description: 'Ask questions about your data.' },
];

export const SITE_TYPES: Array<[string, string]> = [
  ['development', 'Development'],
  ['lcmt', 'LCMT'],
  ['lmcc', 'LMCC'],
  ['mega', 'Mega'],
  ['mixed', 'Mixed'],
  ['new-project', 'New Projects'],
  ['non-union', 'Non-Union'],
  ['organizing', 'Organizing'],
  ['pending', 'Pending'],
  ['pla', 'PLA'],
  ['public-works', 'Public Works'],
  ['residential', 'Residential'],
  ['sb740', 'SB740'],
  ['sb740projects', 'SB740Projects'],
  ['sb740co', 'SB740CO'],
  ['sb54co', 'SB54CO'],
  ['union', 'Union'],
  ['permits', 'Permits'],
  ['utility-boiler', 'Utility Boiler'],
];

export const CONTACT_STATUSES: Array<[string, string]> = [
  ['prospect', 'Prospect'],
  ['interested', 'Interested'],
  ['applied', 'Applied'],
  ['member', 'Member'],
  ['former-member', 'Former Member'],
  ['uninterested', 'Uninterested'],
];

export const CONTRACTOR_TYPES: Array<[string, string]> = [
  ['general', 'General'],
  ['union', 'Union'],
  ['non-union', 'Non-Union'],
  ['none', 'No Type'],
];

export const SITE_STATUSES = ['Planning', 'Bidding', 'Awarded', 'Under Construction', 'Complete', 'On Hold'];
export const SITE_PHASES = [
  'Pre-Construction',
  'Site Work',
  'Foundation',
  'Structure',
  'Enclosure',
  'Interiors',
  'Closeout',
];
export const BUILDING_TYPES = [
  'Commercial',
  'Residential',
  'Industrial',
  'Institutional',
  'Infrastructure',
  'Mixed Use',
  'Healthcare',
  'Education',
];
export const TRADES = [
  'Carpenters',
  'Electrical',
  'Plumbing',
  'Pipefitters',
  'Ironworkers',
  'Laborers',
  'Operating Engineers',
  'Sheet Metal',
  'Painters',
  'Roofers',
  'Drywall',
  'Cement Masons',
  'Elevator Constructors',
  'Insulators',
  'Glaziers',
];
export const UNIONS = [
  'IBEW Local 11',
  'UA Local 78',
  'Carpenters Local 562',
  'Ironworkers Local 433',
  'LIUNA Local 300',
  'IUOE Local 12',
  'SMART Local 105',
  'IUPAT DC 36',
];
export const DISPATCH_TYPES = ['Out of Work List', 'Name Call', 'Transfer', 'Short Call'];
export const CLASSIFICATION_TYPES: Record<string, string[]> = {
  Journeyman: ['Journeyman', 'Foreman', 'General Foreman'],
  Apprentice: ['Apprentice 1st Year', 'Apprentice 2nd Year', 'Apprentice 3rd Year', 'Apprentice 4th Year'],
  Other: ['Pre-Apprentice', 'Retiree'],
};

export { slugify } from '../../common/slugs.js';
