/** The lists conversations choose from (outcomes, assessment levels), in the administrator's order, and their names. */
import { useGetList } from 'react-admin';

export function useListInOrder(resource: 'conversation-outcomes' | 'assessment-levels') {
  return (
    useGetList(resource, {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'position', order: 'ASC' },
    }).data ?? []
  );
}

/** Slug -> name of a list's entries. */
export function useListNames(resource: 'conversation-outcomes' | 'assessment-levels'): Map<string, string> {
  return new Map(useListInOrder(resource).map((row) => [String(row.slug), String(row.name)]));
}
