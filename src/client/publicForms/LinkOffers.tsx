/**
 * For each link field a public form shows (a sign-up's employer), which records its search box offers: all the
 * records of the linked type, or those of one of its saved views. Names only are shown to strangers, and only
 * these (docs/public-forms.md "Links to other records").
 */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useGetList } from 'react-admin';
import type { PublicFormOffers } from '../../common/public-forms';
import type { Schema, SchemaField } from '../system/types';

interface ViewChoice {
  id: number;
  name: string;
  record_type: string;
}

export function LinkOffers({
  fields,
  schemas,
  offers,
  errors,
  onChange,
}: {
  fields: SchemaField[];
  schemas: Schema[];
  offers: PublicFormOffers;
  errors: Record<string, string>;
  onChange: (offers: PublicFormOffers) => void;
}) {
  const { data: views = [] } = useGetList<ViewChoice>(
    'views',
    { pagination: { page: 1, perPage: 200 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: fields.length > 0 },
  );
  return fields.map((field) => {
    const target = String((field.options as { target?: unknown } | undefined)?.target ?? '');
    const linked = schemas.find((schema) => schema.type === target);
    const plural = (linked?.name_plural || target).toLowerCase();
    const offer = offers[field.slug]?.view_id ?? null;
    return (
      <TextField
        key={field.slug}
        select
        label={`${field.name}: names offered`}
        value={offer === null ? 'all' : String(offer)}
        onChange={(event) =>
          onChange({
            ...offers,
            [field.slug]: { view_id: event.target.value === 'all' ? null : Number(event.target.value) },
          })
        }
        error={Boolean(errors[`offers.${field.slug}`])}
        helperText={
          errors[`offers.${field.slug}`] ??
          'People type part of a name and pick it: only these names are shown, and only a name offered is accepted.'
        }
      >
        <MenuItem value="all">All {plural}</MenuItem>
        {views
          .filter((view) => view.record_type === target)
          .map((view) => (
            <MenuItem key={view.id} value={String(view.id)}>
              The view "{view.name}"
            </MenuItem>
          ))}
      </TextField>
    );
  });
}
