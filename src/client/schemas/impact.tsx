/**
 * What a change to a record type will affect, asked of the server before it is saved (docs/records.md "Changing a
 * record type"): records whose values are archived, converted or remapped, logic blocks, importers and exports.
 * The editor shows the server's sentences and asks where each removed choice goes.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

export interface ChangeImpact {
  summary: string[];
  blocking: string[];
  records?: { live: number; trashed: number };
  /** A field change: the choices taken away that records hold (or the logic uses), how many, and where they go. */
  choices?: Array<{ value: string; label: string; records: number; in_logic?: boolean; mapped_to?: string | null }>;
  /** A relation pointed elsewhere while records hold values: how many, and what the administrator chose. */
  retarget?: { from: string; to: string; records: number; decided?: 'archive' | 'empty' } | null;
}

/** The impact's sentences; those that stand in the way first, as a warning. */
export function ImpactSummary({ impact }: { impact: ChangeImpact | null }) {
  if (!impact) return <Typography variant="body2">Working out what this changes…</Typography>;
  const others = impact.summary.filter((line) => !impact.blocking.includes(line));
  return (
    <Stack spacing={1} data-testid="change-impact">
      {impact.blocking.length > 0 && (
        <Alert severity="warning">
          {impact.blocking.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </Alert>
      )}
      {others.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {others.map((line) => (
            <Typography component="li" variant="body2" key={line}>
              {line}
            </Typography>
          ))}
        </Box>
      )}
    </Stack>
  );
}

/** For each removed choice records hold: which remaining choice (or empty) its records get. */
export function ChoiceMapping({
  impact,
  choices,
  value,
  onChange,
}: {
  impact: ChangeImpact;
  choices: Array<{ value: string; label: string }>;
  value: Record<string, string | null>;
  onChange: (next: Record<string, string | null>) => void;
}) {
  const removed = impact.choices ?? [];
  if (!removed.length) return null;
  return (
    <Stack spacing={1.5}>
      {removed.map((choice) => (
        <TextField
          key={choice.value}
          select
          size="small"
          label={
            choice.records
              ? `${choice.records.toLocaleString('en-US')} ${choice.records === 1 ? 'record holds' : 'records hold'} “${choice.label}”: change to`
              : `The logic compares with “${choice.label}”: compare with`
          }
          value={choice.value in value ? (value[choice.value] ?? '') : '__unset'}
          onChange={(event) =>
            onChange({ ...value, [choice.value]: event.target.value === '' ? null : event.target.value })
          }
          slotProps={{ htmlInput: { 'data-testid': `choice-map-${choice.value}` } }}
        >
          <MenuItem value="__unset" disabled>
            Choose…
          </MenuItem>
          <MenuItem value="">Empty</MenuItem>
          {choices.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      ))}
    </Stack>
  );
}

/** A relation pointed at other records while records hold values: archive those values or empty them. */
export function RetargetChoice({
  impact,
  value,
  onChange,
}: {
  impact: ChangeImpact;
  value: 'archive' | 'empty' | undefined;
  onChange: (next: 'archive' | 'empty') => void;
}) {
  if (!impact.retarget) return null;
  return (
    <TextField
      select
      size="small"
      label={`What happens to the ${impact.retarget.records.toLocaleString('en-US')} ${impact.retarget.from} records held`}
      value={value ?? '__unset'}
      onChange={(event) => onChange(event.target.value as 'archive' | 'empty')}
      slotProps={{ htmlInput: { 'data-testid': 'retarget' } }}
    >
      <MenuItem value="__unset" disabled>
        Choose…
      </MenuItem>
      <MenuItem value="archive">Archive them (listed on each record’s history)</MenuItem>
      <MenuItem value="empty">Empty them (each record’s history keeps the old value)</MenuItem>
    </TextField>
  );
}
