import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { type FigureLink, FigureLinkText } from './FigureLinkText';
import { formatNumber } from './format';

export interface FigurePart {
  key: string;
  label: string;
  value: number;
  link: FigureLink;
}

/**
 * What a figure adds up when it counts rows of more than one list (visit tasks done and site visits logged), each
 * opening its list: the same parts on the dashboard and in the reports (server: measures/person-work.ts).
 */
export function FigureParts({ parts, testId }: { parts: readonly FigurePart[] | undefined; testId?: string }) {
  const counted = (parts ?? []).filter((part) => part.value > 0);
  if (counted.length < 2) return null;
  return (
    <Typography component="p" variant="caption" color="text.secondary" data-testid={testId}>
      {counted.map((part, index) => (
        <Fragment key={part.key}>
          {index > 0 && ' + '}
          <FigureLinkText link={part.link}>{formatNumber(part.value)}</FigureLinkText> {part.label.toLowerCase()}
        </Fragment>
      ))}
    </Typography>
  );
}
