/**
 * The list's one filter entry point (issue 32): a builder of conditions joined by all or any, with groups of their
 * own (one level of nesting), each field's operators (views/filterBuilder.ts), relative dates and conditions on a
 * related record's fields ("General contractor › Type is Union"). It writes the view filter structure into the list's
 * `filters` value, which the data provider sends as `filters=` and a saved view keeps (docs/views.md).
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import FilterListIcon from '@mui/icons-material/FilterList';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useGetList, useListContext } from 'react-admin';
import { useMainData } from '../app/hooks';
import { describeField, type FieldDescriptor } from '../records/fieldTypes/describe';
import { recordLabel } from '../records/label';
import { schemaForType } from '../records/schema';
import {
  applyBuilderState,
  type BuilderCondition,
  type BuilderGroup,
  type BuilderState,
  builderStateOf,
  countConditions,
  isBuilderGroup,
  listValuesAsConditions,
  type OperatorChoice,
  operatorsFor,
  RELATIVE_DATES,
  toFilterTree,
  type ValueInput,
} from './filterBuilder';

/** A field the builder offers: one of the type's own, or a related record's (`general_contractor_id.type`). */
interface Filterable {
  slug: string;
  label: string;
  descriptor: FieldDescriptor;
}

/** The type's fields and, for each link to one record type, that type's own fields other than links. */
function useFilterables(descriptors: FieldDescriptor[]): Filterable[] {
  const { schemas } = useMainData();
  return useMemo(() => {
    const own = descriptors.map((descriptor) => ({ slug: descriptor.slug, label: descriptor.label, descriptor }));
    const related = descriptors.flatMap((descriptor) => {
      const reference = descriptor.reference;
      if (reference?.value !== 'id') return [];
      const target = schemaForType(schemas, reference.target);
      if (!target) return [];
      return target.fields
        .map((field) => describeField(field))
        .filter((field) => !field.reference && field.type !== 'attachment')
        .map((field) => ({
          slug: `${descriptor.slug}.${field.slug}`,
          label: `${descriptor.label} › ${field.label}`,
          descriptor: field,
        }));
    });
    return [...own, ...related];
  }, [descriptors, schemas]);
}

interface FilterBuilderProps {
  descriptors: FieldDescriptor[];
  /** Filter values other controls own (the search `q`, a category tab's `type`): left as they are. */
  kept: ReadonlySet<string>;
}

export function FilterBuilderButton({ descriptors, kept }: FilterBuilderProps) {
  const { filterValues } = useListContext();
  const [open, setOpen] = useState(false);
  const fields = useMemo(() => new Set(descriptors.map((descriptor) => descriptor.slug)), [descriptors]);
  const values = filterValues ?? {};
  const count = countConditions(values.filters) + listValuesAsConditions(values, kept, fields).length;
  return (
    <>
      <Button size="small" startIcon={<FilterListIcon />} onClick={() => setOpen(true)} aria-haspopup="dialog">
        {count ? `Filters (${count})` : 'Filter'}
      </Button>
      {open && (
        <FilterBuilderDialog descriptors={descriptors} kept={kept} fields={fields} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function FilterBuilderDialog({
  descriptors,
  kept,
  fields,
  onClose,
}: FilterBuilderProps & { fields: ReadonlySet<string>; onClose: () => void }) {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const filterables = useFilterables(descriptors);
  const bySlug = useMemo(() => new Map(filterables.map((entry) => [entry.slug, entry])), [filterables]);
  const [state, setState] = useState<BuilderState>(() => builderStateOf(filterValues ?? {}, kept, fields));
  const choiceOf = (condition: BuilderCondition): OperatorChoice | undefined => {
    const entry = bySlug.get(condition.field);
    return entry ? operatorsFor(entry.descriptor).find((choice) => choice.op === condition.op) : undefined;
  };
  const inputOf = (condition: BuilderCondition) => choiceOf(condition)?.input;
  const blank = (): BuilderCondition => {
    const first = filterables[0];
    return { field: first?.slug ?? '', op: first ? operatorsFor(first.descriptor)[0].op : '' };
  };

  const apply = (next: BuilderState) => {
    setFilters(applyBuilderState(filterValues ?? {}, kept, toFilterTree(next, inputOf)), displayedFilters);
    onClose();
  };

  const rows = (items: BuilderCondition[], change: (items: BuilderCondition[]) => void) =>
    items.map((condition, index) => (
      <ConditionRow
        key={index}
        condition={condition}
        filterables={filterables}
        entry={bySlug.get(condition.field)}
        onChange={(next) => change(items.map((item, at) => (at === index ? next : item)))}
        onRemove={() => change(items.filter((_, at) => at !== index))}
      />
    ));

  const setItems = (items: BuilderState['items']) => setState({ ...state, items });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="filter-builder-title">
      <DialogTitle id="filter-builder-title">Filter</DialogTitle>
      <DialogContent>
        <JoinSelect
          label="Show records matching"
          value={state.join}
          onChange={(join) => setState({ ...state, join })}
        />
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mt: 1 }}>
          {state.items.map((item, index) =>
            isBuilderGroup(item) ? (
              <GroupBox
                key={index}
                index={index}
                group={item}
                onChange={(group) => setItems(state.items.map((other, at) => (at === index ? group : other)))}
                onRemove={() => setItems(state.items.filter((_, at) => at !== index))}
                onAdd={() =>
                  setItems(
                    state.items.map((other, at) =>
                      at === index ? { ...item, items: [...item.items, blank()] } : other,
                    ),
                  )
                }
              >
                {rows(item.items, (items) =>
                  setItems(state.items.map((other, at) => (at === index ? { ...item, items } : other))),
                )}
              </GroupBox>
            ) : (
              rows([item], ([next]) =>
                setItems(
                  next
                    ? state.items.map((other, at) => (at === index ? next : other))
                    : state.items.filter((_, at) => at !== index),
                ),
              )
            ),
          )}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
          <Button size="small" startIcon={<AddIcon />} onClick={() => setItems([...state.items, blank()])}>
            Add condition
          </Button>
          <Button
            size="small"
            startIcon={<AddIcon />}
            onClick={() => setItems([...state.items, { join: state.join === 'all' ? 'any' : 'all', items: [blank()] }])}
          >
            Add group
          </Button>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => apply({ join: 'all', items: [] })}>Clear</Button>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => apply(state)}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function JoinSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: 'all' | 'any';
  onChange: (join: 'all' | 'any') => void;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as 'all' | 'any')}
      sx={{ minWidth: 220, mt: 1 }}
    >
      <MenuItem value="all">all of these</MenuItem>
      <MenuItem value="any">any of these</MenuItem>
    </TextField>
  );
}

function GroupBox({
  index,
  group,
  onChange,
  onRemove,
  onAdd,
  children,
}: {
  index: number;
  group: BuilderGroup;
  onChange: (group: BuilderGroup) => void;
  onRemove: () => void;
  onAdd: () => void;
  children: React.ReactNode;
}) {
  return (
    <Box
      role="group"
      aria-label={`Group ${index + 1}`}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        p: 1,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <JoinSelect label="Group matching" value={group.join} onChange={(join) => onChange({ ...group, join })} />
        <IconButton aria-label={`Remove group ${index + 1}`} onClick={onRemove}>
          <DeleteIcon />
        </IconButton>
      </Box>
      {children}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={onAdd}>
          Add condition to the group
        </Button>
      </Box>
    </Box>
  );
}

function ConditionRow({
  condition,
  filterables,
  entry,
  onChange,
  onRemove,
}: {
  condition: BuilderCondition;
  filterables: Filterable[];
  entry: Filterable | undefined;
  onChange: (condition: BuilderCondition) => void;
  onRemove: () => void;
}) {
  const operators = entry ? operatorsFor(entry.descriptor) : [];
  const choice = operators.find((operator) => operator.op === condition.op);
  return (
    <Box role="group" aria-label="Condition" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <TextField
        select
        size="small"
        label="Field"
        value={entry ? condition.field : ''}
        onChange={(event) => {
          const next = filterables.find((other) => other.slug === event.target.value);
          onChange({ field: event.target.value, op: next ? operatorsFor(next.descriptor)[0].op : '' });
        }}
        sx={{ minWidth: 180 }}
        helperText={entry ? undefined : condition.field ? `No field "${condition.field}"` : undefined}
      >
        {filterables.map((other) => (
          <MenuItem key={other.slug} value={other.slug}>
            {other.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Operator"
        value={choice ? condition.op : ''}
        onChange={(event) => onChange({ field: condition.field, op: event.target.value })}
        sx={{ minWidth: 140 }}
      >
        {operators.map((operator) => (
          <MenuItem key={operator.op} value={operator.op}>
            {operator.label}
          </MenuItem>
        ))}
      </TextField>
      {entry && choice && (
        <ValueField
          input={choice.input}
          descriptor={entry.descriptor}
          value={condition.value}
          onChange={(value) => onChange({ ...condition, value })}
        />
      )}
      <IconButton aria-label="Remove condition" onClick={onRemove}>
        <DeleteIcon />
      </IconButton>
    </Box>
  );
}

function ValueField({
  input,
  descriptor,
  value,
  onChange,
}: {
  input: ValueInput;
  descriptor: FieldDescriptor;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const text = (props: { label?: string; type?: string; value: unknown; onChange: (value: string) => void }) => (
    <TextField
      size="small"
      label={props.label ?? 'Value'}
      type={props.type}
      value={props.value ?? ''}
      onChange={(event) => props.onChange(event.target.value)}
      slotProps={props.type === 'date' ? { inputLabel: { shrink: true } } : undefined}
      sx={{ minWidth: 140 }}
    />
  );
  const number = (raw: string) => (raw === '' ? '' : Number(raw));
  const pair = Array.isArray(value) ? value : ['', ''];
  switch (input) {
    case 'none':
      return null;
    case 'number':
      return text({ type: 'number', value, onChange: (raw) => onChange(number(raw)) });
    case 'date':
      return text({ type: 'date', value, onChange });
    case 'number-range':
    case 'date-range': {
      const type = input === 'date-range' ? 'date' : 'number';
      const read = (raw: string) => (type === 'number' ? number(raw) : raw);
      return (
        <>
          {text({ label: 'From', type, value: pair[0], onChange: (raw) => onChange([read(raw), pair[1]]) })}
          {text({ label: 'To', type, value: pair[1], onChange: (raw) => onChange([pair[0], read(raw)]) })}
        </>
      );
    }
    case 'relative':
      return (
        <Options
          label="When"
          value={value}
          onChange={onChange}
          options={RELATIVE_DATES.map(([id, name]) => ({ id, name }))}
        />
      );
    case 'boolean':
      return (
        <Options
          label="Value"
          value={value}
          onChange={onChange}
          options={[
            { id: true, name: 'Yes' },
            { id: false, name: 'No' },
          ]}
        />
      );
    case 'choice':
    case 'choices':
      return (
        <Options
          label="Value"
          value={value}
          onChange={onChange}
          options={descriptor.choices}
          multiple={input === 'choices'}
        />
      );
    case 'reference':
    case 'references':
      return (
        <ReferenceOptions
          resource={descriptor.reference?.resource ?? ''}
          value={value}
          onChange={onChange}
          multiple={input === 'references'}
        />
      );
    default:
      return text({ value, onChange });
  }
}

function ReferenceOptions(props: {
  resource: string;
  value: unknown;
  onChange: (value: unknown) => void;
  multiple: boolean;
}) {
  const { data = [] } = useGetList(props.resource, {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'id', order: 'ASC' },
  });
  const options = data.map((record) => ({ id: record.id as number, name: recordLabel(record) }));
  return <Options label="Value" {...props} options={options} />;
}

function Options({
  label,
  value,
  onChange,
  options,
  multiple = false,
}: {
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  options: ReadonlyArray<{ id: string | number | boolean; name: string }>;
  multiple?: boolean;
}) {
  // Select values are text: each option is found again by its text.
  const byText = new Map(options.map((option) => [String(option.id), option.id]));
  const shown = multiple ? (Array.isArray(value) ? value.map(String) : []) : value === undefined ? '' : String(value);
  return (
    <TextField
      select
      size="small"
      label={label}
      value={shown}
      onChange={(event) => {
        const raw = event.target.value as unknown;
        onChange(Array.isArray(raw) ? raw.map((item) => byText.get(String(item))) : byText.get(String(raw)));
      }}
      slotProps={{ select: { multiple } }}
      sx={{ minWidth: 160 }}
    >
      {options.map((option) => (
        <MenuItem key={String(option.id)} value={String(option.id)}>
          {option.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
