/** "Also here": the other people who have this record open right now (show and edit pages). */

import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import Avatar from '@mui/material/Avatar';
import AvatarGroup from '@mui/material/AvatarGroup';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { initials } from '../../layout/initials';
import { usePresence } from './usePresence';

export function PresenceAvatars({ type, id }: { type: string; id: string | number }) {
  const others = usePresence(type, id);
  if (!others.length) return null;
  const names = others.map((member) => member.name).join(', ');
  const label = others.length === 1 ? `${names} is also viewing` : `${names} are also viewing`;
  return (
    <Tooltip title={label}>
      <Chip
        data-testid="presence"
        variant="outlined"
        color="warning"
        icon={<VisibilityIcon />}
        aria-label={label}
        label={
          <>
            <AvatarGroup max={4} sx={{ '& .MuiAvatar-root': { width: 22, height: 22, fontSize: 11 } }}>
              {others.map((member) => (
                <Avatar key={member.id} alt={member.name}>
                  {initials(null, null, member.name)}
                </Avatar>
              ))}
            </AvatarGroup>
            <span>
              {others.length === 1 ? `${others[0]!.name} is here too` : `${others.length} others are here too`}
            </span>
          </>
        }
        sx={{ height: 32, '& .MuiChip-label': { display: 'flex', alignItems: 'center', gap: 1 } }}
      />
    </Tooltip>
  );
}
