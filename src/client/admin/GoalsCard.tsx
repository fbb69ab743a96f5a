/** A user's monthly goals (calls, meetings, visits, recruits): for every month, or for one month. */

import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useRecordMutations } from '../records/mutations';

export const GOAL_KEYS = ['calls', 'meetings', 'visits', 'recruits'] as const;
type Goals = Record<string, Partial<Record<(typeof GOAL_KEYS)[number], number>>>;

export function currentMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/** The goals in force for a period: the month's own, else the default ones. */
export function goalsFor(
  goals: Goals | null | undefined,
  period: string,
): Partial<Record<(typeof GOAL_KEYS)[number], number>> {
  return { ...(goals?.default ?? {}), ...(period !== 'default' ? (goals?.[period] ?? {}) : {}) };
}

export function GoalsCard({ user, canEdit }: { user: any; canEdit: boolean }) {
  const { action } = useRecordMutations('users');
  const [scope, setScope] = useState<'default' | 'month'>('default');
  const [month, setMonth] = useState(currentMonth());
  const period = scope === 'default' ? 'default' : month;
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const current = goalsFor(user.goals, period);
    setValues(
      Object.fromEntries(GOAL_KEYS.map((key) => [key, current[key] === undefined ? '' : String(current[key])])),
    );
  }, [user.goals, period]);
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h3" component="h2" sx={{ mb: 1.5 }}>
          Goals
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 1.5 }}>
          <TextField
            select
            size="small"
            label="For"
            value={scope}
            onChange={(event) => setScope(event.target.value as 'default' | 'month')}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="default">Every month</MenuItem>
            <MenuItem value="month">One month</MenuItem>
          </TextField>
          {scope === 'month' && (
            <TextField
              size="small"
              type="month"
              label="Month"
              value={month}
              onChange={(event) => setMonth(event.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          )}
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {GOAL_KEYS.map((key) => (
            <TextField
              key={key}
              size="small"
              type="number"
              label={key.charAt(0).toUpperCase() + key.slice(1)}
              value={values[key] ?? ''}
              disabled={!canEdit}
              onChange={(event) => setValues({ ...values, [key]: event.target.value })}
              slotProps={{ htmlInput: { min: 0 } }}
              sx={{ maxWidth: { sm: 140 } }}
            />
          ))}
          {canEdit && (
            <Button
              variant="contained"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                const body: Record<string, unknown> = scope === 'month' ? { period: month } : {};
                for (const key of GOAL_KEYS)
                  if (values[key] !== '' && values[key] !== undefined) body[key] = Number(values[key]);
                await action(user.id, 'goals', body, 'Goals updated successfully.');
                setBusy(false);
              }}
            >
              Save goals
            </Button>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
