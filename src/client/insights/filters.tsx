/** The filter widgets of the dashboard, the activity feed and the reports: a choice, a date, and the row that holds them. */

import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';

export function SelectFilter({
  label,
  value,
  onChange,
  options,
  allLabel = 'All',
  testId,
  minWidth = 150,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  allLabel?: string | null;
  testId?: string;
  minWidth?: number;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth={false}
      sx={{ minWidth, width: { xs: 'auto', sm: Math.max(minWidth, 180) }, flex: { xs: '1 1 140px', sm: '0 0 auto' } }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {allLabel !== null && <MenuItem value="">{allLabel}</MenuItem>}
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function DateFilter({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
}) {
  return (
    <TextField
      type="date"
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth={false}
      sx={{ width: { xs: 'calc(50% - 4px)', sm: 165 } }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    />
  );
}

/** A row of filters that wraps on a phone. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Stack
      direction="row"
      useFlexGap
      sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}
      data-testid="filters"
    >
      {children}
    </Stack>
  );
}
