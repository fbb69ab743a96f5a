/**
 * Form inputs per field type (SPEC section 3). Heavy inputs (addresses, attachments, the site contractors list, head counts)
 * load on demand so forms without them stay light.
 */

import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { lazy, type ReactNode, Suspense } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  DateInput,
  DateTimeInput,
  email,
  FieldTitle,
  InputHelperText,
  maxValue,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  ReferenceArrayInput,
  ReferenceInput,
  regex,
  required,
  SelectArrayInput,
  SelectInput,
  TextInput,
  useCanAccess,
  useInput,
  type Validator,
} from 'react-admin';
import { recordLabel } from '../schema';
import type { FieldDescriptor } from './describe';
import { TextRelationInput } from './TextRelationInput';

const AddressesInput = lazy(() => import('./AddressesInput'));
const AttachmentInput = lazy(() => import('./AttachmentInput'));
const SiteContractorsInput = lazy(() => import('./SiteContractorsInput'));
const HeadCountInput = lazy(() => import('./HeadCountInput'));

export interface InputComponentProps {
  descriptor: FieldDescriptor;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const URL_PATTERN = /^https?:\/\/\S+$/i;
const PHONE = /^[0-9+().\-\s#x*ext]*$/i;

export function validatorsFor(descriptor: FieldDescriptor): Validator[] {
  const list: Validator[] = [];
  if (descriptor.required) list.push(required());
  switch (descriptor.type) {
    case 'email':
      list.push(email(`The ${descriptor.label.toLowerCase()} must be a valid email address.`));
      break;
    case 'slug':
      list.push(
        regex(
          SLUG,
          `The ${descriptor.label.toLowerCase()} may only hold lower-case letters, digits and single dashes.`,
        ),
      );
      break;
    case 'link':
    case 'social-link':
      list.push(
        regex(
          URL_PATTERN,
          `The ${descriptor.label.toLowerCase()} must be a valid link starting with http:// or https://.`,
        ),
      );
      break;
    case 'phone':
      list.push(
        regex(PHONE, `The ${descriptor.label.toLowerCase()} must be a phone number (digits, spaces, + - ( ) only).`),
      );
      break;
    case 'estimated-hours':
      list.push(minValue(0));
      break;
    case 'color':
      list.push(
        regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, `The ${descriptor.label.toLowerCase()} must be a colour like #1e88e5.`),
      );
      break;
  }
  return list;
}

const common = (descriptor: FieldDescriptor) => ({
  source: descriptor.slug,
  label: descriptor.label,
  helperText: (descriptor.help ?? false) as string | false,
  validate: validatorsFor(descriptor),
});

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Box sx={{ height: 56 }} />}>{children}</Suspense>;
}

/** Colour: a native picker beside the hex text. */
export function ColorInput({
  source,
  label,
  validate,
  helperText,
}: {
  source: string;
  label: string;
  validate?: Validator[];
  helperText?: string | false;
}) {
  const { field, fieldState, isRequired } = useInput({ source, validate });
  const value = typeof field.value === 'string' ? field.value : '';
  const pickerValue = /^#[0-9a-f]{6}$/i.test(value) ? value : '#1f5f8b';
  return (
    <TextField
      {...field}
      value={value}
      onChange={(event) => field.onChange(event.target.value || null)}
      size="small"
      margin="dense"
      label={<FieldTitle label={label} source={source} isRequired={isRequired} />}
      error={Boolean(fieldState.error)}
      helperText={<InputHelperText error={fieldState.error?.message} helperText={helperText || undefined} />}
      placeholder="#1e88e5"
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Box
                component="input"
                type="color"
                aria-label={`${label}: pick a colour`}
                value={pickerValue}
                onChange={(event: React.ChangeEvent<HTMLInputElement>) => field.onChange(event.target.value)}
                sx={{ width: 28, height: 28, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

function RelationInput({ descriptor }: InputComponentProps) {
  const reference = descriptor.reference!;
  const { canAccess: readable } = useCanAccess({ resource: reference.resource, action: 'read' });
  if (!readable) return null;
  const props = common(descriptor);
  if (reference.value === 'text') {
    return (
      <TextRelationInput
        source={descriptor.slug}
        optionsPath={reference.options}
        label={descriptor.label}
        validate={props.validate}
        helperText={descriptor.help}
      />
    );
  }
  if (descriptor.multiple) {
    return (
      <ReferenceArrayInput source={descriptor.slug} reference={reference.resource} perPage={25}>
        <AutocompleteArrayInput
          label={descriptor.label}
          optionText={recordLabel}
          filterToQuery={(q: string) => ({ q })}
          validate={props.validate}
          helperText={props.helperText}
          fullWidth
        />
      </ReferenceArrayInput>
    );
  }
  return (
    <ReferenceInput source={descriptor.slug} reference={reference.resource} perPage={25}>
      <AutocompleteInput
        label={descriptor.label}
        optionText={recordLabel}
        filterToQuery={(q: string) => ({ q })}
        validate={props.validate}
        helperText={props.helperText}
        fullWidth
      />
    </ReferenceInput>
  );
}

const numberAdornment = (descriptor: FieldDescriptor) =>
  descriptor.number === 'money' || descriptor.number === 'currency'
    ? { input: { startAdornment: <InputAdornment position="start">$</InputAdornment> } }
    : descriptor.number === 'hours'
      ? { input: { endAdornment: <InputAdornment position="end">h</InputAdornment> } }
      : undefined;

/** A number (a number field, or a text field whose `options.input` is number or money): its step and range. */
export function NumberFieldInput({ descriptor }: InputComponentProps) {
  const props = common(descriptor);
  const min = descriptor.min ?? (descriptor.number === 'money' ? 0 : undefined);
  const limits = [
    ...(min !== undefined ? [minValue(min)] : []),
    ...(descriptor.max !== undefined ? [maxValue(descriptor.max)] : []),
  ];
  return (
    <NumberInput
      {...props}
      step={descriptor.step ?? (descriptor.number === 'money' ? 1000 : 1)}
      validate={[...props.validate, ...limits]}
      slotProps={numberAdornment(descriptor)}
    />
  );
}

/** text (or a number when `options.input` is number or money). */
export function TextFieldInput({ descriptor }: InputComponentProps) {
  if (descriptor.number) return <NumberFieldInput descriptor={descriptor} />;
  return <TextInput {...common(descriptor)} />;
}
export const TextareaInput = ({ descriptor }: InputComponentProps) => (
  <TextInput {...common(descriptor)} multiline minRows={3} fullWidth />
);
export const NoteInput = ({ descriptor }: InputComponentProps) => (
  <TextInput {...common(descriptor)} multiline minRows={4} fullWidth />
);
export const EmailInput = ({ descriptor }: InputComponentProps) => <TextInput {...common(descriptor)} type="email" />;
export const PhoneInput = ({ descriptor }: InputComponentProps) => <TextInput {...common(descriptor)} type="tel" />;
export const LinkInput = ({ descriptor }: InputComponentProps) => (
  <TextInput {...common(descriptor)} type="url" placeholder="https://" />
);
export const SlugInput = ({ descriptor }: InputComponentProps) => (
  <TextInput {...common(descriptor)} placeholder="lower-case-with-dashes" />
);
export const DateFieldInput = ({ descriptor }: InputComponentProps) => <DateInput {...common(descriptor)} />;
export const DateTimeFieldInput = ({ descriptor }: InputComponentProps) => <DateTimeInput {...common(descriptor)} />;
export const BooleanFieldInput = ({ descriptor }: InputComponentProps) => (
  <BooleanInput {...common(descriptor)} validate={undefined} />
);
export const DropdownInput = ({ descriptor }: InputComponentProps) =>
  descriptor.multiple ? (
    <SelectArrayInput {...common(descriptor)} choices={descriptor.choices} />
  ) : (
    <SelectInput {...common(descriptor)} choices={descriptor.choices} emptyText="—" />
  );
export const RadiosInput = ({ descriptor }: InputComponentProps) => (
  <RadioButtonGroupInput
    {...common(descriptor)}
    choices={descriptor.choices}
    row={descriptor.orientation === 'horizontal'}
  />
);
export const ColorFieldInput = ({ descriptor }: InputComponentProps) => <ColorInput {...common(descriptor)} />;
export const HoursInput = ({ descriptor }: InputComponentProps) => {
  const props = common(descriptor);
  return (
    <NumberInput {...props} validate={[...props.validate, maxValue(1e11)]} slotProps={numberAdornment(descriptor)} />
  );
};
export const LazyAttachmentInput = ({ descriptor }: InputComponentProps) =>
  descriptor.readOnly ? null : (
    <Lazy>
      <AttachmentInput descriptor={descriptor} />
    </Lazy>
  );
export const LazyAddressesInput = ({ descriptor }: InputComponentProps) => (
  <Lazy>
    <AddressesInput descriptor={descriptor} />
  </Lazy>
);
export const LazyHeadCountInput = ({ descriptor }: InputComponentProps) => (
  <Lazy>
    <HeadCountInput descriptor={descriptor} />
  </Lazy>
);
/** Relations: searchable reference inputs (server search through `q`), the site contractors list, or text values. */
export function RelationFieldInput({ descriptor }: InputComponentProps) {
  if (descriptor.withTrade) {
    return (
      <Lazy>
        <SiteContractorsInput descriptor={descriptor} />
      </Lazy>
    );
  }
  return descriptor.reference ? <RelationInput descriptor={descriptor} /> : <TextInput {...common(descriptor)} />;
}
