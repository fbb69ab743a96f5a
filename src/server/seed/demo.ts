import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';

/** A small, repeatable random source so every fresh install shows the same demo organisation. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => Math.floor(next() * (max - min + 1)) + min,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
  };
}

// Metro areas of the demo region, with the county each lies in.
const METROS = [
  { city: 'Los Angeles', county: 'Los Angeles', lat: 34.05, lng: -118.25, zip: 900, spread: 0.35, weight: 5 },
  { city: 'Long Beach', county: 'Los Angeles', lat: 33.77, lng: -118.19, zip: 908, spread: 0.1, weight: 1 },
  { city: 'San Diego', county: 'San Diego', lat: 32.72, lng: -117.16, zip: 921, spread: 0.25, weight: 2 },
  { city: 'San Francisco', county: 'San Francisco', lat: 37.77, lng: -122.42, zip: 941, spread: 0.06, weight: 2 },
  { city: 'Oakland', county: 'Alameda', lat: 37.8, lng: -122.27, zip: 946, spread: 0.12, weight: 1 },
  { city: 'San Jose', county: 'Santa Clara', lat: 37.34, lng: -121.89, zip: 951, spread: 0.15, weight: 2 },
  { city: 'Sacramento', county: 'Sacramento', lat: 38.58, lng: -121.49, zip: 958, spread: 0.15, weight: 1 },
  { city: 'Fresno', county: 'Fresno', lat: 36.74, lng: -119.79, zip: 937, spread: 0.12, weight: 1 },
  { city: 'Riverside', county: 'Riverside', lat: 33.95, lng: -117.4, zip: 925, spread: 0.2, weight: 1 },
];
const REGIONS = [
  { name: 'California', geometry_type: 'state', code: '06', box: [32.5, -124.4, 42.0, -114.1], color: '#1e88e5' },
  { name: 'Los Angeles County', geometry_type: 'county', code: '06037', box: [33.7, -118.95, 34.82, -117.65], color: '#43a047' },
  { name: 'San Diego County', geometry_type: 'county', code: '06073', box: [32.53, -117.6, 33.51, -116.08], color: '#fb8c00' },
  { name: 'San Francisco County', geometry_type: 'county', code: '06075', box: [37.7, -122.52, 37.83, -122.35], color: '#8e24aa' },
  { name: 'Alameda County', geometry_type: 'county', code: '06001', box: [37.45, -122.34, 37.91, -121.47], color: '#00897b' },
  { name: 'Santa Clara County', geometry_type: 'county', code: '06085', box: [36.89, -122.2, 37.48, -121.2], color: '#e53935' },
  { name: 'Sacramento County', geometry_type: 'county', code: '06067', box: [38.02, -121.86, 38.74, -121.03], color: '#3949ab' },
  { name: 'Fresno County', geometry_type: 'county', code: '06019', box: [35.9, -120.92, 37.59, -118.36], color: '#6d4c41' },
  { name: 'Riverside County', geometry_type: 'county', code: '06065', box: [33.43, -117.68, 34.08, -114.43], color: '#c0ca33' },
] as const;

const SITE_WORDS = ['Harbor', 'Mission', 'Summit', 'Pacific', 'Golden', 'Sierra', 'Bayview', 'Canyon', 'Civic', 'Riverside', 'Oak', 'Cedar', 'Union', 'Metro', 'Vista'];
const SITE_KINDS = ['Tower', 'Medical Center', 'Apartments', 'Library', 'Transit Center', 'Data Center', 'High School', 'Warehouse', 'Bridge Retrofit', 'Hotel', 'Lofts', 'Plaza', 'Campus', 'Substation'];
const CONTRACTOR_WORDS = ['Apex', 'Pinnacle', 'Westside', 'Coastal', 'Granite', 'Ironclad', 'Bright', 'Premier', 'Keystone', 'Redwood', 'Allied', 'Titan'];
const CONTRACTOR_KINDS = ['Builders', 'Electric', 'Mechanical', 'Construction', 'Steel', 'Plumbing', 'Concrete', 'Drywall', 'Roofing'];
const FIRST = ['Maria', 'James', 'Luis', 'Aisha', 'Chen', 'Rosa', 'Marcus', 'Priya', 'Diego', 'Hannah', 'Kevin', 'Lupe', 'Andre', 'Mei', 'Carlos', 'Tanya', 'Omar', 'Grace', 'Jorge', 'Nina'];
const LAST = ['Garcia', 'Johnson', 'Nguyen', 'Hernandez', 'Smith', 'Lee', 'Martinez', 'Brown', 'Patel', 'Lopez', 'Kim', 'Davis', 'Rodriguez', 'Wilson', 'Torres', 'Clark'];
const STREETS = ['Main St', 'Broadway', '1st Ave', 'Market St', 'Grand Ave', 'Figueroa St', 'Mission Blvd', 'Park Ave', 'Harbor Blvd', 'El Camino Real'];
const SITE_TYPE_MIX = ['union', 'union', 'union', 'non-union', 'non-union', 'pla', 'public-works', 'development', 'lcmt', 'pending', 'mega', 'residential'];
const SOURCES = ['dodge-data', 'construct-connect', 'building-trades', 'manual'];

const box = ([s, w, n, e]: readonly number[]) => ({ type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] });
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

/** The demo organisation: organizers, regions, sites with coordinates, contractors, contacts, members, tasks, notes. */
export async function seedDemo(trx: Transaction<any>, passwordHash: string) {
  const rand = prng(20261121);
  const roles = Object.fromEntries((await trx.selectFrom('roles').select(['id', 'slug']).execute()).map((r) => [r.slug, r.id]));
  const teams = await trx.insertInto('teams').values([{ name: 'Southern California', color: '#1e88e5' }, { name: 'Northern California', color: '#43a047' }]).returning('id').execute();
  const people = [
    { first_name: 'Olivia', last_name: 'Martinez', email: 'leader@example.com', role_id: roles.leader, team_id: teams[0].id },
    { first_name: 'Sam', last_name: 'Chen', email: 'organizer@example.com', role_id: roles.user, team_id: teams[0].id },
    { first_name: 'Dana', last_name: 'Brooks', email: 'organizer2@example.com', role_id: roles.user, team_id: teams[1].id },
    { first_name: 'Ana', last_name: 'Lopez', email: 'assistant@example.com', role_id: roles.assistant, team_id: teams[1].id },
  ];
  const users = await trx
    .insertInto('users')
    .values(people.map((p) => ({ ...p, password: passwordHash, realtime_key: randomBytes(16).toString('hex'), goals: JSON.stringify({ default: { calls: 40, meetings: 10, visits: 20, recruits: 4 } }) })))
    .returning(['id', 'team_id'])
    .execute();
  await trx.insertInto('team_user').values(users.map((u) => ({ user_id: u.id, team_id: u.team_id }))).execute();
  const organizerIds = ids(users);

  const regionRows = await trx
    .insertInto('regions')
    .values(REGIONS.map((r) => ({ name: r.name, geometry_type: r.geometry_type, code: r.code, color: r.color, geometry: JSON.stringify(box(r.box)), min_lat: r.box[0], min_lng: r.box[1], max_lat: r.box[2], max_lng: r.box[3] })))
    .returning(['id', 'min_lat', 'min_lng', 'max_lat', 'max_lng'])
    .execute();

  const lookup = async (table: string) => ids(await trx.selectFrom(table).select('id').orderBy('id').execute());
  const [trades, unions, statuses, phases, buildingTypes, classifications, dispatchTypes] = await Promise.all(
    ['trades', 'unions', 'site_statuses', 'site_phases', 'building_types', 'classifications', 'dispatch_types'].map(lookup),
  );

  const place = () => {
    const weighted = METROS.flatMap((m) => Array(m.weight).fill(m));
    const metro = rand.pick(weighted);
    return {
      street: `${rand.int(100, 9999)} ${rand.pick(STREETS)}`,
      city: metro.city,
      county: metro.county,
      state: 'CA',
      postal_code: `${metro.zip}${rand.int(10, 99)}`,
      latitude: Number((metro.lat + (rand.next() - 0.5) * metro.spread).toFixed(6)),
      longitude: Number((metro.lng + (rand.next() - 0.5) * metro.spread * 1.2).toFixed(6)),
    };
  };

  const contractorTypes = ['union', 'union', 'non-union', 'non-union', 'general', 'none'];
  const contractors = await trx
    .insertInto('contractors')
    .values(
      Array.from({ length: 60 }, (_, i) => ({
        name: `${CONTRACTOR_WORDS[i % CONTRACTOR_WORDS.length]} ${CONTRACTOR_KINDS[(i * 7) % CONTRACTOR_KINDS.length]}${i >= CONTRACTOR_WORDS.length ? ` ${Math.floor(i / CONTRACTOR_WORDS.length) + 1}` : ''}`,
        type: rand.pick(contractorTypes),
        phone: `(${rand.int(200, 999)}) 555-${String(rand.int(0, 9999)).padStart(4, '0')}`,
        email: `office${i + 1}@contractor.example`,
        union_id: rand.next() < 0.5 ? rand.pick(unions) : null,
        ...place(),
      })),
    )
    .returning(['id', 'type'])
    .execute();
  await trx.insertInto('contractor_trades').values(contractors.map((c) => ({ contractor_id: c.id, trade_id: rand.pick(trades) }))).execute();

  const now = Date.now();
  const day = 86_400_000;
  const sites = await trx
    .insertInto('sites')
    .values(
      Array.from({ length: 400 }, (_, i) => {
        const where = place();
        const created = new Date(now - rand.int(0, 365) * day);
        return {
          name: `${rand.pick(SITE_WORDS)} ${rand.pick(SITE_KINDS)}${i >= 150 ? ` ${String.fromCharCode(65 + (i % 26))}` : ''}`,
          type: rand.pick(SITE_TYPE_MIX),
          site_status_id: rand.pick(statuses),
          site_phase_id: rand.pick(phases),
          building_type_id: rand.pick(buildingTypes),
          ...where,
          owner: `${rand.pick(LAST)} Holdings LLC`,
          general_contractor_id: rand.pick(contractors).id,
          bid_date: new Date(created.getTime() + rand.int(10, 60) * day).toISOString().slice(0, 10),
          kickoff_date: new Date(created.getTime() + rand.int(60, 200) * day).toISOString().slice(0, 10),
          estimated_value: rand.int(5, 4000) * 25_000,
          estimated_hours: rand.int(20, 2000) * 100,
          prevailing_wage: rand.next() < 0.4,
          source: rand.pick(SOURCES),
          external_id: `DEMO-${1000 + i}`,
          user_id: rand.pick(organizerIds),
          team_id: rand.pick(teams).id,
          created_at: created,
          updated_at: created,
        };
      }),
    )
    .returning(['id', 'latitude', 'longitude', 'general_contractor_id'])
    .execute();

  await trx.insertInto('site_trades').values(sites.flatMap((s) => [...new Set([rand.pick(trades), rand.pick(trades)])].map((trade_id) => ({ site_id: s.id, trade_id })))).execute();
  await trx
    .insertInto('site_contractors')
    .values(sites.flatMap((s) => [s.general_contractor_id, rand.pick(contractors).id].map((contractor_id) => ({ site_id: s.id, contractor_id, trade_id: rand.pick(trades) }))))
    .execute();
  const siteRegions = sites.flatMap((s) =>
    regionRows.filter((r) => s.latitude >= r.min_lat && s.latitude <= r.max_lat && s.longitude >= r.min_lng && s.longitude <= r.max_lng).map((r) => ({ site_id: s.id, region_id: r.id })),
  );
  if (siteRegions.length) await trx.insertInto('site_regions').values(siteRegions).execute();

  const person = (i: number) => {
    const first_name = FIRST[(i * 7) % FIRST.length];
    const last_name = LAST[(i * 11) % LAST.length];
    return { first_name, last_name, email: `${first_name}.${last_name}${i}@mail.example`.toLowerCase(), phone: `(${rand.int(200, 999)}) 555-${String(rand.int(0, 9999)).padStart(4, '0')}` };
  };
  const contactStatuses = ['prospect', 'interested', 'applied', 'member', 'former-member', 'uninterested'];
  const contacts = await trx
    .insertInto('contacts')
    .values(Array.from({ length: 120 }, (_, i) => ({ ...person(i), status: rand.pick(contactStatuses), contractor_id: rand.pick(contractors).id, trade_id: rand.pick(trades), user_id: rand.pick(organizerIds) })))
    .returning('id')
    .execute();
  await trx.insertInto('site_contacts').values(contacts.slice(0, 80).map((c, i) => ({ contact_id: c.id, site_id: sites[i * 5].id }))).execute();

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
        joined_at: new Date(now - rand.int(100, 6000) * day).toISOString().slice(0, 10),
      })),
    )
    .returning('id')
    .execute();

  await trx
    .insertInto('recruits')
    .values(Array.from({ length: 25 }, (_, i) => ({ ...person(i + 400), trade_id: rand.pick(trades), contractor_id: rand.pick(contractors).id, site_id: rand.pick(sites).id, status: rand.pick(['prospect', 'signed', 'interested']), signed_at: i % 3 === 0 ? new Date(now - rand.int(0, 90) * day).toISOString().slice(0, 10) : null, user_id: rand.pick(organizerIds) })))
    .execute();

  const grievanceTitles = ['Unpaid overtime', 'Safety violation: fall protection', 'Wrongful termination', 'Prevailing wage underpayment', 'Missing breaks', 'Unsafe scaffolding'];
  await trx
    .insertInto('grievances')
    .values(
      Array.from({ length: 12 }, (_, i) => {
        const closed = i % 3 === 0;
        const filed = new Date(now - rand.int(5, 200) * day);
        return { title: rand.pick(grievanceTitles), status: closed ? 'closed' : 'open', member_id: rand.pick(members).id, contractor_id: rand.pick(contractors).id, site_id: rand.pick(sites).id, filed_at: filed.toISOString().slice(0, 10), closed_at: closed ? new Date(filed.getTime() + 20 * day).toISOString().slice(0, 10) : null, description: 'Reported by a member on site; steward notified.', user_id: rand.pick(organizerIds) };
      }),
    )
    .execute();

  const taskTypes = ['call', 'meeting', 'visit'] as const;
  await trx
    .insertInto('tasks')
    .values(
      Array.from({ length: 60 }, (_, i) => {
        const type = taskTypes[i % 3];
        const site = rand.pick(sites);
        const due = new Date(now + rand.int(-20, 20) * day);
        const done = i % 4 === 0;
        return { title: `${type === 'call' ? 'Call' : type === 'meeting' ? 'Meet' : 'Visit'} site ${site.id}`, type, due_at: due, completed_at: done ? new Date(due.getTime() - day) : null, assignee_id: organizerIds[i % organizerIds.length], user_id: organizerIds[0], taskable_type: 'site', taskable_id: site.id };
      }),
    )
    .execute();

  const noteBodies = ['Spoke with the superintendent; open to a meeting next week.', 'Non-union crew on site, about 20 workers.', 'General contractor confirmed the PLA applies.', 'Left flyers at the gate.', 'Follow up about the prevailing wage certification.'];
  await trx
    .insertInto('notes')
    .values(Array.from({ length: 60 }, (_, i) => ({ body: rand.pick(noteBodies), notable_type: 'site', notable_id: rand.pick(sites).id, user_id: organizerIds[i % organizerIds.length], completed_at: i % 5 === 0 ? new Date(now - day) : null })))
    .execute();

  await trx
    .insertInto('notifications')
    .values(organizerIds.flatMap((user_id) => [{ user_id, title: 'Welcome to the organizing map', body: 'Open the map to see your region\'s job sites.', link: '/map' }]))
    .execute();
}
