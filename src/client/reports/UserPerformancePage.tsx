/**
 * `/reports/user-performance`: each person's calls, meetings, visits and recruits in a month against their goals;
 * with `user:update`, the goals of the month (or the default goals) can be set here (POST /api/users/{id}/goals).
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import {
  GOAL_KEYS as KEYS,
  type GoalKey as Key,
  GOAL_LABELS as LABELS,
  type UserPerformanceRow as Row,
} from '../../common/report-types';
import { FigureLinkText } from '../insights/FigureLinkText';
import { FigureParts } from '../insights/FigureParts';
import { formatNumber, thisMonth } from '../insights/format';
import { INSIGHTS_KEY, useApi, useLiveRefresh } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';
import { type TableColumn, TableGrid } from '../records/grid/TableGrid';
import { useAppDataProvider } from '../records/hooks';
import { ReportPage, TeamFilter } from './ReportPage';

export default function UserPerformancePage() {
  const { values, set, query } = useUrlFilters({ month: thisMonth().month, team_id: '' });
  const report = useApi<{ data: Row[]; meta: { may_set_goals: boolean } }>('reports/user-performance', query);
  useLiveRefresh();
  const [editing, setEditing] = useState<Row | null>(null);
  const rows = report.data?.data ?? [];
  const maySetGoals = report.data?.meta.may_set_goals ?? false;
  const cell = (key: Key) => (row: Row) => (
    <Box sx={{ minWidth: 90 }}>
      <FigureLinkText link={row.links[key]} testId={`${key}-${row.user_id}`}>
        {formatNumber(row.done[key])}
      </FigureLinkText>
      <Typography component="span" variant="caption" color="text.secondary">
        {row.goals[key] !== null ? ` / ${formatNumber(row.goals[key])}` : ''}
      </Typography>
      {row.goals[key] ? (
        <LinearProgress
          variant="determinate"
          value={Math.min(100, row.progress[key] ?? 0)}
          aria-label={`${LABELS[key]}: ${formatNumber(row.done[key])} of ${formatNumber(row.goals[key])}`}
          sx={{ height: 4, borderRadius: 2 }}
        />
      ) : null}
      <FigureParts parts={row.parts[key]} />
    </Box>
  );
  const columns: TableColumn<Row>[] = [
    { header: 'Person', value: (row) => row.name },
    ...KEYS.map(
      (key): TableColumn<Row> => ({
        header: LABELS[key],
        value: (row) => row.done[key],
        format: (value, row) =>
          `${formatNumber(value as number)}${row.goals[key] !== null ? ` / ${formatNumber(row.goals[key])}` : ''}`,
        render: cell(key),
      }),
    ),
    ...(maySetGoals
      ? [
          {
            header: 'Goals',
            sortable: false,
            value: () => '',
            render: (row: Row) => (
              <Button size="small" onClick={() => setEditing(row)} data-testid={`set-goals-${row.user_id}`}>
                Set goals
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <ReportPage
      title="User performance"
      subtitle="Calls, meetings, visits and recruits in the month against each person's goals."
      csvPath="/api/reports/user-performance"
      query={query}
      error={report.error}
      filters={
        <>
          <TextField
            type="month"
            size="small"
            label="Month"
            value={values.month}
            onChange={(event) => set({ month: event.target.value })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'filter-month' } }}
            sx={{ width: 170 }}
          />
          <TeamFilter value={values.team_id} onChange={(team_id) => set({ team_id })} />
        </>
      }
    >
      {report.data && (
        <TableGrid
          testId="user-performance-table"
          label="User performance"
          fileName="user-performance"
          columns={columns}
          rows={rows}
          rowKey={(row) => String(row.user_id)}
        />
      )}
      {editing && <GoalsDialog row={editing} month={values.month} onClose={() => setEditing(null)} />}
    </ReportPage>
  );
}

function GoalsDialog({ row, month, onClose }: { row: Row; month: string; onClose: () => void }) {
  const [forDefault, setForDefault] = useState(false);
  const start = row.month_goals ?? row.default_goals;
  const [draft, setDraft] = useState<Record<Key, string>>(
    () => Object.fromEntries(KEYS.map((k) => [k, start?.[k] != null ? String(start[k]) : ''])) as Record<Key, string>,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      const body: Record<string, unknown> = forDefault ? {} : { period: month };
      for (const key of KEYS) if (draft[key] !== '') body[key] = Number(draft[key]);
      const answer = await dataProvider.action('users', { id: row.user_id, action: 'goals', data: body });
      notify(answer.meta?.message ?? 'Goals updated successfully.', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: [INSIGHTS_KEY] });
      onClose();
    } catch (error) {
      const body = (error as { body?: { errors?: Record<string, string> } }).body;
      setErrors(body?.errors ?? {});
      notify((error as Error).message || 'The goals could not be saved.', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Goals of {row.name}</DialogTitle>
      <DialogContent>
        <FormControlLabel
          control={
            <Switch
              checked={forDefault}
              onChange={(event) => {
                const next = event.target.checked;
                const from = next ? row.default_goals : (row.month_goals ?? row.default_goals);
                setForDefault(next);
                setDraft(
                  Object.fromEntries(KEYS.map((k) => [k, from?.[k] != null ? String(from[k]) : ''])) as Record<
                    Key,
                    string
                  >,
                );
              }}
            />
          }
          label="Default goals (months without their own)"
          sx={{ mb: 1 }}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {forDefault
            ? 'Used for every month that has no goals of its own.'
            : `For ${month}. Leave a field empty to use the default.`}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
          {KEYS.map((key) => (
            <TextField
              key={key}
              label={LABELS[key]}
              type="number"
              size="small"
              value={draft[key]}
              onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
              error={Boolean(errors[key])}
              helperText={errors[key]}
              slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': `goal-${key}` } }}
            />
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving} data-testid="save-goals">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
