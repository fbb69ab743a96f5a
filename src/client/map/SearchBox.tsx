/**
 * Jump to a site, a place (a city or postal code among the sites) or a region: /api/map/search as one types.
 */

import SearchIcon from '@mui/icons-material/Search';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import type { MapSearchHit as SearchHit } from '../../common/map-types';
import { useAppDataProvider } from '../records/hooks';

const KIND_LABEL: Record<SearchHit['kind'], string> = { site: 'Site', place: 'Place', region: 'Region' };

export function SearchBox({ onPick }: { onPick: (hit: SearchHit) => void }) {
  const dataProvider = useAppDataProvider();
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<SearchHit[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    const q = input.trim();
    if (q.length < 2) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      dataProvider
        .mapSearch(q, controller.signal)
        .then(setOptions)
        .catch(() => undefined)
        .finally(() => !controller.signal.aborted && setLoading(false));
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [dataProvider, input]);

  return (
    <Autocomplete
      size="small"
      options={options}
      loading={loading}
      filterOptions={(x) => x}
      forcePopupIcon={false}
      getOptionLabel={(o) => (typeof o === 'string' ? o : o.label)}
      inputValue={input}
      onInputChange={(_e, value, reason) => reason !== 'reset' && setInput(value)}
      onChange={(_e, hit) => {
        if (hit && typeof hit !== 'string') {
          onPick(hit);
          setInput(hit.label);
        }
      }}
      noOptionsText={input.trim().length < 2 ? 'Type a site, city, postal code or region' : 'Nothing found'}
      isOptionEqualToValue={(a, b) => a.kind === b.kind && a.label === b.label && a.id === b.id}
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={`${option.kind}-${option.id ?? option.label}-${key}`} {...rest}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" noWrap>
                {option.label}
              </Typography>
              <Typography variant="caption" color="text.secondary" noWrap component="div">
                {KIND_LABEL[option.kind]}
                {option.detail ? ` · ${option.detail}` : ''}
              </Typography>
            </Box>
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          variant="outlined"
          placeholder="Search sites, places, regions"
          sx={{
            bgcolor: 'background.paper',
            borderRadius: 1,
            boxShadow: 2,
            '& fieldset': { borderColor: 'transparent' },
          }}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': 'Search the map' },
            input: {
              ...params.slotProps.input,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
      sx={{ width: '100%' }}
    />
  );
}
