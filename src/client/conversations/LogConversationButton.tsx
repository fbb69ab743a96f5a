/** "Log a conversation" with a person: the button and its two-tap dialog, for people who may log conversations. */
import ChatIcon from '@mui/icons-material/ChatOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import type { RaRecord } from 'react-admin';
import { useCanAccess } from 'react-admin';
import { LogConversationDialog } from './LogConversationDialog';
import type { ConversationContext, PersonRef } from './shared';

export function LogConversationButton({
  person,
  context,
  label = 'Log a conversation',
  size = 'medium',
  onLogged,
}: {
  person: PersonRef;
  context?: ConversationContext;
  label?: string;
  size?: 'small' | 'medium';
  onLogged?: (conversation: RaRecord) => void;
}) {
  const { canAccess } = useCanAccess({ resource: 'conversations', action: 'create' });
  const [open, setOpen] = useState(false);
  if (!canAccess) return null;
  return (
    <>
      <Button
        variant={size === 'small' ? 'text' : 'contained'}
        size={size}
        startIcon={<ChatIcon />}
        onClick={() => setOpen(true)}
        data-testid="log-conversation-button"
        sx={{ minHeight: size === 'small' ? undefined : 44 }}
      >
        {label}
      </Button>
      {open && (
        <LogConversationDialog
          open={open}
          person={person}
          context={context}
          onClose={() => setOpen(false)}
          onLogged={onLogged}
        />
      )}
    </>
  );
}
