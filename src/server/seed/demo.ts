import { randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { type RolePolicy, TURF_OR_OWN } from '../../common/access-rules.js';
import { fillHolders } from '../access/fill-holders.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { assignRegionSites } from '../regions/assign.js';
import { type AreaGeometry, bboxOf } from '../regions/geometry.js';
import { REGION_PALETTE } from '../regions/regions-routes.js';
import { distinctProjectName } from './demo-names.js';
import { type County, demoShapes, METROS, type Metro, pointIn } from './demo-places.js';
import { prng, type Random } from './prng.js';

export const SITE_WORDS = [
  'Harbor',
  'Mission',
  'Summit',
  'Pacific',
  'Golden',
  'Sierra',
  'Bayview',
  'Canyon',
  'Civic',
  'Riverside',
  'Oak',
  'Cedar',
  'Union',
  'Metro',
  'Vista',
];
export const SITE_KINDS = [
  'Tower',
  'Medical Center',
  'Apartments',
  'Library',
  'Transit Center',
  'Data Center',
  'High School',
  'Warehouse',
  'Bridge Retrofit',
  'Hotel',
  'Lofts',
  'Plaza',
  'Campus',
  'Substation',
];
const CONTRACTOR_WORDS = [
  'Apex',
  'Pinnacle',
  'Westside',
  'Coastal',
  'Granite',
  'Ironclad',
  'Bright',
  'Premier',
  'Keystone',
  'Redwood',
  'Allied',
  'Titan',
];
const CONTRACTOR_KINDS = [
  'Builders',
  'Electric',
  'Mechanical',
  'Construction',
  'Steel',
  'Plumbing',
  'Concrete',
  'Drywall',
  'Roofing',
];
export const FIRST = [
  'Maria',
  'James',
  'Luis',
  'Aisha',
  'Chen',
  'Rosa',
  'Marcus',
  'Priya',
  'Diego',
  'Hannah',
  'Kevin',
  'Lupe',
  'Andre',
  'Mei',
  'Carlos',
  'Tanya',
  'Omar',
  'Grace',
  'Jorge',
  'Nina',
];
export const LAST = [
  'Garcia',
  'Johnson',
  'Nguyen',
  'Hernandez',
  'Smith',
  'Lee',
  'Martinez',
  'Brown',
  'Patel',
  'Lopez',
  'Kim',
  'Davis',
  'Rodriguez',
  'Wilson',
  'Torres',
  'Clark',
];
export const STREETS = [
  'Main St',
  'Broadway',
  '1st Ave',
  'Market St',
  'Grand Ave',
  'Figueroa St',
  'Mission Blvd',
  'Park Ave',
  'Harbor Blvd',
  'El Camino Real',
];
/** Site types besides union and non-union work, which follow the metro's union density. */
const OTHER_SITE_TYPES = ['pla', 'public-works', 'development', 'lcmt', 'pending', 'mega', 'residential'];
const SOURCES = ['dodge-data', 'construct-connect', 'building-trades', 'manual'];
/** The site types the seeded assistant role may read (site:read:union, site:read:pla). */
export const ASSISTANT_SITE_TYPES = ['union', 'pla'];

export const DAY = 86_400_000;
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

/** One of the demo's metro areas, by their shares. */
export const pickMetro = (rand: Random) => rand.pick(METROS.flatMap((m) => Array<Metro>(m.weight).fill(m)));

/** A place in one of the demo's metro areas: an address, and a point inside the metro's county shape. */
export function demoPlace(rand: Random, counties: ReadonlyMap<string, County>, metro: Metro) {
  const county = counties.get(metro.county)!;
  return {
    street: `${rand.int(100, 9999)} ${rand.pick(STREETS)}`,
    city: metro.city,
    county: county.short,
    state: 'CA',
    postal_code: `${metro.zip}${rand.int(10, 99)}`,
    ...pointIn(rand, metro, county),
  };
}

/** What a task on a site is called, by its type. */
export function taskTitle(rand: Random, type: 'call' | 'meeting' | 'visit', siteName: string) {
  const titles = {
    call: [
      `Call the superintendent at ${siteName}`,
      `Call the GC about ${siteName}`,
      `Follow-up call: ${siteName} crew`,
    ],
    meeting: [
      `Meet the owner's rep of ${siteName}`,
      `Meeting with stewards about ${siteName}`,
      `Pre-bid meeting: ${siteName}`,
    ],
    visit: [`Visit ${siteName}: talk to the crew at lunch`, `Site visit: ${siteName}`, `Check the gate at ${siteName}`],
  } as const;
  return rand.pick(titles[type]);
}

/** Where the demo's organizers work (demo-history.ts `sitesOf`): south of this latitude, Sam; north of it, Dana. */
export const DEMO_SOUTH_OF = 35.6;

/**
 * The demo's turfs: each organizer has the counties where their sites lie (a county across the line goes to both), and
 * the organizer role reads the sites of their turf and their own (common/access-rules.ts TURF_OR_OWN): signed in as
 * Sam, the map is Southern California and the sites his work hangs on.
 */
async function giveTurfs(trx: Transaction<DB>, organizers: { south: number; north: number }, organizerRole: number) {
  const counties = await sql<{ region_id: number; south: boolean; north: boolean }>`
    select sr.region_id, bool_or(s.latitude < ${DEMO_SOUTH_OF}) as south, bool_or(s.latitude >= ${DEMO_SOUTH_OF}) as north
    from site_regions sr join sites s on s.id = sr.site_id join regions r on r.id = sr.region_id
    where r.geometry_type = 'county' group by sr.region_id`.execute(trx);
  const rows = counties.rows.flatMap((county) => [
    ...(county.south ? [{ region_id: county.region_id, user_id: organizers.south }] : []),
    ...(county.north ? [{ region_id: county.region_id, user_id: organizers.north }] : []),
  ]);
  if (rows.length) await trx.insertInto('region_users').values(rows).execute();
  const role = await trx.selectFrom('roles').select('policy').where('id', '=', organizerRole).executeTakeFirstOrThrow();
  const policy: RolePolicy = { ...(role.policy as RolePolicy), site: { read: TURF_OR_OWN } };
  await trx
    .updateTable('roles')
    .set({ policy: JSON.stringify(policy) })
    .where('id', '=', organizerRole)
    .execute();
}

/**
 * The demo organisation: organizers, California and its 58 counties (the Census shapes), sites and contractors
 * inside their counties, contacts, members, recruits, grievances, a backlog of tasks for everyone, notes. Its
 * last few weeks of work are added through the app's own services once the app is built (demo-history.ts).
 */
export async function seedDemo(trx: Transaction<DB>, passwordHash: string) {
  const rand = prng(20261121);
  const now = Date.now();
  const roles = Object.fromEntries(
    (await trx.selectFrom('roles').select(['id', 'slug']).execute()).map((r) => [r.slug, r.id]),
  );
  const teams = await trx
    .insertInto('teams')
    .values([
      { name: 'Southern California', color: '#1e88e5' },
      { name: 'Northern California', color: '#43a047' },
    ])
    .returning('id')
    .execute();
  const people = [
    {
      first_name: 'Olivia',
      last_name: 'Martinez',
      email: 'leader@example.com',
      role_id: roles.leader,
      team_id: teams[0].id,
    },
    { first_name: 'Sam', last_name: 'Chen', email: 'organizer@example.com', role_id: roles.user, team_id: teams[0].id },
    {
      first_name: 'Dana',
      last_name: 'Brooks',
      email: 'organizer2@example.com',
      role_id: roles.user,
      team_id: teams[1].id,
    },
    {
      first_name: 'Ana',
      last_name: 'Lopez',
      email: 'assistant@example.com',
      role_id: roles.assistant,
      team_id: teams[1].id,
    },
  ];
  const goals = JSON.stringify({ default: { calls: 40, meetings: 10, visits: 20, recruits: 4 } });
  const users = await trx
    .insertInto('users')
    .values(people.map((p) => ({ ...p, password: passwordHash, realtime_key: randomBytes(16).toString('hex'), goals })))
    .returning(['id', 'team_id'])
    .execute();
  await trx
    .insertInto('team_user')
    .values(users.map((u) => ({ user_id: u.id, team_id: u.team_id! })))
    .execute();
  const organizerIds = ids(users);
  const [leaderId, , , assistantId] = organizerIds;
  // The first administrator (made before the demo) has work of their own too.
  const admin = await trx
    .selectFrom('users')
    .select('id')
    .where('role_id', '=', roles.super)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('users')
    .set({ goals: JSON.stringify({ default: { calls: 10, meetings: 8, visits: 4, recruits: 0 } }) })
    .where('id', '=', admin.id)
    .execute();
  const everyone = [admin.id, ...organizerIds];

  // California and its counties, with the Census Bureau's shapes (us-atlas); sites are placed in them below.
  const shapes = demoShapes();
  const countyByCode = new Map(shapes.counties.map((c) => [c.code, c]));
  const regionValues = [shapes.state, ...shapes.counties].map((shape, i) => {
    const [minLng, minLat, maxLng, maxLat] = bboxOf(shape.geometry as AreaGeometry);
    return {
      name: shape.name,
      geometry_type: shape.geometry_type,
      code: shape.code,
      color: REGION_PALETTE[i % REGION_PALETTE.length],
      geometry: JSON.stringify(shape.geometry),
      min_lat: minLat,
      min_lng: minLng,
      max_lat: maxLat,
      max_lng: maxLng,
      created_at: new Date(now - 120 * DAY),
      updated_at: new Date(now - 120 * DAY),
    };
  });
  const regionIds = ids(await trx.insertInto('regions').values(regionValues).returning('id').execute());

  const lookup = async (table: string) =>
    ids(await dynamicTables(trx).selectFrom(table).select('id').$castTo<{ id: number }>().orderBy('id').execute());
  const [trades, unions, statuses, phases, buildingTypes, classifications, dispatchTypes] = await Promise.all(
    ['trades', 'unions', 'site_statuses', 'site_phases', 'building_types', 'classifications', 'dispatch_types'].map(
      lookup,
    ),
  );

  // Contractors work near their office: a site's contractors come from its metro, so union work is denser in some
  // counties than in others.
  // Every metro has a union, a non-union and a general contractor; the rest are spread by the metros' shares.
  const contractorMetros = Array.from({ length: 60 }, (_, i) =>
    i < METROS.length * 3 ? METROS[i % METROS.length] : pickMetro(rand),
  );
  const contractors = await trx
    .insertInto('contractors')
    .values(
      contractorMetros.map((metro, i) => {
        const type =
          i < METROS.length * 3
            ? ['union', 'non-union', 'general'][Math.floor(i / METROS.length)]
            : rand.chance(metro.union)
              ? 'union'
              : rand.pick(['non-union', 'general', 'none']);
        return {
          name: `${CONTRACTOR_WORDS[i % CONTRACTOR_WORDS.length]} ${CONTRACTOR_KINDS[(i * 7) % CONTRACTOR_KINDS.length]}${i >= CONTRACTOR_WORDS.length ? ` ${Math.floor(i / CONTRACTOR_WORDS.length) + 1}` : ''}`,
          type,
          phone: `(${rand.int(200, 999)}) 555-${String(rand.int(0, 9999)).padStart(4, '0')}`,
          email: `office${i + 1}@contractor.example`,
          union_id: type === 'union' ? rand.pick(unions) : null,
          ...demoPlace(rand, countyByCode, metro),
        };
      }),
    )
    .returning(['id', 'type'])
    .execute();
  const contractorsIn = (metro: Metro, types: string[]) =>
    contractors.filter((c, i) => contractorMetros[i] === metro && types.includes(c.type));
  /** A site's contractors: a general contractor and a trade contractor of the metro, union as often as the metro is. */
  const contractorsFor = (metro: Metro) => {
    const labour = () => rand.pick(contractorsIn(metro, [rand.chance(metro.union) ? 'union' : 'non-union']));
    const general = rand.chance(0.5) ? rand.pick(contractorsIn(metro, ['general', 'none'])) : labour();
    return [general.id, labour().id];
  };
  await trx
    .insertInto('contractor_trades')
    .values(contractors.map((c) => ({ contractor_id: c.id, trade_id: rand.pick(trades) })))
    .execute();

  const siteContractors: number[] = [];
  const siteNames = new Set<string>();
  const sites = await trx
    .insertInto('sites')
    .values(
      Array.from({ length: 400 }, (_, i) => {
        const metro = pickMetro(rand);
        const where = demoPlace(rand, countyByCode, metro);
        const created = new Date(now - rand.int(30, 365) * DAY);
        const [general, trade] = contractorsFor(metro);
        siteContractors.push(trade);
        return {
          name: distinctProjectName(siteNames, {
            word: rand.pick(SITE_WORDS),
            kind: rand.pick(SITE_KINDS),
            street: where.street,
            city: where.city,
          }),
          type: rand.chance(0.45) ? (rand.chance(metro.union) ? 'union' : 'non-union') : rand.pick(OTHER_SITE_TYPES),
          site_status_id: rand.pick(statuses),
          site_phase_id: rand.pick(phases),
          building_type_id: rand.pick(buildingTypes),
          ...where,
          owner: `${rand.pick(LAST)} Holdings LLC`,
          general_contractor_id: general,
          bid_date: new Date(created.getTime() + rand.int(10, 60) * DAY).toISOString().slice(0, 10),
          kickoff_date: new Date(created.getTime() + rand.int(60, 200) * DAY).toISOString().slice(0, 10),
          estimated_value: rand.int(5, 4000) * 25_000,
          estimated_hours: rand.int(20, 2000) * 100,
          prevailing_wage: rand.next() < 0.4,
          source: rand.pick(SOURCES),
          external_id: String(202500300000 + i * 7),
          user_id: rand.pick(organizerIds),
          team_id: rand.pick(teams).id,
          created_at: created,
          updated_at: created,
        };
      }),
    )
    .returning(['id', 'name', 'type', 'general_contractor_id'])
    .execute();

  await trx
    .insertInto('site_trades')
    .values(
      sites.flatMap((s) =>
        [...new Set([rand.pick(trades), rand.pick(trades)])].map((trade_id) => ({ site_id: s.id, trade_id })),
      ),
    )
    .execute();
  await trx
    .insertInto('site_contractors')
    .values(
      sites.flatMap((s, i) =>
        [...new Set([s.general_contractor_id, siteContractors[i]])].map((contractor_id) => ({
          site_id: s.id,
          contractor_id: contractor_id!,
          trade_id: rand.pick(trades),
        })),
      ),
    )
    .execute();
  // Which county (and the state) each site lies in: point in polygon, as for any site saved in the app.
  await assignRegionSites(trx, regionIds);
  await giveTurfs(trx, { south: organizerIds[1], north: organizerIds[2] }, roles.user);

  // Every demo person has a name of their own (FIRST × LAST pairs, none twice for the first 320 people).
  let named = 0;
  const person = (i: number) => {
    const n = named++;
    const first_name = FIRST[n % FIRST.length];
    const last_name = LAST[(3 * (n % FIRST.length) + Math.floor(n / FIRST.length)) % LAST.length];
    return {
      first_name,
      last_name,
      email: `${first_name}.${last_name}${i}@mail.example`.toLowerCase(),
      phone: `(${rand.int(200, 999)}) 555-${String(rand.int(0, 9999)).padStart(4, '0')}`,
    };
  };
  const contactStatuses = ['prospect', 'interested', 'applied', 'member', 'former-member', 'uninterested'];
  const contacts = await trx
    .insertInto('contacts')
    .values(
      Array.from({ length: 120 }, (_, i) => ({
        ...person(i),
        status: rand.pick(contactStatuses),
        contractor_id: rand.pick(contractors).id,
        trade_id: rand.pick(trades),
        user_id: rand.pick(organizerIds),
      })),
    )
    .returning('id')
    .execute();
  await trx
    .insertInto('site_contacts')
    .values(contacts.slice(0, 80).map((c, i) => ({ contact_id: c.id, site_id: sites[i * 5].id })))
    .execute();

  const members = await trx
    .insertInto('members')
    .values(
      Array.from({ length: 80 }, (_, i) => ({
        ...person(i + 200),
        member_number: `M-${20000 + i}`,
        classification_id: rand.pick(classifications),
        union_id: rand.pick(unions),
        trade_id: rand.pick(trades),
        contractor_id: rand.pick(contractors).id,
        dispatch_type_id: rand.pick(dispatchTypes),
        is_steward: i % 9 === 0,
        joined_at: new Date(now - rand.int(100, 6000) * DAY).toISOString().slice(0, 10),
      })),
    )
    .returning('id')
    .execute();

  await trx
    .insertInto('recruits')
    .values(
      Array.from({ length: 25 }, (_, i) => ({
        ...person(i + 400),
        trade_id: rand.pick(trades),
        contractor_id: rand.pick(contractors).id,
        site_id: rand.pick(sites).id,
        status: rand.pick(['prospect', 'signed', 'interested']),
        signed_at: i % 3 === 0 ? new Date(now - rand.int(0, 90) * DAY).toISOString().slice(0, 10) : null,
        user_id: rand.pick(organizerIds),
      })),
    )
    .execute();

  const grievanceTitles = [
    'Unpaid overtime',
    'Safety violation: fall protection',
    'Wrongful termination',
    'Prevailing wage underpayment',
    'Missing breaks',
    'Unsafe scaffolding',
  ];
  await trx
    .insertInto('grievances')
    .values(
      Array.from({ length: 12 }, (_, i) => {
        const closed = i % 3 === 0;
        const filed = new Date(now - rand.int(5, 200) * DAY);
        return {
          title: rand.pick(grievanceTitles),
          status: closed ? 'closed' : 'open',
          member_id: rand.pick(members).id,
          contractor_id: rand.pick(contractors).id,
          site_id: rand.pick(sites).id,
          filed_at: filed.toISOString().slice(0, 10),
          closed_at: closed ? new Date(filed.getTime() + 20 * DAY).toISOString().slice(0, 10) : null,
          description: 'Reported by a member on site; steward notified.',
          user_id: rand.pick(organizerIds),
        };
      }),
    )
    .execute();

  // A backlog of calls, meetings and visits for everyone over the last five weeks and the next two: most of the
  // past ones done, some left overdue. The assistant's are on sites the assistant may read.
  const taskTypes = ['call', 'meeting', 'visit'] as const;
  const assistantSites = sites.filter((s) => ASSISTANT_SITE_TYPES.includes(s.type));
  await trx
    .insertInto('tasks')
    .values(
      Array.from({ length: 75 }, (_, i) => {
        const type = taskTypes[i % 3];
        const assignee = everyone[i % everyone.length];
        const site = rand.pick(assignee === assistantId ? assistantSites : sites);
        const due = new Date(now + rand.int(-35 * 24, 14 * 24) * 3_600_000);
        const created = new Date(Math.min(due.getTime(), now) - rand.int(2, 10) * DAY);
        const done = due.getTime() < now - DAY && rand.chance(0.9);
        const completed = done
          ? new Date(Math.min(due.getTime() + rand.int(-24, 30) * 3_600_000, now - 3_600_000))
          : null;
        return {
          title: taskTitle(rand, type, site.name),
          type,
          due_at: due,
          completed_at: completed,
          assignee_id: assignee,
          user_id: assignee === admin.id ? admin.id : leaderId,
          taskable_type: 'site',
          taskable_id: site.id,
          created_at: created,
          updated_at: completed ?? created,
        };
      }),
    )
    .execute();

  const noteBodies = [
    'Spoke with the superintendent; open to a meeting next week.',
    'Non-union crew on site, about 20 workers.',
    'General contractor confirmed the PLA applies.',
    'Left flyers at the gate.',
    'Follow up about the prevailing wage certification.',
  ];
  await trx
    .insertInto('notes')
    .values(
      Array.from({ length: 60 }, (_, i) => {
        const author = organizerIds[i % organizerIds.length];
        const written = new Date(now - rand.int(35, 120) * DAY);
        return {
          body: rand.pick(noteBodies),
          notable_type: 'site',
          notable_id: rand.pick(author === assistantId ? assistantSites : sites).id,
          user_id: author,
          completed_at: i % 5 === 0 ? new Date(written.getTime() + DAY) : null,
          created_at: written,
          updated_at: written,
        };
      }),
    )
    .execute();
  // Whose each site is (its organizer, team and the work on it), as the record service keeps it for what it writes.
  await fillHolders(trx);

  await trx
    .insertInto('notifications')
    .values(
      everyone.map((user_id) => ({
        user_id,
        title: 'Welcome to the organizing map',
        body: "Open the map to see your region's job sites.",
        link: '/map',
        read_at: new Date(now - 40 * DAY),
        created_at: new Date(now - 42 * DAY),
        updated_at: new Date(now - 40 * DAY),
      })),
    )
    .execute();
}
