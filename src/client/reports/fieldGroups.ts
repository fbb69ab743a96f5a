/**
 * The "group by" choices every report offers for fields (GET /api/reports/...?group_by=field:...): the dropdown and
 * radio buttons fields of sites and of contractors, custom ones included, by their names. The server labels each
 * group with the choice's label (src/server/reports/field-groups.ts).
 */
import { useCanAccess } from 'react-admin';
import { useLiveSchema } from '../records/hooks';
import type { RecordSchema } from '../records/schema';

/** Choice fields a report groups by: dropdowns (one value or several) and radio buttons, not lists kept elsewhere (site types). */
function choiceFields(schema: RecordSchema | undefined) {
  return (schema?.fields ?? []).filter((field) => (field.type === 'dropdown' || field.type === 'radios') && !field.options?.choices_from);
}

/**
 * `[group_by, label]` for each choice field of sites and contractors. `own`: the report's own records (their fields
 * are named plainly, as `field:{slug}`); the other type's fields say whose they are ("Contractor: Size").
 */
export function useFieldGroups(own: 'site' | null): Array<[string, string]> {
  const sites = useLiveSchema('sites');
  const contractors = useLiveSchema('contractors');
  const { canAccess: readsContractors } = useCanAccess({ resource: 'contractors', action: 'list' });
  const siteGroups = choiceFields(sites).map((field): [string, string] => (own === 'site' ? [`field:${field.slug}`, field.name] : [`field:site.${field.slug}`, `Site: ${field.name}`]));
  const contractorGroups = readsContractors ? choiceFields(contractors).map((field): [string, string] => [`field:contractor.${field.slug}`, `Contractor: ${field.name}`]) : [];
  return [...siteGroups, ...contractorGroups];
}
