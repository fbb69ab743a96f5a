/** Header user menu: an avatar with the person's initials; Profile and Sign Out. */

import ProfileIcon from '@mui/icons-material/AccountCircleOutlined';
import SignOutIcon from '@mui/icons-material/LogoutOutlined';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useLogout, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useSession } from '../app/hooks';
import { initials } from './initials';
import { layoutClasses } from './layoutStyles';
import { useLeaveImpersonation } from './useLeaveImpersonation';

export function UserMenu() {
  const { user } = useSession();
  const leaveImpersonation = useLeaveImpersonation();
  const translate = useTranslate();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!user) return null;
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title={translate('app.menu.user_menu')}>
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={translate('app.menu.user_menu')}
          aria-haspopup="menu"
          data-testid="user-menu-button"
          className={layoutClasses.avatarButton}
        >
          <Avatar className={layoutClasses.avatar} data-testid="user-avatar">
            {initials(user.first_name, user.last_name, user.name)}
          </Avatar>
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1 }}>
          {user.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {user.email}
        </Typography>
        <Divider />
        {user.impersonator && (
          <MenuItem
            onClick={() => {
              close();
              void leaveImpersonation();
            }}
            data-testid="leave-impersonation"
          >
            <ListItemIcon>
              <SignOutIcon fontSize="small" />
            </ListItemIcon>
            Back to {user.impersonator.name}
          </MenuItem>
        )}
        <MenuItem component={RouterLink} to="/settings" onClick={close}>
          <ListItemIcon>
            <ProfileIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.menu.profile')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            void logout();
          }}
        >
          <ListItemIcon>
            <SignOutIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.menu.sign_out')}
        </MenuItem>
      </Menu>
    </>
  );
}
