/**
 * Publish or edit a public form: a record type's form with the fields chosen by their labels, or an authorization
 * card for a campaign with its consent text. The server's 422 field errors are shown beside the fields.
 */
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { notOnPublicForms, type PublicForm } from '../../common/public-forms';
import { useMainData } from '../app/hooks';
import { isApiError } from '../http/errors';
import type { SchemaField } from '../system/types';
import { type PublicFormInput, usePublicFormsApi } from './api';
import { LinkOffers } from './LinkOffers';

export interface CampaignChoice {
  id: number;
  name: string;
}

const EMPTY: PublicFormInput = {
  title: '',
  slug: '',
  kind: 'card',
  record_type: 'contact',
  fields: [],
  offers: {},
  intro: '',
  thank_you: 'Thank you. We will be in touch.',
  consent_text: '',
  campaign_id: null,
  enabled: true,
};

const optionsOf = (field: SchemaField) => field.options as Record<string, unknown> | undefined;

/**
 * Fields a stranger could fill in: not computed or read-only (the server has the last word). Built-in fields (a
 * contact's names, phone, employer) count as much as the type's own: `internal` says where a field is defined. A kind
 * a stranger cannot fill in (a file, a link to several records) is offered disabled, with why.
 */
const fillable = (field: SchemaField) => !field.computed && !field.read_only && !field.readonly;

export function PublicFormDialog({
  form,
  campaigns,
  onClose,
  onSaved,
}: {
  form: PublicForm | null;
  campaigns: CampaignChoice[];
  onClose: () => void;
  onSaved: (form: PublicForm, created: boolean) => void;
}) {
  const api = usePublicFormsApi();
  const { schemas } = useMainData();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const [draft, setDraft] = useState<PublicFormInput>(() => (form ? { ...EMPTY, ...form } : EMPTY));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const card = draft.kind === 'card';
  const schema = schemas.find((candidate) => candidate.type === draft.record_type);
  const fields = (schema?.fields ?? []).filter(fillable);
  const chosen = draft.fields
    .map((slug) => fields.find((field) => field.slug === slug))
    .filter((field): field is SchemaField => Boolean(field));
  const links = chosen.filter((field) => field.type === 'relation');
  const set = (change: Partial<PublicFormInput>) => setDraft((current) => ({ ...current, ...change }));
  const error = (name: string) => ({ error: Boolean(errors[name]), helperText: errors[name] });

  const save = async () => {
    setSaving(true);
    setErrors({});
    setFailure(null);
    const body: PublicFormInput = {
      ...draft,
      slug: draft.slug.trim(),
      record_type: card ? 'campaign-card' : draft.record_type,
      fields: card ? [] : draft.fields,
      offers: card
        ? {}
        : Object.fromEntries(links.map((field) => [field.slug, draft.offers[field.slug] ?? { view_id: null }])),
      consent_text: card ? draft.consent_text : null,
      intro: draft.intro?.trim() ? draft.intro : null,
    };
    if (!body.slug) delete (body as Partial<PublicFormInput>).slug;
    try {
      onSaved(await api.save(form?.id ?? null, body), !form);
    } catch (caught) {
      const fieldErrors = isApiError(caught) ? (caught.body?.errors ?? {}) : {};
      setErrors(fieldErrors);
      // Field errors are shown beside their fields; the banner only says where to look (or what else went wrong).
      if (Object.keys(fieldErrors).length) setFailure('Some answers need another look: see the fields marked below.');
      else setFailure(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="public-form-title">
      <DialogTitle id="public-form-title">{form ? `Edit "${form.title}"` : 'Publish a form'}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          {failure && <Alert severity="error">{failure}</Alert>}
          <TextField
            label="Title"
            value={draft.title}
            onChange={(event) => set({ title: event.target.value })}
            required
            autoFocus
            {...error('title')}
          />
          <TextField
            label="Address"
            value={draft.slug}
            onChange={(event) => set({ slug: event.target.value })}
            error={Boolean(errors.slug)}
            helperText={errors.slug ?? `People open /f/${draft.slug || '(made from the title)'}`}
          />
          <TextField
            select
            label="What people fill in"
            value={draft.kind}
            onChange={(event) => set({ kind: event.target.value as PublicFormInput['kind'] })}
            {...error('kind')}
          >
            <MenuItem value="card">An authorization card</MenuItem>
            <MenuItem value="record">A record's form</MenuItem>
          </TextField>
          {!card && (
            <TextField
              select
              label="Record type"
              value={draft.record_type}
              onChange={(event) => set({ record_type: event.target.value, fields: [] })}
              {...error('record_type')}
            >
              {schemas.map((candidate) => (
                <MenuItem key={candidate.type} value={candidate.type}>
                  {candidate.name_singular || candidate.type}
                </MenuItem>
              ))}
            </TextField>
          )}
          {!card && (
            <Autocomplete
              multiple
              options={fields}
              value={chosen}
              getOptionLabel={(field) => field.name || field.slug}
              getOptionDisabled={(field) => Boolean(notOnPublicForms(field.type, optionsOf(field)))}
              renderOption={({ key, ...props }, field) => {
                const why = notOnPublicForms(field.type, optionsOf(field));
                return (
                  <li key={key} {...props}>
                    {why
                      ? `${field.name || field.slug} (cannot be on a public form: ${why})`
                      : field.name || field.slug}
                  </li>
                );
              }}
              isOptionEqualToValue={(option, value) => option.slug === value.slug}
              onChange={(_event, value) => set({ fields: value.map((field) => field.slug) })}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Fields shown, in order"
                  error={Boolean(errors.fields)}
                  helperText={
                    errors.fields ??
                    'Files cannot be on a public form. A link to other records offers only the names you choose below.'
                  }
                />
              )}
            />
          )}
          {!card && (
            <LinkOffers
              fields={links}
              schemas={schemas}
              offers={draft.offers}
              errors={errors}
              onChange={(offers) => set({ offers })}
            />
          )}
          <TextField
            select
            label="Campaign"
            value={draft.campaign_id ?? ''}
            onChange={(event) => set({ campaign_id: event.target.value === '' ? null : Number(event.target.value) })}
            required={card}
            error={Boolean(errors.campaign_id)}
            helperText={errors.campaign_id ?? (card ? 'Confirmed cards count toward it.' : 'Optional.')}
          >
            {!card && <MenuItem value="">None</MenuItem>}
            {campaigns.map((campaign) => (
              <MenuItem key={campaign.id} value={campaign.id}>
                {campaign.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Text above the form"
            value={draft.intro ?? ''}
            onChange={(event) => set({ intro: event.target.value })}
            multiline
            minRows={2}
            {...error('intro')}
          />
          {card && (
            <TextField
              label="Consent text"
              value={draft.consent_text ?? ''}
              onChange={(event) => set({ consent_text: event.target.value })}
              multiline
              minRows={3}
              required
              error={Boolean(errors.consent_text)}
              helperText={errors.consent_text ?? 'Shown above the signature and kept with every card as shown.'}
            />
          )}
          <TextField
            label="Thank-you text"
            value={draft.thank_you}
            onChange={(event) => set({ thank_you: event.target.value })}
            multiline
            minRows={2}
            required
            {...error('thank_you')}
          />
          <FormControlLabel
            control={<Switch checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} />}
            label={draft.enabled ? 'Open: anyone with the link can fill it in' : 'Closed: the link shows nothing'}
          />
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving}>
          {form ? 'Save' : 'Publish'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
