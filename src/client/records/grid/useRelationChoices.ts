/**
 * The records each single relation of a list may point at (site statuses, phases, a contractor...), as the
 * options of its in-place editor: the first 100 of the target in its default order, asked through the data provider once per
 * target. Targets with more records than that are edited on the record's form.
 */

import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDataProvider } from 'react-admin';
import type { FieldDescriptor } from '../fieldTypes';
import { recordLabel } from '../label';
import { isSingleRelation } from './columns';

const LIMIT = 100;

export type RelationChoices = Record<string, Array<{ value: unknown; label: string }>>;

export function useRelationChoices(descriptors: readonly FieldDescriptor[], enabled: boolean): RelationChoices {
  const dataProvider = useDataProvider();
  const relations = useMemo(() => descriptors.filter(isSingleRelation), [descriptors]);
  const results = useQueries({
    queries: relations.map((descriptor) => {
      const resource = descriptor.reference!.resource;
      return {
        queryKey: [
          resource,
          'getList',
          { pagination: { page: 1, perPage: LIMIT }, sort: { field: '', order: 'ASC' as const }, filter: {} },
        ],
        queryFn: () =>
          dataProvider.getList(resource, {
            pagination: { page: 1, perPage: LIMIT },
            sort: { field: '', order: 'ASC' },
            filter: {},
          }),
        enabled,
        staleTime: 60_000,
      };
    }),
  });
  const choices = useMemo(() => {
    const out: RelationChoices = {};
    relations.forEach((descriptor, index) => {
      const answer = results[index]?.data;
      if (answer && (answer.total ?? answer.data.length) <= LIMIT)
        out[descriptor.slug] = answer.data.map((record) => ({ value: record.id, label: recordLabel(record) }));
    });
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [relations, ...results.map((result) => result.data)]);
  // A target read again (a realtime event: someone saved their profile, a status was renamed) with the same names
  // keeps the same choices, so the grid's columns are not rebuilt under the person's hands.
  const key = JSON.stringify(choices);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => choices, [key]);
}
