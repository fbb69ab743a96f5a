/**
 * The assistant in the side panel, over whatever page is open (SPEC section 2 side panel): the conversation's title,
 * New conversation, All conversations (/assistant), and the chat. Loaded on demand when first opened.
 */

import AddCommentIcon from '@mui/icons-material/AddCommentOutlined';
import ListIcon from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import type { Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useGetOne } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { THREADS, type Thread } from './api';
import { Chat } from './Chat';
import { assistantPanel, useAssistantPanel } from './panelStore';

export default function AssistantPanel() {
  const { threadId } = useAssistantPanel();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const { data: thread } = useGetOne<Thread>(THREADS, { id: threadId ?? 0 }, { enabled: threadId !== null });
  // On a small screen the panel covers the page: following a link closes it so the record shows.
  const onNavigate = small ? () => assistantPanel.close() : undefined;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 1 }}>
        <Typography variant="subtitle2" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="assistant-thread-title">
          {threadId !== null && thread ? thread.title : 'New conversation'}
        </Typography>
        <Tooltip title="New conversation">
          <IconButton size="small" onClick={() => assistantPanel.show(null)} aria-label="New conversation">
            <AddCommentIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="All conversations">
          <IconButton
            size="small"
            component={RouterLink}
            to="/assistant"
            onClick={() => assistantPanel.close()}
            aria-label="All conversations"
          >
            <ListIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      <Chat
        key={threadId ?? 'new'}
        threadId={threadId}
        onThread={(id) => assistantPanel.show(id)}
        onNavigate={onNavigate}
      />
    </Box>
  );
}
