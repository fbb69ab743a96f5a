import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Insertable, sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { Notifications } from '../db/schema.generated.js';
import { temporaryFolder } from '../files/file-store.js';
import { keepImportFiles } from '../imports/import-files.js';
import { ImportService } from '../imports/import-service.js';
import { ImporterService } from '../imports/importer-service.js';
import { ImportProcessor } from '../imports/processor.js';
import { seedReadyMadeImporters } from '../imports/ready-made.js';
import { ASSISTANT_SITE_TYPES, DAY, DEMO_SOUTH_OF, taskTitle } from './demo.js';
import { demoShapes, METROS } from './demo-places.js';
import { type KnownSite, STAGES, vendorFile } from './demo-vendor-file.js';
import { prng, type Random } from './prng.js';

/**
 * The demo organisation's last four weeks, written through the app's own services as the demo people (the record
 * service for edits, tasks and notes; the import job for two vendor files), then dated back to when they happened:
 * so the dashboard, the activity feed, tasks, notifications and each record's history show work for everyone. Runs
 * once, after the app is built, on a database the demo was just seeded into. Deterministic (same seed, same story).
 */

const HOUR = 3_600_000;
const VISIT_NOTES = [
  'Talked with the crew at lunch.',
  'Foreman asked us to leave the gate; spoke to workers at the trailer.',
  'New framing crew this week, mostly non-union.',
  'Steward on site, good conversations.',
  null,
];
const MINUTE = 60_000;
const CARD_SIGNERS = [
  'Marco Ruiz',
  'Jasmine Ortiz',
  'Tom Nguyen',
  'Luis Herrera',
  'Keisha Brown',
  'Pedro Alvarez',
  'Hannah Kim',
  'Omar Haddad',
  'Grace Liu',
  'Victor Soto',
];
type TaskType = 'call' | 'meeting' | 'visit';

interface Person {
  key: 'admin' | 'leader' | 'sam' | 'dana' | 'ana';
  user: AuthUser;
  /** Where the person works: sites south or north of Bakersfield, or anywhere. */
  area: 'south' | 'north' | 'all';
}

interface StoryEvent {
  at: number;
  run: () => Promise<void>;
}

interface StoryTask {
  id?: number;
  title: string;
  creator: Person;
  assignee: Person;
  created: number;
  due: number;
  completed: number | null;
}

export async function writeDemoHistory(ctx: AppContext, now = Date.now()) {
  const rand = prng(20261122);
  const { db } = ctx;
  const person = async (email: string | null, key: Person['key'], area: Person['area']): Promise<Person> => {
    const row = email
      ? await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
      : await db
          .selectFrom('users as u')
          .innerJoin('roles as r', 'r.id', 'u.role_id')
          .select('u.id')
          .where('r.slug', '=', 'super')
          .orderBy('u.id')
          .executeTakeFirstOrThrow();
    return { key, user: (await loadAuthUser(db, row.id))!, area };
  };
  const admin = await person(null, 'admin', 'all');
  const leader = await person('leader@example.com', 'leader', 'all');
  const sam = await person('organizer@example.com', 'sam', 'south');
  const dana = await person('organizer2@example.com', 'dana', 'north');
  const ana = await person('assistant@example.com', 'ana', 'north');

  const sites = await db
    .selectFrom('sites as s')
    .leftJoin('site_statuses as st', 'st.id', 's.site_status_id')
    .select([
      's.id',
      's.name',
      's.type',
      's.latitude',
      's.external_id',
      's.city',
      'st.name as stage',
      's.site_status_id',
    ])
    .where('s.deleted_at', 'is', null)
    .orderBy('s.id')
    .execute();
  const statuses = await db.selectFrom('site_statuses').select(['id', 'name']).orderBy('position').execute();
  const contacts = await db
    .selectFrom('contacts')
    .select(['id', 'first_name', 'last_name', 'status'])
    .orderBy('id')
    .execute();
  // The sites the assistant may read all along (a site the story makes union later is not readable before).
  const assistantSites = sites.filter((s) => ASSISTANT_SITE_TYPES.includes(s.type));
  const sitesOf = (who: Person) =>
    who.key === 'ana'
      ? assistantSites
      : who.area === 'all'
        ? sites
        : sites.filter((s) => (who.area === 'south') === Number(s.latitude) < DEMO_SOUTH_OF);

  /** A time `daysAgo` days back at a working hour (US Pacific, in UTC), never in the last twenty minutes. */
  const at = (daysAgo: number) => {
    const day = new Date(now - daysAgo * DAY);
    day.setUTCHours(rand.int(15, 23), rand.int(0, 59), 0, 0);
    const time = day.getTime();
    return time > now - 20 * MINUTE ? now - rand.int(25, 240) * MINUTE : time;
  };

  const events: StoryEvent[] = [];
  const add = (time: number, run: () => Promise<void>) => events.push({ at: time, run });
  const resource = (name: string) => ctx.resources.get(name)!;
  /** Writes through the record service as `who`, then dates the revisions (and the record) back to `time`. */
  const write = async (
    time: number,
    table: string,
    work: () => Promise<Record<string, any>>,
    created = false,
  ): Promise<number> => {
    const before = await lastId(ctx, 'revisions');
    const assessedBefore = await lastId(ctx, 'assessments');
    const { id } = (await work()) as { id: number };
    const when = new Date(time);
    await db.updateTable('revisions').set({ created_at: when }).where('id', '>', before).execute();
    await db.updateTable('assessments').set({ assessed_at: when }).where('id', '>', assessedBefore).execute();
    await dynamicTables(db)
      .updateTable(table)
      .set(created ? { created_at: when, updated_at: when } : { updated_at: when })
      .where('id', '=', id)
      .execute();
    return id;
  };
  const update = (who: Person, name: string, id: number, values: Record<string, unknown>, time: number) =>
    write(
      time,
      resource(name).table,
      async () => (await ctx.records.update(who.user, resource(name), id, values)).record,
    );
  const create = (who: Person, name: string, values: Record<string, unknown>, time: number) =>
    write(
      time,
      resource(name).table,
      async () => (await ctx.records.create(who.user, resource(name), values)).record,
      true,
    );

  // ---- tasks given and done: everyone ends with work to do, some of it overdue -----------------------------------
  const plan: Array<[Person, Person, number]> = [
    [leader, sam, 8],
    [leader, dana, 8],
    [leader, ana, 5],
    [leader, admin, 2],
    [admin, admin, 3],
    [sam, sam, 3],
    [dana, dana, 3],
    [admin, leader, 3],
  ];
  const tasks: StoryTask[] = [];
  const types: TaskType[] = ['visit', 'call', 'meeting'];
  for (const [creator, assignee, count] of plan) {
    for (let k = 0; k < count; k++) {
      const type = types[(tasks.length + k) % 3];
      let created: number;
      let due: number;
      if (k === 0) {
        created = at(rand.int(0, 3));
        due = now + rand.int(1, 7) * DAY + rand.int(0, 8) * HOUR; // coming up
      } else if (k === 1) {
        created = at(rand.int(6, 12));
        due = now - rand.int(1, 4) * DAY - rand.int(0, 8) * HOUR; // overdue
      } else {
        created = at(rand.int(3, 27));
        due = created + rand.int(1, 9) * DAY;
      }
      // The assistant may not change tasks: theirs stay open.
      const mayFinish = assignee !== ana && k > 1 && due < now - 6 * HOUR && rand.chance(0.9);
      const completed = mayFinish
        ? Math.min(Math.max(created + HOUR, due + rand.int(-20, 20) * HOUR), now - 30 * MINUTE)
        : null;
      const onContact = assignee === ana && k % 2 === 1;
      const contact = onContact ? rand.pick(contacts) : null;
      const site = onContact ? null : rand.pick(sitesOf(assignee));
      const title = contact
        ? type === 'call'
          ? `Call ${contact.first_name} ${contact.last_name} about dues`
          : `Meet ${contact.first_name} ${contact.last_name} at the hall`
        : taskTitle(rand, type, site!.name);
      const task: StoryTask = { title, creator, assignee, created, due, completed };
      tasks.push(task);
      add(created, async () => {
        task.id = await create(
          creator,
          'tasks',
          {
            title,
            type: contact && type === 'visit' ? 'call' : type,
            due_at: new Date(due).toISOString(),
            assignee_id: assignee.user.id,
            ...(contact
              ? { taskable_type: 'contact', taskable_id: contact.id }
              : { taskable_type: 'site', taskable_id: site!.id }),
          },
          created,
        );
      });
      if (completed !== null) {
        add(completed, async () => {
          await update(assignee, 'tasks', task.id!, { completed_at: new Date(completed).toISOString() }, completed);
        });
        if (site && type !== 'call') {
          const report = rand.pick(VISIT_REPORTS);
          const written = Math.min(completed + rand.int(5, 40) * MINUTE, now - 20 * MINUTE);
          add(written, async () => {
            await create(assignee, 'notes', { body: report, notable_type: 'site', notable_id: site.id }, written);
          });
        }
      }
    }
  }

  // ---- sites move on: stages, and two won for the union (the vendor files below report other sites) -------------
  const touched = new Set<number>();
  for (let i = 0; i < 16; i++) {
    const who = rand.pick([sam, sam, dana, dana, leader]);
    const site = rand.pick(
      sitesOf(who).filter(
        (s) => s.stage && STAGES.indexOf(s.stage) >= 0 && STAGES.indexOf(s.stage) < STAGES.length - 1,
      ),
    );
    const next = statuses.find((s) => s.name === STAGES[STAGES.indexOf(site.stage!) + 1]);
    if (!next) continue;
    site.stage = next.name;
    touched.add(site.id);
    const time = at(rand.int(0, 27));
    add(time, async () => {
      await update(who, 'sites', site.id, { site_status_id: next.id }, time);
    });
  }
  for (const [daysAgo, body] of [
    [12, 'Signed the project labor agreement with the GC today.'],
    [3, 'Owner confirmed all trades will be union; PLA signed.'],
  ] as const) {
    const site = rand.pick(sites.filter((s) => s.type === 'non-union'));
    site.type = 'union';
    touched.add(site.id);
    const time = at(daysAgo);
    add(time, async () => {
      await update(leader, 'sites', site.id, { type: 'union' }, time);
      await create(leader, 'notes', { body, notable_type: 'site', notable_id: site.id }, time + 10 * MINUTE);
    });
  }

  // ---- contacts move up the ladder; notes on sites and contacts --------------------------------------------------
  const ladder = ['prospect', 'interested', 'applied', 'member'];
  for (let i = 0; i < 10; i++) {
    const who = rand.pick([sam, dana]);
    const contact = rand.pick(
      contacts.filter((c) => ladder.indexOf(c.status) >= 0 && ladder.indexOf(c.status) < ladder.length - 1),
    );
    contact.status = ladder[ladder.indexOf(contact.status) + 1];
    const status = contact.status;
    const time = at(rand.int(0, 27));
    add(time, async () => {
      await update(who, 'contacts', contact.id, { status }, time);
    });
  }
  // ---- contacts assessed over the weeks, most moving toward support (their history and the campaigns' charts) -----
  for (let i = 0; i < 60; i++) {
    const who = rand.pick([sam, dana, leader]);
    const contact = rand.pick(contacts) as (typeof contacts)[number] & { level?: number };
    contact.level = contact.level
      ? Math.max(1, Math.min(5, contact.level + (rand.chance(0.75) ? -1 : 1)))
      : rand.int(2, 5);
    const values = { assessment: String(contact.level), is_leader: contact.level === 1 && rand.chance(0.5) };
    const time = at(27 - Math.floor((i * 27) / 60));
    add(time, async () => {
      await update(who, 'contacts', contact.id, values, time);
    });
  }
  for (let i = 0; i < 16; i++) {
    const who = rand.pick([sam, dana, leader, ana, ana]);
    const onContact = rand.chance(0.3);
    const time = at(rand.int(0, 27));
    const owner = onContact
      ? { notable_type: 'contact', notable_id: rand.pick(contacts).id }
      : { notable_type: 'site', notable_id: rand.pick(sitesOf(who)).id };
    const body = rand.pick(onContact ? CONTACT_NOTES : SITE_NOTES);
    add(time, async () => {
      await create(who, 'notes', { body, ...owner }, time);
    });
  }

  // ---- recruits signed, a grievance settled, the administrator's own changes ---------------------------------------
  const recruits = await db.selectFrom('recruits').select('id').where('status', '!=', 'signed').orderBy('id').execute();
  for (const [who, daysAgo] of [
    [sam, 9],
    [sam, 2],
    [dana, 5],
  ] as const) {
    const recruit = recruits.splice(rand.int(0, recruits.length - 1), 1)[0];
    if (!recruit) continue;
    const time = at(daysAgo);
    add(time, async () => {
      await update(
        who,
        'recruits',
        recruit.id,
        { status: 'signed', signed_at: new Date(time).toISOString().slice(0, 10) },
        time,
      );
    });
  }
  const grievance = await db
    .selectFrom('grievances')
    .select(['id', 'filed_at'])
    .where('status', '=', 'open')
    .orderBy('id')
    .executeTakeFirst();
  if (grievance) {
    const time = at(4);
    add(time, async () => {
      await update(
        leader,
        'grievances',
        grievance.id,
        { status: 'closed', closed_at: new Date(time).toISOString().slice(0, 10) },
        time,
      );
    });
  }
  const teamTime = at(25);
  add(teamTime, async () => {
    await create(
      admin,
      'teams',
      { name: 'Central Valley', description: 'Fresno, Bakersfield and Stockton.', color: '#6d4c41' },
      teamTime,
    );
  });

  // ---- site visits with head counts, by the two organizers (a random stream of their own: the story above is kept) --
  const visitRand = prng(20261124);
  const links = await db
    .selectFrom('site_contractors as sc')
    .innerJoin('contractors as c', 'c.id', 'sc.contractor_id')
    .select(['sc.site_id', 'sc.contractor_id', 'sc.trade_id', 'c.type'])
    .where('c.deleted_at', 'is', null)
    .orderBy('sc.id')
    .execute();
  const linksOf = (siteId: number) => links.filter((link) => link.site_id === siteId).slice(0, 3);
  for (const who of [sam, dana]) {
    const visited = sitesOf(who)
      .filter((site) => linksOf(site.id).length > 0)
      .slice(0, 4);
    for (const site of visited) {
      for (const daysAgo of [visitRand.int(15, 26), visitRand.int(2, 12)]) {
        // A working hour on the US West Coast (15:00 to 23:00 UTC).
        const day = new Date(now - daysAgo * DAY);
        day.setUTCHours(visitRand.int(15, 22), visitRand.int(0, 59), 0, 0);
        const time = day.getTime();
        const head_counts = linksOf(site.id).map((link) => {
          const workers = visitRand.int(3, 24);
          // Mostly the contractor's own kind of worker; a contractor of neither type has some of both.
          const union =
            link.type === 'union'
              ? workers - visitRand.int(0, 2)
              : link.type === 'non-union'
                ? visitRand.int(0, 1)
                : visitRand.int(0, Math.floor(workers / 2));
          const nonUnion = Math.min(
            workers - union,
            link.type === 'union' ? visitRand.int(0, 2) : workers - union - visitRand.int(0, 2),
          );
          const talked = visitRand.int(0, Math.min(6, workers));
          return {
            contractor_id: link.contractor_id,
            trade_ids: link.trade_id ? [link.trade_id] : [],
            workers,
            union_workers: union,
            non_union_workers: Math.max(0, nonUnion),
            talked_to: talked,
            cards_signed: visitRand.int(0, Math.min(2, talked)),
            contacts_made: visitRand.int(0, 1),
            recruits_signed: 0,
          };
        });
        add(time, async () => {
          await create(
            who,
            'visits',
            {
              site_id: site.id,
              visited_at: new Date(time).toISOString(),
              user_ids: [who.user.id],
              head_counts,
              notes: visitRand.pick(VISIT_NOTES),
            },
            time,
          );
        });
      }
    }
  }

  // ---- two weekly vendor files, imported by an organizer and by the leader -----------------------------------------
  const { counties } = demoShapes();
  const countyByCode = new Map(counties.map((c) => [c.code, c]));
  const south = METROS.filter((m) => m.lat < DEMO_SOUTH_OF);
  const imports: Array<{ id?: number; who: Person; time: number }> = [];
  const projectNames = new Set(sites.map((s) => String(s.name).toLowerCase()));
  const peopleNames = new Set<string>();
  for (const table of ['contacts', 'members', 'recruits'] as const)
    for (const row of await db.selectFrom(table).select(['first_name', 'last_name']).execute())
      peopleNames.add(`${row.first_name} ${row.last_name}`.toLowerCase());
  const week1 = at(20);
  const week2 = at(6);
  for (const [who, time, newRows, firstNumber] of [
    [sam, week1, 28, 202600500100],
    [leader, week2, 16, 202600500200],
  ] as const) {
    const known: KnownSite[] = sites
      .filter(
        (s) =>
          !touched.has(s.id) && s.external_id && s.stage && STAGES.indexOf(s.stage) >= 0 && STAGES.indexOf(s.stage) < 2,
      )
      .filter(() => rand.chance(0.03))
      // The organizer's file reports sites of his turf (the south): he may not change the others.
      .filter((s) => who !== sam || Number(s.latitude) < DEMO_SOUTH_OF)
      .slice(0, 6)
      .map((s) => ({ external_id: s.external_id!, name: s.name, stage: s.stage, city: s.city }));
    const file = vendorFile(rand, countyByCode, who === sam ? south : METROS, {
      week: new Date(time),
      newRows,
      firstNumber,
      known,
      taken: projectNames,
      people: peopleNames,
    });
    const entry: (typeof imports)[number] = { who, time };
    imports.push(entry);
    add(time, async () => {
      entry.id = await runVendorImport(
        ctx,
        who.user,
        `dodge-weekly-${new Date(time).toISOString().slice(0, 10)}.csv`,
        file,
        time,
      );
    });
  }

  events.sort((a, b) => a.at - b.at);
  for (const event of events) await event.run();

  // ---- a campaign at the contractor Sam counted most, its unit estimated from the visits above; cards signed over
  // three weeks, collected by the organizers and recorded by the leader, past the 30% showing but short of a majority --
  const counted = await db
    .selectFrom('visit_head_counts as h')
    .innerJoin('visits as v', 'v.id', 'h.visit_id')
    .innerJoin('contractors as c', 'c.id', 'h.contractor_id')
    .select(['h.contractor_id', 'c.name', sql<number>`sum(h.workers)::integer`.as('workers')])
    .where('v.user_id', '=', sam.user.id)
    .where('c.type', '<>', 'union')
    .groupBy(['h.contractor_id', 'c.name'])
    .orderBy('workers', 'desc')
    .orderBy('h.contractor_id')
    .executeTakeFirst();
  if (counted) {
    const started = at(23);
    const campaignId = await create(
      leader,
      'campaigns',
      {
        name: `${counted.name}: card drive`,
        status: 'active',
        contractor_ids: [counted.contractor_id],
        start_date: new Date(started).toISOString().slice(0, 10),
        description: 'Sign up a majority of the crews, then ask for recognition.',
        user_id: leader.user.id,
      },
      started,
    );
    const campaign = (await ctx.records.show(leader.user, resource('campaigns'), campaignId)) as {
      progress?: { showing_of_interest: { needed: number | null }; majority: { needed: number | null } };
    };
    const showing = campaign.progress?.showing_of_interest.needed ?? 3;
    const majority = campaign.progress?.majority.needed ?? showing + 2;
    const signers = Math.max(showing + 1, Math.min(majority - 1, showing + 2));
    for (let i = 0; i < signers; i++) {
      const daysAgo = Math.round(21 - (i * 20) / Math.max(1, signers - 1));
      const contact = i < 3 ? contacts[i * 5] : undefined;
      const worker_name = contact
        ? `${contact.first_name} ${contact.last_name}`
        : CARD_SIGNERS[i % CARD_SIGNERS.length]!;
      const time = at(Math.max(1, daysAgo));
      await create(
        leader,
        'campaign-cards',
        {
          campaign_id: campaignId,
          worker_name,
          contact_id: contact?.id ?? null,
          signed_on: new Date(time).toISOString().slice(0, 10),
          user_id: (i % 2 ? dana : sam).user.id,
          contractor_id: counted.contractor_id,
        },
        time,
      );
    }
  }

  await notify(ctx, rand, now, { tasks, imports, leader });
}

/**
 * An import as `POST /api/imports` starts it (the file kept with the uploads, the import row and its revision),
 * run by the import job's processor, then dated back: the import, its revisions and what it wrote.
 */
async function runVendorImport(
  ctx: AppContext,
  user: AuthUser,
  name: string,
  file: { text: string; lines: number },
  time: number,
): Promise<number> {
  const { db } = ctx;
  await seedReadyMadeImporters(db);
  const importer = await db
    .selectFrom('importers')
    .select('id')
    .where('slug', '=', 'vendor-job-sites')
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  const config = (await new ImporterService(ctx).config(importer.id))!;
  const folder = temporaryFolder(ctx.config);
  await mkdir(folder, { recursive: true });
  const local = path.join(folder, `${randomUUID()}.csv`);
  await writeFile(local, file.text);
  const [stored] = await keepImportFiles(ctx.files, [
    { name, path: local, size: Buffer.byteLength(file.text), encoding: 'utf8', lines: file.lines },
  ]);
  const before = await lastId(ctx, 'revisions');
  // Started as the person would start it; its queued job is run here at once (the worker later finds it done).
  const imports = new ImportService(ctx, () => undefined);
  const row = await imports.start(user, config, [stored], name);
  await new ImportProcessor(ctx, imports).run(row.id);

  const started = new Date(time);
  const finished = new Date(time + 40_000);
  await db
    .updateTable('imports')
    .set({ created_at: started, started_at: started, finished_at: finished, updated_at: finished })
    .where('id', '=', row.id)
    .execute();
  await db
    .updateTable('revisions')
    .set({ created_at: started })
    .where('id', '>', before)
    .where((eb) => eb.or([eb('import_id', 'is', null), eb('import_id', '!=', row.id)]))
    .execute();
  await db.updateTable('revisions').set({ created_at: finished }).where('import_id', '=', row.id).execute();
  const written = await db
    .selectFrom('import_records')
    .select(['record_type', 'record_id', 'created'])
    .where('import_id', '=', row.id)
    .execute();
  for (const type of new Set(written.map((w) => w.record_type))) {
    const table = ctx.resources.byType(type)?.table;
    if (!table) continue;
    const createdIds = written.filter((w) => w.record_type === type && w.created).map((w) => w.record_id);
    const updatedIds = written.filter((w) => w.record_type === type && !w.created).map((w) => w.record_id);
    if (createdIds.length)
      await dynamicTables(db)
        .updateTable(table)
        .set({ created_at: finished, updated_at: finished })
        .where('id', 'in', createdIds)
        .execute();
    if (updatedIds.length)
      await dynamicTables(db).updateTable(table).set({ updated_at: finished }).where('id', 'in', updatedIds).execute();
  }
  return row.id;
}

/** What people were told: tasks given to them, tasks gone overdue, imports finished, work done on the leader's team. */
async function notify(
  ctx: AppContext,
  rand: Random,
  now: number,
  story: { tasks: StoryTask[]; imports: Array<{ id?: number; who: Person; time: number }>; leader: Person },
) {
  const rows: Array<Insertable<Notifications> & { created_at: Date }> = [];
  const say = (
    who: Person,
    time: number,
    title: string,
    body: string | null,
    link: string,
    readAfter: number | null,
  ) => {
    const read = readAfter !== null && time + readAfter < now - HOUR ? new Date(time + readAfter) : null;
    rows.push({
      user_id: who.user.id,
      title: title.slice(0, 300),
      body,
      link,
      created_at: new Date(time),
      updated_at: read ?? new Date(time),
      read_at: read,
    });
  };
  const dateOf = (time: number) =>
    new Date(time).toLocaleDateString('en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      timeZone: 'America/Los_Angeles',
    });
  for (const task of story.tasks) {
    if (!task.id) continue;
    if (task.creator !== task.assignee) {
      say(
        task.assignee,
        task.created,
        `${task.creator.user.name} gave you a task: ${task.title}`,
        `Due ${dateOf(task.due)}.`,
        `/tasks/${task.id}/show`,
        now - task.created > 2 * DAY ? rand.int(1, 30) * HOUR : null,
      );
    }
    if (task.completed === null && task.due < now)
      say(
        task.assignee,
        task.due + HOUR,
        `Overdue: ${task.title}`,
        `It was due ${dateOf(task.due)}.`,
        `/tasks/${task.id}/show`,
        null,
      );
    if (task.completed !== null && task.creator === story.leader && task.assignee !== story.leader) {
      say(
        story.leader,
        task.completed,
        `${task.assignee.user.name} completed: ${task.title}`,
        null,
        `/tasks/${task.id}/show`,
        now - task.completed > DAY ? rand.int(2, 20) * HOUR : null,
      );
    }
  }
  for (const entry of story.imports) {
    if (!entry.id) continue;
    const done = await ctx.db
      .selectFrom('imports')
      .select(['name', 'created_count', 'updated_count', 'failed_count'])
      .where('id', '=', entry.id)
      .executeTakeFirstOrThrow();
    say(
      entry.who,
      entry.time + 40_000,
      `Your import ${done.name} finished`,
      `${done.created_count} created, ${done.updated_count} updated, ${done.failed_count} could not be imported.`,
      `/imports/${entry.id}/show`,
      10 * MINUTE,
    );
  }
  rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  if (rows.length) await ctx.db.insertInto('notifications').values(rows).execute();
}

/** The highest id of `table` so far: what a write adds is above it. */
async function lastId(ctx: AppContext, table: 'revisions' | 'assessments'): Promise<number> {
  const row = await ctx.db
    .selectFrom(table)
    .select(sql<string>`coalesce(max(id), 0)`.as('id'))
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const VISIT_REPORTS = [
  'Visited at lunch: about 15 workers on site, three asked about apprenticeship.',
  'Met the superintendent; he will let us talk to the crew on Friday.',
  'Drywall sub is non-union; got two phone numbers from the crew.',
  'Walked the site with the steward. Fall protection looks fixed.',
  'GC says bids for electrical close next week.',
  'Talked to the owner’s rep: prevailing wage applies to phase 2.',
];
const SITE_NOTES = [
  'Crane went up this week; concrete pour starts Monday.',
  'Flyers handed out at the gate, 20 taken.',
  'Heard the GC is bringing in an out-of-state crew for framing.',
  'Certified payroll requested from the awarding agency.',
  'Left a message with the project manager.',
];
const CONTACT_NOTES = [
  'Interested in the apprenticeship; send the application link.',
  'Asked about health coverage for his family.',
  'Prefers texts in Spanish after 6 pm.',
  'Will bring two co-workers to the Thursday meeting.',
];
