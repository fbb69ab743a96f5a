/**
 * The list's sorts (issue 32): several fields, each ascending or descending, the first deciding first (views/listSorts.ts
 * keeps them in react-admin's one sort and the URL; the server sorts: docs/api.md "Several sorts"). A click on a
 * column's header still sorts by that column alone.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import SortIcon from '@mui/icons-material/Sort';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useListContext } from 'react-admin';
import type { FieldDescriptor } from '../records/fieldTypes/describe';
import { listSortOf, MAX_SORTS, type SortItem, sortsOf } from './listSorts';

export function SortButton({ descriptors }: { descriptors: FieldDescriptor[] }) {
  const { sort } = useListContext();
  const [open, setOpen] = useState(false);
  const count = sortsOf(sort).length;
  return (
    <>
      <Button size="small" startIcon={<SortIcon />} onClick={() => setOpen(true)} aria-haspopup="dialog">
        {count > 1 ? `Sorted by ${count}` : 'Sort'}
      </Button>
      {open && <SortDialog descriptors={descriptors} onClose={() => setOpen(false)} />}
    </>
  );
}

function SortDialog({ descriptors, onClose }: { descriptors: FieldDescriptor[]; onClose: () => void }) {
  const { sort, setSort } = useListContext();
  const sortable = descriptors.filter((descriptor) => descriptor.sortable);
  const [sorts, setSorts] = useState<SortItem[]>(() => sortsOf(sort));
  const change = (index: number, next: Partial<SortItem>) =>
    setSorts(sorts.map((item, at) => (at === index ? { ...item, ...next } : item)));
  const unused = sortable.find((descriptor) => !sorts.some((item) => item.field === descriptor.slug));
  const apply = (next: SortItem[]) => {
    setSort(listSortOf(next));
    onClose();
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="sort-title">
      <DialogTitle id="sort-title">Sort</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mt: 1 }}>
          {sorts.map((item, index) => (
            <Box
              key={index}
              role="group"
              aria-label={index === 0 ? 'Sort by' : 'Then by'}
              sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
            >
              <TextField
                select
                size="small"
                label={index === 0 ? 'Sort by' : 'Then by'}
                value={sortable.some((descriptor) => descriptor.slug === item.field) ? item.field : ''}
                helperText={
                  sortable.some((descriptor) => descriptor.slug === item.field) ? undefined : `No field "${item.field}"`
                }
                onChange={(event) => change(index, { field: event.target.value })}
                sx={{ minWidth: 180 }}
              >
                {sortable.map((descriptor) => (
                  <MenuItem key={descriptor.slug} value={descriptor.slug}>
                    {descriptor.label}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                size="small"
                label="Order"
                value={item.order}
                onChange={(event) => change(index, { order: event.target.value as SortItem['order'] })}
                sx={{ minWidth: 140 }}
              >
                <MenuItem value="asc">Ascending</MenuItem>
                <MenuItem value="desc">Descending</MenuItem>
              </TextField>
              <IconButton
                aria-label={`Remove sort ${index + 1}`}
                onClick={() => setSorts(sorts.filter((_, at) => at !== index))}
              >
                <DeleteIcon />
              </IconButton>
            </Box>
          ))}
        </Box>
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={sorts.length >= MAX_SORTS || !unused}
          onClick={() => unused && setSorts([...sorts, { field: unused.slug, order: 'asc' }])}
          sx={{ mt: 1 }}
        >
          {sorts.length ? 'Add another sort' : 'Add a sort'}
        </Button>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => apply([])}>Clear</Button>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => apply(sorts)}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
