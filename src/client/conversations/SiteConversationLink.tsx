/** "Log a conversation" at a site (the map's marker card): the site's Conversations tab, where its people are. */
import ChatIcon from '@mui/icons-material/ChatOutlined';
import Button, { type ButtonProps } from '@mui/material/Button';
import { useCanAccess } from 'react-admin';
import { useNavigate } from 'react-router-dom';

export function SiteConversationLink({ siteId, ...props }: { siteId: number } & Omit<ButtonProps, 'onClick'>) {
  const navigate = useNavigate();
  const { canAccess } = useCanAccess({ resource: 'conversations', action: 'create' });
  if (!canAccess) return null;
  return (
    <Button
      variant="outlined"
      startIcon={<ChatIcon />}
      onClick={() => navigate(`/sites/${siteId}/show?tab=conversations`)}
      data-testid="site-log-conversation"
      {...props}
    >
      Log a conversation
    </Button>
  );
}
