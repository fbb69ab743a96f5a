/** How each field type shows a value (show pages and list cells). */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { ReferenceArrayField, ReferenceField, SingleFieldList, useCanAccess, useGetMany, useRecordContext, WithRecord } from 'react-admin';
import { formatDate, formatDateTime } from '../../i18n/dates';
import { recordLabel } from '../schema';
import { addressLine, choiceLabel, formatNumber, socialNetwork, type FieldDescriptor } from './describe';

export type DisplayVariant = 'show' | 'list';

export interface DisplayProps {
  descriptor: FieldDescriptor;
  variant?: DisplayVariant;
}

const empty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

function Empty({ variant }: { variant: DisplayVariant }) {
  return variant === 'show' ? (
    <Typography component="span" variant="body2" color="text.disabled">
      —
    </Typography>
  ) : null;
}

const stop = (event: React.MouseEvent) => event.stopPropagation();

function ExternalLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" onClick={stop} sx={{ wordBreak: 'break-all' }}>
      {children}
    </Link>
  );
}

function Swatch({ color }: { color: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} component="span">
      <Box component="span" sx={{ width: 16, height: 16, borderRadius: 0.5, bgcolor: color, border: 1, borderColor: 'divider', display: 'inline-block' }} />
      <span>{color}</span>
    </Stack>
  );
}

function Files({ files }: { files: Array<{ id: number | string; file_name?: string; url?: string }> }) {
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }} component="span">
      {files.map((file) => (
        <Chip
          key={file.id}
          size="small"
          icon={<AttachFileIcon />}
          label={file.file_name ?? `File #${file.id}`}
          component="a"
          href={file.url ?? `/api/documents/${file.id}/download`}
          clickable
          onClick={stop}
        />
      ))}
    </Stack>
  );
}

function AttachmentIds({ ids }: { ids: number[] }) {
  const { data = [] } = useGetMany('attachments', { ids });
  const files = ids.map((id) => data.find((document) => Number(document.id) === id) ?? { id });
  return <Files files={files} />;
}

function SiteContractors({ value }: { value: Array<{ contractor_id: number; trade_id?: number | null }> }) {
  const contractorIds = [...new Set(value.map((item) => item.contractor_id))];
  const tradeIds = [...new Set(value.map((item) => item.trade_id).filter((id): id is number => Boolean(id)))];
  const { data: contractors = [] } = useGetMany('contractors', { ids: contractorIds });
  const { data: trades = [] } = useGetMany('trades', { ids: tradeIds }, { enabled: tradeIds.length > 0 });
  const name = (list: any[], id: number | null | undefined) => (id ? recordLabel(list.find((item) => Number(item.id) === Number(id))) || `#${id}` : '');
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }} component="span">
      {value.map((item, index) => (
        <Chip key={`${item.contractor_id}-${index}`} size="small" label={item.trade_id ? `${name(contractors, item.contractor_id)} · ${name(trades, item.trade_id)}` : name(contractors, item.contractor_id)} />
      ))}
    </Stack>
  );
}

function Relation({ descriptor, variant }: { descriptor: FieldDescriptor; variant: DisplayVariant }) {
  const reference = descriptor.reference!;
  const { canAccess: readable } = useCanAccess({ resource: reference.resource, action: 'read' });
  const record = useRecordContext();
  const value = record?.[descriptor.slug];
  if (empty(value)) return <Empty variant={variant} />;
  if (reference.value === 'text' || !readable) return <span>{Array.isArray(value) ? value.join(', ') : String(value)}</span>;
  if (descriptor.multiple) {
    return (
      <ReferenceArrayField source={descriptor.slug} reference={reference.resource}>
        <SingleFieldList linkType={variant === 'list' ? false : 'show'} sx={{ gap: 0.5, my: 0 }}>
          <WithRecord render={(item) => <Chip size="small" label={recordLabel(item)} clickable={variant !== 'list'} />} />
        </SingleFieldList>
      </ReferenceArrayField>
    );
  }
  return (
    <ReferenceField source={descriptor.slug} reference={reference.resource} link={variant === 'list' ? false : 'show'}>
      <WithRecord render={(item) => <span>{recordLabel(item)}</span>} />
    </ReferenceField>
  );
}

function useValue(descriptor: FieldDescriptor) {
  const record = useRecordContext();
  return record?.[descriptor.slug];
}

type Display = (props: DisplayProps) => React.ReactElement | null;

export const TextDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  if (descriptor.number) return <span style={{ whiteSpace: 'nowrap' }}>{formatNumber(value, descriptor.number)}</span>;
  return <span>{Array.isArray(value) ? value.join(', ') : String(value)}</span>;
};

export const LongTextDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  return (
    <Typography component="span" variant="body2" sx={variant === 'list' ? { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', maxWidth: 320 } : { whiteSpace: 'pre-wrap' }}>
      {String(value)}
    </Typography>
  );
};

export const EmailDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  return (
    <Link href={`mailto:${String(value)}`} onClick={stop}>
      {String(value)}
    </Link>
  );
};

export const PhoneDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  return (
    <Link href={`tel:${String(value).replace(/[^0-9+]/g, '')}`} onClick={stop} sx={{ whiteSpace: 'nowrap' }}>
      {String(value)}
    </Link>
  );
};

export const LinkDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  return <ExternalLink href={String(value)}>{String(value).replace(/^https?:\/\//, '')}</ExternalLink>;
};

export const SocialLinkDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  const network = socialNetwork(value);
  const path = String(value).replace(/^https?:\/\/(www\.)?[^/]+\/?/, '');
  return <ExternalLink href={String(value)}>{network ? `${network.charAt(0).toUpperCase()}${network.slice(1)}${path ? `: ${path}` : ''}` : String(value)}</ExternalLink>;
};

export const DateDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  return <span style={{ whiteSpace: 'nowrap' }}>{formatDate(`${String(value).slice(0, 10)}T12:00:00`)}</span>;
};

export const DateTimeDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  return <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(String(value))}</span>;
};

export const BooleanDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (value === null || value === undefined) return <Empty variant={variant} />;
  return value ? (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }} component="span">
      <CheckIcon fontSize="small" color="success" aria-hidden />
      <span>Yes</span>
    </Stack>
  ) : (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary' }} component="span">
      <CloseIcon fontSize="small" aria-hidden />
      <span>No</span>
    </Stack>
  );
};

export const ChoiceDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  if (Array.isArray(value)) {
    return (
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }} component="span">
        {value.map((item) => (
          <Chip key={String(item)} size="small" label={choiceLabel(descriptor, item)} />
        ))}
      </Stack>
    );
  }
  return <span>{choiceLabel(descriptor, value)}</span>;
};

export const ColorDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  return <Swatch color={String(value)} />;
};

export const AttachmentDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  if (Array.isArray(value) && typeof value[0] === 'object') return <Files files={value as any[]} />;
  return <AttachmentIds ids={(Array.isArray(value) ? value : [value]).map(Number)} />;
};

export const AddressesDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (empty(value)) return <Empty variant={variant} />;
  const list = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  return (
    <Stack component="span" spacing={0.25}>
      {list.map((address, index) => (
        <span key={index}>
          {typeof address.label === 'string' && address.label ? <strong>{address.label}: </strong> : null}
          {addressLine(address)}
        </span>
      ))}
    </Stack>
  );
};

export const RelationDisplay: Display = ({ descriptor, variant = 'show' }) => {
  const value = useValue(descriptor);
  if (descriptor.withTrade) return empty(value) ? <Empty variant={variant} /> : <SiteContractors value={value as any[]} />;
  if (!descriptor.reference) return <TextDisplay descriptor={descriptor} variant={variant} />;
  return <Relation descriptor={descriptor} variant={variant} />;
};
