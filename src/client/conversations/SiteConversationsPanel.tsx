/**
 * A site's Conversations tab: the people of the site (its contacts, and the recruits signed up there), each with "Log
 * a conversation" (the site is kept on it), and the conversations had about the site, newest first.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGetList, useGetMany, useRecordContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { linkNamesOf } from '../../common/link-names';
import { formatDateTime } from '../i18n/dates';
import { recordLabel } from '../records/label';
import { LogConversationButton } from './LogConversationButton';
import { useListNames } from './lists';
import { channelName, type PersonRef } from './shared';

export function SiteConversationsPanel({ siteId }: { siteId: number }) {
  const site = useRecordContext();
  const contactIds: number[] = Array.isArray(site?.contact_ids) ? site.contact_ids : [];
  const { data: contacts = [] } = useGetMany('contacts', { ids: contactIds }, { enabled: contactIds.length > 0 });
  const { data: recruits = [] } = useGetList('recruits', {
    filter: { site_id: siteId },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'last_name', order: 'ASC' },
  });
  const { data: conversations = [], isPending } = useGetList('conversations', {
    filter: { site_id: siteId },
    pagination: { page: 1, perPage: 50 },
    sort: { field: 'had_at', order: 'DESC' },
  });
  const outcomes = useListNames('conversation-outcomes');
  const people: Array<PersonRef & { phone?: string }> = [
    ...contacts.map((c) => ({ type: 'contact' as const, id: Number(c.id), name: recordLabel(c), phone: c.phone })),
    ...recruits.map((r) => ({ type: 'recruit' as const, id: Number(r.id), name: recordLabel(r), phone: r.phone })),
  ];
  return (
    <Stack spacing={3} data-testid="site-conversations">
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          People at this site
        </Typography>
        {!people.length && (
          <Typography color="text.secondary">
            No contacts or recruits at this site yet: add a contact on the Details tab to log conversations.
          </Typography>
        )}
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {people.map((person) => (
            <Stack
              component="li"
              key={`${person.type}-${person.id}`}
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center', py: 0.75, borderBottom: 1, borderColor: 'divider' }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography component={RouterLink} to={`/${person.type}s/${person.id}/show?tab=timeline`} noWrap>
                  {person.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {person.type === 'contact' ? 'Contact' : 'Recruit'}
                  {person.phone ? ` · ${person.phone}` : ''}
                </Typography>
              </Box>
              <LogConversationButton person={person} context={{ site_id: siteId }} label="Log" size="small" />
            </Stack>
          ))}
        </Box>
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Conversations here
        </Typography>
        {!isPending && !conversations.length && <Typography color="text.secondary">None yet.</Typography>}
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {conversations.map((conversation) => {
            const names = linkNamesOf(conversation);
            const who =
              names?.contact_id?.[conversation.contact_id] ??
              names?.recruit_id?.[conversation.recruit_id] ??
              names?.member_id?.[conversation.member_id];
            return (
              <Box component="li" key={conversation.id} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
                <Typography variant="caption" color="text.secondary" component="div">
                  {formatDateTime(conversation.had_at)}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography>
                    {channelName(conversation.channel)}
                    {who ? ` with ${who}` : ''}
                  </Typography>
                  {conversation.outcome && (
                    <Chip size="small" label={outcomes.get(conversation.outcome) ?? conversation.outcome} />
                  )}
                </Stack>
              </Box>
            );
          })}
        </Box>
      </Box>
    </Stack>
  );
}
