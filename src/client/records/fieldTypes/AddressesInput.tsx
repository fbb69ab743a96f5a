/** Addresses (SPEC section 3): a list of labelled postal addresses. Loaded on demand. */
import { ArrayInput, SimpleFormIterator, TextInput } from 'react-admin';
import type { FieldDescriptor } from './describe';

export default function AddressesInput({ descriptor }: { descriptor: FieldDescriptor }) {
  return (
    <ArrayInput source={descriptor.slug} label={descriptor.label} helperText={descriptor.help ?? false}>
      <SimpleFormIterator inline disableReordering>
        <TextInput source="label" label="Label" helperText={false} sx={{ width: 140 }} />
        <TextInput source="street" label="Street" helperText={false} />
        <TextInput source="city" label="City" helperText={false} />
        <TextInput source="county" label="County" helperText={false} />
        <TextInput source="state" label="State" helperText={false} sx={{ width: 100 }} />
        <TextInput source="postal_code" label="Postal code" helperText={false} sx={{ width: 130 }} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}
