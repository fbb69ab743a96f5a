/** List filters per field type: react-admin filter inputs whose sources follow the list query (docs/api.md). */
import type { ReactElement } from 'react';
import {
  AutocompleteInput,
  DateInput,
  NullableBooleanInput,
  NumberInput,
  ReferenceInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import { recordLabel } from '../schema';
import type { FieldDescriptor, FilterSpec } from './describe';
import { TextRelationInput } from './TextRelationInput';

/** A datetime 'to' date includes that whole day. */
const endOfDay = (value: string) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : value);

export function filterElement(
  descriptor: FieldDescriptor,
  spec: FilterSpec,
  options: { alwaysOn?: boolean } = {},
): ReactElement {
  const key = spec.source;
  const base = { source: spec.source, label: spec.label, alwaysOn: options.alwaysOn };
  switch (spec.kind) {
    case 'select':
      return <SelectInput key={key} {...base} choices={descriptor.choices} />;
    case 'boolean':
      return <NullableBooleanInput key={key} {...base} />;
    case 'date-from':
      return <DateInput key={key} {...base} />;
    case 'date-to':
      return descriptor.type === 'datetime' ? (
        <DateInput
          key={key}
          {...base}
          parse={endOfDay}
          format={(value: string) => (value ? String(value).slice(0, 10) : '')}
        />
      ) : (
        <DateInput key={key} {...base} />
      );
    case 'number-from':
    case 'number-to':
      return <NumberInput key={key} {...base} />;
    case 'has-value':
      return (
        <SelectInput
          key={key}
          {...base}
          label={descriptor.label}
          choices={[
            { id: 'false', name: 'Filled in' },
            { id: 'true', name: 'Empty' },
          ]}
        />
      );
    case 'reference': {
      const resource = descriptor.withTrade ? 'contractors' : descriptor.reference!.resource;
      return (
        <ReferenceInput key={key} {...base} reference={resource} perPage={25}>
          <AutocompleteInput
            label={spec.label}
            optionText={recordLabel}
            filterToQuery={(q: string) => ({ q })}
            sx={{ minWidth: 220 }}
          />
        </ReferenceInput>
      );
    }
    case 'reference-text':
      return <TextRelationInput key={key} {...base} optionsPath={descriptor.reference!.options} />;
    default:
      return <TextInput key={key} {...base} />;
  }
}
