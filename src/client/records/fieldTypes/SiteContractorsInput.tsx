/** A site's contractors, each with the craft it works (the `contractors` field, [{contractor_id, trade_id}]). Loaded on demand. */
import { ArrayInput, AutocompleteInput, ReferenceInput, required, SimpleFormIterator } from 'react-admin';
import { recordLabel } from '../schema';
import type { FieldDescriptor } from './describe';

export default function SiteContractorsInput({ descriptor }: { descriptor: FieldDescriptor }) {
  return (
    <ArrayInput source={descriptor.slug} label={descriptor.label} helperText={descriptor.help ?? false}>
      <SimpleFormIterator inline disableReordering>
        <ReferenceInput source="contractor_id" reference="contractors" perPage={25}>
          <AutocompleteInput
            label="Contractor"
            optionText={recordLabel}
            filterToQuery={(q: string) => ({ q })}
            validate={required()}
            helperText={false}
            sx={{ minWidth: 240 }}
          />
        </ReferenceInput>
        <ReferenceInput source="trade_id" reference="trades" perPage={50}>
          <AutocompleteInput
            label="Craft"
            optionText={recordLabel}
            filterToQuery={(q: string) => ({ q })}
            helperText={false}
            sx={{ minWidth: 200 }}
          />
        </ReferenceInput>
      </SimpleFormIterator>
    </ArrayInput>
  );
}
