import { demoPlace, FIRST, LAST } from './demo.js';
import { distinctProjectName } from './demo-names.js';
import type { County, Metro } from './demo-places.js';
import type { Random } from './prng.js';

/**
 * A week's job-site export from a data vendor, in the layout of the ready-made "Job sites (Dodge-style vendor
 * export)" importer: new projects in the demo's metros, the next stage of projects already in the database (matched
 * on the report number), and one row with a date the importer cannot read, as real files have.
 */

const HEADER = [
  'Dodge Report Number',
  'Project Title',
  'Project Type',
  'Address',
  'City',
  'County',
  'State',
  'ZIP',
  'Latitude',
  'Longitude',
  'Bid Date',
  'Target Start Date',
  'Estimated Value',
  'Project Stage',
  'Owner Name',
  'Architect',
  'General Contractor',
  'GC Phone',
  'Contact Name',
  'Contact Email',
  'Contact Phone',
  'Description',
  'Work Type',
];
const PREFIXES = [
  'Westside',
  'Harbor',
  'Eastgate',
  'Civic Center',
  'Riverfront',
  'Hillcrest',
  'Northpoint',
  'Sunset',
  'Valley',
  'Airport',
  'Downtown',
  'Bayview',
];
const KINDS = [
  'Medical Office Building',
  'Elementary School Modernization',
  'Mixed-Use Apartments',
  'Distribution Center',
  'Transit Station',
  'Parking Structure',
  'Water Treatment Plant Upgrade',
  'Library Renovation',
  'Fire Station',
  'Solar Array',
  'Hotel Tower',
  'Community College Science Building',
  'Senior Housing',
];
const TYPES = ['Public Works', 'Non-Union', 'Non-Union', 'Union', 'PLA', 'Development', 'Pending', 'Residential'];
export const STAGES = ['Planning', 'Bidding', 'Awarded', 'Under Construction'];
const OWNERS = [
  'City of Los Angeles',
  'County of San Diego',
  'City of Sacramento',
  'Kaiser Permanente',
  'Prologis',
  'Caltrans',
  'UC Regents',
  'Related California',
  'Irvine Company',
];
const ARCHITECTS = ['Gensler', 'HOK', 'LPA Design Studios', 'NAC Architecture', 'Perkins&Will', 'DLR Group'];
const CONTRACTORS = [
  'Clark Construction Group',
  'Swinerton Builders',
  'Hensel Phelps',
  'McCarthy Building Companies',
  'PCL Construction',
  'Turner Construction',
  'Bernards',
  'Kitchell',
  'Pankow Builders',
];
const DESCRIPTIONS = [
  'New 4-story steel frame building with electrical and plumbing work.',
  'Seismic retrofit; HVAC replacement and new fire sprinklers.',
  'Site work, concrete foundations, underground utilities.',
  'Tenant improvements: drywall, painting, electrical service upgrade.',
  'Roof replacement and photovoltaic system installation (electrical).',
];
const WORK_TYPES = [
  'Carpenters',
  'Electrical; Plumbing',
  'Ironworkers',
  'Laborers',
  'Sheet Metal',
  'Cement Masons',
  '',
];

export interface KnownSite {
  external_id: string;
  name: string;
  stage: string | null;
  city: string | null;
}

const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const usDate = (date: Date) => `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`;

/** A first and last name no demo person has yet (of the FIRST × LAST pairs), added to `people`. */
function distinctPersonName(rand: Random, people: Set<string>) {
  for (let tries = 0; ; tries++) {
    const name = `${rand.pick(FIRST)} ${rand.pick(LAST)}`;
    if (!people.has(name.toLowerCase()) || tries > 1_000) {
      people.add(name.toLowerCase());
      return name;
    }
  }
}

/**
 * The file's text and how many rows of each kind it holds. `firstNumber` numbers the new projects; `known` are
 * projects the vendor reports again at their next stage.
 */
export function vendorFile(
  rand: Random,
  counties: ReadonlyMap<string, County>,
  metros: readonly Metro[],
  options: {
    week: Date;
    newRows: number;
    firstNumber: number;
    known: KnownSite[];
    /** The project names already used (lower case): new projects get others, and add theirs. */
    taken: Set<string>;
    /** The people's names already used (lower case): each project's contact gets another, and adds theirs. */
    people: Set<string>;
  },
) {
  const rows: string[][] = [];
  const week = options.week.getTime();
  for (let i = 0; i < options.newRows; i++) {
    const where = demoPlace(rand, counties, rand.pick(metros));
    const name = distinctProjectName(options.taken, {
      word: rand.pick(PREFIXES),
      kind: rand.pick(KINDS),
      street: where.street,
      city: where.city,
    });
    const contact = distinctPersonName(rand, options.people);
    const bid = new Date(week + rand.int(10, 60) * 86_400_000);
    rows.push([
      String(options.firstNumber + i),
      name,
      rand.pick(TYPES),
      where.street,
      where.city,
      where.county,
      'CA',
      where.postal_code,
      where.latitude.toFixed(5),
      where.longitude.toFixed(5),
      // One project in the file has no bid date yet: the importer reports the row and imports the others.
      i === 3 ? 'TBD' : usDate(bid),
      usDate(new Date(bid.getTime() + rand.int(30, 120) * 86_400_000)),
      String(rand.int(8, 1600) * 50_000),
      rand.pick(STAGES.slice(0, 2)),
      rand.pick(OWNERS),
      rand.pick(ARCHITECTS),
      rand.pick(CONTRACTORS),
      `(${rand.int(200, 999)}) ${rand.int(200, 999)}-${String(rand.int(0, 9999)).padStart(4, '0')}`,
      contact,
      `${contact.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
      `${rand.int(200, 999)}-${rand.int(200, 999)}-${String(rand.int(0, 9999)).padStart(4, '0')}`,
      rand.pick(DESCRIPTIONS),
      rand.pick(WORK_TYPES),
    ]);
  }
  for (const site of options.known) {
    const next = STAGES[Math.min(STAGES.length - 1, STAGES.indexOf(site.stage ?? 'Planning') + 1)];
    const row = new Array<string>(HEADER.length).fill('');
    row[0] = site.external_id;
    row[1] = site.name;
    row[4] = site.city ?? '';
    row[6] = 'CA';
    row[13] = next;
    rows.push(row);
  }
  const text = [HEADER, ...rows].map((row) => row.map(cell).join(',')).join('\n') + '\n';
  return { text, lines: rows.length + 1 };
}
