/**
 * Who a task or a conversation's next step is for: a search-as-you-type list of people by name
 * (GET /api/assignees), which anyone who adds tasks may read, whether or not they read users' records.
 */
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useAppDataProvider } from '../records/hooks';

export interface Person {
  id: number;
  name: string;
}

export function AssigneePicker({
  value,
  onChange,
  label = 'Assignee',
  error,
  testId,
}: {
  value: Person | null;
  onChange: (person: Person | null) => void;
  label?: string;
  error?: string;
  testId?: string;
}) {
  const dataProvider = useAppDataProvider();
  const [q, setQ] = useState('');
  const { data = [] } = useQuery<Person[]>({
    queryKey: ['assignees', q],
    queryFn: async ({ signal }) => dataProvider.assignees(q, signal),
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
  const options = [...(value ? [value] : []), ...data.filter((option) => option.id !== value?.id)];
  return (
    <Autocomplete
      options={options}
      value={value}
      filterOptions={(list) => list}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, other) => option.id === other.id}
      // Only what the person types searches; the input resetting to the chosen name does not.
      onInputChange={(_event, text, reason) => reason === 'input' && setQ(text)}
      onChange={(_event, option) => onChange(option)}
      sx={{ minWidth: 200 }}
      data-testid={testId}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label={label}
          margin="none"
          sx={{ my: 0 }}
          error={Boolean(error)}
          helperText={error}
        />
      )}
    />
  );
}
