/**
 * How each field type shows a value (show pages and list cells). Each type's view is a plain function of the value
 * (and of the record it belongs to, whose link names name its relations): list cells call it for their row with no
 * record context and no hook, and the display components read the value from the record context and call it.
 */

import AttachFileIcon from '@mui/icons-material/AttachFile';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import {
  ReferenceArrayField,
  ReferenceField,
  SingleFieldList,
  useCanAccess,
  useGetMany,
  useRecordContext,
  WithRecord,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { linkNamesOf } from '../../../common/link-names';
import { formatDate, formatDateTime } from '../../i18n/dates';
import { recordPath } from '../recordPath';
import { recordLabel } from '../schema';
import type { FieldDescriptor } from './describe';
import { addressLine, choiceLabel, formatNumber, socialNetwork } from './format';

export type DisplayVariant = 'show' | 'list';

/** The class of a relation's links in a list's cells; the list styles it. */
export const LIST_LINK = 'om-list-link';

export interface DisplayProps {
  descriptor: FieldDescriptor;
  variant?: DisplayVariant;
}

/** What a type's view is given: the value, the record it belongs to, how it is shown. */
export interface ValueProps {
  descriptor: FieldDescriptor;
  value: unknown;
  /** The record holding the value (a relation is named by its link names). */
  record?: Record<string, unknown>;
  variant: DisplayVariant;
  /** A relation's names link to their records (the caller checked once that the person may read them). */
  link?: boolean;
}

export type ValueView = (props: ValueProps) => ReactNode;

const empty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

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
      <Box
        component="span"
        sx={{
          width: 16,
          height: 16,
          borderRadius: 0.5,
          bgcolor: color,
          border: 1,
          borderColor: 'divider',
          display: 'inline-block',
        }}
      />
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
  const name = (list: any[], id: number | null | undefined) =>
    id ? recordLabel(list.find((item) => Number(item.id) === Number(id))) || `#${id}` : '';
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }} component="span">
      {value.map((item, index) => (
        <Chip
          key={`${item.contractor_id}-${index}`}
          size="small"
          label={
            item.trade_id
              ? `${name(contractors, item.contractor_id)} · ${name(trades, item.trade_id)}`
              : name(contractors, item.contractor_id)
          }
        />
      ))}
    </Stack>
  );
}

/**
 * A relation of a value that came without the names of its links (a revision's values, a map card): the linked
 * records are asked for.
 */
function LookedUpRelation({
  descriptor,
  value,
  variant,
}: {
  descriptor: FieldDescriptor;
  value: unknown;
  variant: DisplayVariant;
}) {
  const reference = descriptor.reference!;
  const { canAccess: readable } = useCanAccess({ resource: reference.resource, action: 'read' });
  const record = { id: 0, [descriptor.slug]: value };
  if (!readable) return <span>{Array.isArray(value) ? value.join(', ') : String(value)}</span>;
  if (descriptor.multiple) {
    return (
      <ReferenceArrayField record={record} source={descriptor.slug} reference={reference.resource}>
        <SingleFieldList linkType={variant === 'list' ? false : 'show'} sx={{ gap: 0.5, my: 0 }}>
          <WithRecord
            render={(item) => <Chip size="small" label={recordLabel(item)} clickable={variant !== 'list'} />}
          />
        </SingleFieldList>
      </ReferenceArrayField>
    );
  }
  return (
    <ReferenceField
      record={record}
      source={descriptor.slug}
      reference={reference.resource}
      link={variant === 'list' ? false : 'show'}
    >
      <WithRecord render={(item) => <span>{recordLabel(item)}</span>} />
    </ReferenceField>
  );
}

const values = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** A relation by the names its record carries: text, or links to the records; chips for several on a page. */
function NamedRelation({
  descriptor,
  value,
  names,
  variant,
  link,
}: {
  descriptor: FieldDescriptor;
  value: unknown;
  names: Record<string, string>;
  variant: DisplayVariant;
  link: boolean;
}) {
  const resource = descriptor.reference!.resource;
  const linked = values(value).flatMap((id) => (names[String(id)] ? [{ id, name: names[String(id)] }] : []));
  if (linked.length === 0) return <Empty variant={variant} />;
  if (descriptor.multiple && variant === 'show') {
    return (
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }} component="span">
        {linked.map(({ id, name }) =>
          link ? (
            <Chip
              key={String(id)}
              size="small"
              label={name}
              component={RouterLink}
              to={recordPath(resource, id)}
              clickable
            />
          ) : (
            <Chip key={String(id)} size="small" label={name} />
          ),
        )}
      </Stack>
    );
  }
  if (!link) return <span>{linked.map(({ name }) => name).join(', ')}</span>;
  // In a list, a plain link the list styles once (`LIST_LINK`): a Material Link per cell costs its styles each render.
  return (
    <span>
      {linked.map(({ id, name }, index) => (
        <span key={String(id)}>
          {index > 0 ? ', ' : null}
          {variant === 'list' ? (
            <RouterLink className={LIST_LINK} to={recordPath(resource, id)} onClick={stop}>
              {name}
            </RouterLink>
          ) : (
            <Link component={RouterLink} to={recordPath(resource, id)} underline="hover" onClick={stop}>
              {name}
            </Link>
          )}
        </span>
      ))}
    </span>
  );
}

const text = (value: unknown) => <span>{Array.isArray(value) ? value.join(', ') : String(value)}</span>;

export const TextValue: ValueView = ({ descriptor, value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  if (descriptor.number) return <span style={{ whiteSpace: 'nowrap' }}>{formatNumber(value, descriptor.number)}</span>;
  return text(value);
};

export const LongTextValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  return (
    <Typography
      component="span"
      variant="body2"
      sx={
        variant === 'list'
          ? {
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              maxWidth: 320,
            }
          : { whiteSpace: 'pre-wrap' }
      }
    >
      {String(value)}
    </Typography>
  );
};

export const EmailValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  return (
    <Link href={`mailto:${String(value)}`} onClick={stop}>
      {String(value)}
    </Link>
  );
};

export const PhoneValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  return (
    <Link href={`tel:${String(value).replace(/[^0-9+]/g, '')}`} onClick={stop} sx={{ whiteSpace: 'nowrap' }}>
      {String(value)}
    </Link>
  );
};

export const LinkValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  return <ExternalLink href={String(value)}>{String(value).replace(/^https?:\/\//, '')}</ExternalLink>;
};

export const SocialLinkValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  const network = socialNetwork(value);
  const path = String(value).replace(/^https?:\/\/(www\.)?[^/]+\/?/, '');
  return (
    <ExternalLink href={String(value)}>
      {network ? `${network.charAt(0).toUpperCase()}${network.slice(1)}${path ? `: ${path}` : ''}` : String(value)}
    </ExternalLink>
  );
};

export const DateValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  return <span style={{ whiteSpace: 'nowrap' }}>{formatDate(`${String(value).slice(0, 10)}T12:00:00`)}</span>;
};

export const DateTimeValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  return <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(String(value))}</span>;
};

export const BooleanValue: ValueView = ({ value, variant }) => {
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

export const ChoiceValue: ValueView = ({ descriptor, value, variant }) => {
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

export const ColorValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  return <Swatch color={String(value)} />;
};

export const AttachmentValue: ValueView = ({ value, variant }) => {
  if (empty(value)) return <Empty variant={variant} />;
  if (Array.isArray(value) && typeof value[0] === 'object') return <Files files={value as any[]} />;
  return <AttachmentIds ids={(Array.isArray(value) ? value : [value]).map(Number)} />;
};

export const AddressesValue: ValueView = ({ value, variant }) => {
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

/** A relation: by the names its record carries (lists, shows), else by asking for the linked records. */
export const RelationValue: ValueView = (props) => {
  const { descriptor, value, record, variant, link = false } = props;
  if (descriptor.withTrade)
    return empty(value) ? <Empty variant={variant} /> : <SiteContractors value={value as any[]} />;
  const reference = descriptor.reference;
  if (!reference) return TextValue(props);
  if (empty(value)) return <Empty variant={variant} />;
  if (reference.value === 'text') return text(value);
  const names = linkNamesOf(record);
  if (!names) return <LookedUpRelation descriptor={descriptor} value={value} variant={variant} />;
  return (
    <NamedRelation
      descriptor={descriptor}
      value={value}
      names={names[descriptor.slug] ?? {}}
      variant={variant}
      link={link}
    />
  );
};

/**
 * A type's display for a record context (show pages, cards): its view of the current record's value. On a page the
 * relations link to their records (the pages show only relations to records the person may read).
 */
export function displayOf(view: ValueView) {
  return function FieldTypeDisplay({ descriptor, variant = 'show' }: DisplayProps) {
    const record = useRecordContext();
    return <>{view({ descriptor, value: record?.[descriptor.slug], record, variant, link: variant === 'show' })}</>;
  };
}
