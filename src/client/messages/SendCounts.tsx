import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { MESSAGE_STATUS_LABELS, type MessageSend, type MessageStatus } from '../../common/messages';

/** In the order people care about: what went, what waits, what could not go and why. */
const ORDER: MessageStatus[] = ['sent', 'queued', 'sending', 'not_sent', 'opted_out', 'no_address', 'failed'];
const COLORS: Partial<Record<MessageStatus, 'success' | 'warning' | 'error' | 'default'>> = {
  sent: 'success',
  not_sent: 'warning',
  failed: 'error',
};

/** "Sent 40 · Waiting to send 12 · Opted out 2", as chips; with `onPick`, each chip picks its status. */
export function SendCounts({
  send,
  picked,
  onPick,
}: {
  send: MessageSend;
  picked?: MessageStatus | null;
  onPick?: (status: MessageStatus | null) => void;
}) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="message-counts">
      {ORDER.filter((status) => send.counts[status]).map((status) => (
        <Chip
          key={status}
          size="small"
          color={COLORS[status] ?? 'default'}
          variant={picked === status ? 'filled' : 'outlined'}
          label={`${MESSAGE_STATUS_LABELS[status]}: ${send.counts[status]!.toLocaleString('en-US')}`}
          {...(onPick ? { onClick: () => onPick(picked === status ? null : status) } : {})}
        />
      ))}
    </Stack>
  );
}
