/**
 * The "group by" choices every report offers for fields (GET /api/reports/...?group_by=field:...): the dropdown and
 * radio buttons fields of sites and of contractors, custom ones included, by their names. The server labels each
 * group with the choice's label (src/server/reports/field-groups.ts).
 */
import { useCanAccess } from 'react-admin';
import { fieldTypeModule } from '../../common/field-types';
import { useLiveSchema } from '../records/hooks';
import type { RecordSchema } from '../records/schema';

/** Choice fields a report groups by: dropdowns (one value or several) and radio buttons, not lists kept elsewhere (site types). */
function choiceFields(schema: RecordSchema | undefined) {
  return (schema?.fields ?? []).filter(
    (field) => fieldTypeModule(field.type).groupable && !field.options?.choices_from,
  );
}

/** "Shop Size" -> "shop size" after the type's name ("Contractor shop size"); acronyms stay as written. */
const inSentence = (name: string) => name.replace(/\b[A-Z][a-z]+\b/g, (word) => word.toLowerCase());

/**
 * `[group_by, label]` for each choice field of sites and contractors. `own`: the report's own records (their fields
 * are named plainly, as `field:{slug}`); the other type's fields say whose they are ("Contractor shop size").
 */
export function useFieldGroups(own: 'site' | null): Array<[string, string]> {
  const sites = useLiveSchema('sites');
  const contractors = useLiveSchema('contractors');
  const { canAccess: readsContractors } = useCanAccess({ resource: 'contractors', action: 'list' });
  const siteGroups = choiceFields(sites).map((field): [string, string] =>
    own === 'site'
      ? [`field:${field.slug}`, field.name]
      : [`field:site.${field.slug}`, `Site ${inSentence(field.name)}`],
  );
  const contractorGroups = readsContractors
    ? choiceFields(contractors).map((field): [string, string] => [
        `field:contractor.${field.slug}`,
        `Contractor ${inSentence(field.name)}`,
      ])
    : [];
  return [...siteGroups, ...contractorGroups];
}

/** The "Group by" picker's width: wide enough to read a field's name once one is chosen. */
export const groupPickerWidth = (groupBy: string) => (groupBy.startsWith('field:') ? 230 : undefined);
