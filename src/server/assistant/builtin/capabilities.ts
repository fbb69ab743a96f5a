import { can } from '../../../common/permissions.js';
import { recordLabel } from '../catalogue.js';
import type { ToolScope } from '../tools/scope.js';

/**
 * What the built-in assistant can answer, said to the person (help, refusals) and offered as suggested questions on an
 * empty conversation. Only kinds of question the person may ask given what they may read.
 */
export function capabilities(scope: ToolScope): { intro: string; short: string } {
  const reads = (type: string) => Boolean(scope.typeOf(type));
  const examples: string[] = [];
  const names = scope.types
    .filter(
      (t) =>
        !['task', 'note'].includes(t.type) &&
        (['site', 'contractor', 'contact', 'member', 'recruit', 'grievance'].includes(t.type) || t.custom),
    )
    .map((t) => t.plural);
  examples.push(
    `- **Counts and lists** of ${names.slice(0, 6).join(', ') || 'records'}${names.length > 6 ? ' and more' : ''}, by type, status, region, city, trade and date: "how many union sites in Los Angeles County", "sites bidding next month", "new recruits this week".`,
  );
  examples.push('- **Breakdowns**: "sites by status", "grievances by month".');
  examples.push(
    '- **One record**: "who is the general contractor on Cedar Tower", "tell me about this site" (on a record\'s page).',
  );
  if (reads('task')) examples.push('- **Your tasks**: "my overdue tasks", "tasks due this week".');
  if (reads('site')) examples.push('- **Places**: "sites within 5 miles of Oakland".');
  if (can(scope.user, 'report:read')) examples.push('- **Market share**: "market share in Fresno County this year".');
  const proposes = can(scope.user, 'task:create') || can(scope.user, 'note:create');
  if (proposes)
    examples.push(
      '- **Changes for you to approve**: "remind me to call the GC of Cedar Tower on Friday", "log a note on Cedar Tower: crane is up", "change the status of Cedar Tower to Awarded", "assign Cedar Tower to me".',
    );
  const never =
    'I only use the records you may read, I say which records an answer comes from, and I never change anything without your click.';
  return {
    intro: ["I answer questions from your organization's records. You can ask for:", '', ...examples, '', never].join(
      '\n',
    ),
    short: ['I can answer:', '', ...examples].join('\n'),
  };
}

/** Four to six questions the person can ask right now, with names taken from what they may read. */
export async function suggestions(scope: ToolScope): Promise<string[]> {
  const out: string[] = [];
  const list = async (type: string, query: Record<string, unknown>) => {
    const info = scope.typeOf(type);
    if (!info) return [];
    return (
      await scope.app.records
        .list(scope.user, info.def, { per_page: 1, ...query })
        .catch(() => ({ data: [] as Record<string, any>[] }))
    ).data;
  };
  const sites = scope.typeOf('site');
  if (sites) {
    const allowed = scope.app.records.access.categories(scope.user, sites.def);
    const category = allowed === 'all' ? 'union' : allowed.includes('union') ? 'union' : allowed[0];
    const label =
      sites.fields
        .get('type')
        ?.choices?.find((c) => c.value === category)
        ?.label.toLowerCase() ?? category;
    const [region] = scope.typeOf('region')
      ? await list('region', { sort: 'name', filter: JSON.stringify({ geometry_type: 'county' }) })
      : [];
    out.push(region ? `How many ${label} sites are in ${region.name}?` : `How many ${label} sites are there?`);
    out.push('Which sites are bidding next month?');
    const [withGc] = await list('site', {
      filter: JSON.stringify({ general_contractor_id_null: false }),
      sort: 'name',
    });
    if (withGc) out.push(`Who is the general contractor on ${recordLabel(withGc)}?`);
    if (can(scope.user, 'report:read') && region) out.push(`What is the market share in ${region.name} this year?`);
    if (withGc && can(scope.user, 'task:create'))
      out.push(`Remind me to call the GC of ${recordLabel(withGc)} on Friday`);
  }
  if (scope.typeOf('task')) out.push('What are my overdue tasks?');
  if (scope.typeOf('recruit')) out.push('New recruits this week');
  if (!out.length) out.push('What can you do?');
  return out.slice(0, 6);
}
