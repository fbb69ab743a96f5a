/** Renders the menu model (menuModel.ts) for both the desktop sidebar and the mobile drawer. */

import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { memo, type ReactNode, useMemo, useState } from 'react';
import { useLogout, useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { FEATURES } from '../app/features';
import { MENU_ICONS } from './menuIcons';
import { activeKeys, type MenuItem } from './menuModel';
import { useMenu } from './useMenu';

/** A menu entry's action, as the feature that owns it registered it (app/features.ts). */
function menuAction(action: string | undefined) {
  for (const feature of FEATURES) {
    const run = action ? feature.menuActions?.[action] : undefined;
    if (run) return run();
  }
}

function sameItem(a: MenuItem, b: MenuItem): boolean {
  if (a === b) return true;
  const children = a.children ?? [];
  return (
    a.key === b.key &&
    a.label === b.label &&
    a.to === b.to &&
    a.icon === b.icon &&
    a.badge === b.badge &&
    a.action === b.action &&
    children.length === (b.children ?? []).length &&
    (a.children === undefined) === (b.children === undefined) &&
    children.every((child, index) => sameItem(child, b.children![index]))
  );
}

interface EntryProps {
  item: MenuItem;
  depth: number;
  onNavigate?: () => void;
  /** The active entries' keys (`activeKeys`). */
  active: string;
}

/**
 * One menu entry as a list item (`<li>`), so each list holds only items (WCAG 1.3.1). The model is built again
 * whenever the statistics, features or schemas load (several times while the first page loads): an entry whose
 * item did not change keeps its rendering, so only a changed badge or label renders again.
 */
const Entry = memo(
  function Entry(props: EntryProps) {
    return (
      <ListItem disablePadding sx={{ display: 'block' }}>
        <EntryControl {...props} />
      </ListItem>
    );
  },
  (previous, next) =>
    previous.depth === next.depth &&
    previous.onNavigate === next.onNavigate &&
    previous.active === next.active &&
    sameItem(previous.item, next.item),
);

/** An entry that is not a route: sign out, or open the assistant's panel over the page. */
function ActionControl({
  item,
  onNavigate,
  sx,
  children,
}: {
  item: MenuItem;
  onNavigate?: () => void;
  sx: object;
  children: ReactNode;
}) {
  // Only here: react-admin's logout reads the location, and each entry reading it rendered again at every URL change.
  const logout = useLogout();
  const run = item.action === 'signOut' ? () => void logout() : () => menuAction(item.action);
  return (
    <ListItemButton
      sx={sx}
      data-menu-key={item.key}
      onClick={() => {
        onNavigate?.();
        run();
      }}
    >
      {children}
    </ListItemButton>
  );
}

function EntryControl({ item, depth, onNavigate, active: activeList }: EntryProps) {
  const activeSet = useMemo(() => new Set(activeList.split('\n')), [activeList]);
  const childActive = item.children?.some((child) => activeSet.has(child.key)) ?? false;
  const [open, setOpen] = useState(childActive);
  const Icon = MENU_ICONS[item.icon];
  const icon = (
    <ListItemIcon sx={{ minWidth: 40, color: 'inherit' }}>
      <Icon fontSize="small" />
    </ListItemIcon>
  );
  const itemSx = { pl: 2 + depth * 2, borderRadius: 1, mx: 1, mb: 0.25 };
  const count =
    item.badge !== undefined ? (
      <Box
        component="span"
        data-testid={`menu-count-${item.key}`}
        aria-label={`${item.badge} ${item.label}`}
        sx={{
          ml: 1,
          minWidth: 24,
          px: 0.75,
          borderRadius: 12,
          textAlign: 'center',
          fontSize: '0.75rem',
          fontWeight: 600,
          lineHeight: '20px',
          bgcolor: item.badge > 0 ? 'secondary.main' : 'action.hover',
          color: item.badge > 0 ? 'secondary.contrastText' : 'text.secondary',
        }}
      >
        {item.badge > 99 ? '99+' : item.badge}
      </Box>
    ) : null;

  if (item.children) {
    return (
      <>
        <ListItemButton onClick={() => setOpen(!open)} sx={itemSx} aria-expanded={open} data-menu-key={item.key}>
          {icon}
          <ListItemText primary={item.label} />
          {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
        </ListItemButton>
        <Collapse in={open} timeout="auto" unmountOnExit={false}>
          <List disablePadding>
            {item.children.map((child) => (
              <Entry key={child.key} item={child} depth={depth + 1} onNavigate={onNavigate} active={activeList} />
            ))}
          </List>
        </Collapse>
      </>
    );
  }

  if (item.action) {
    return (
      <ActionControl item={item} onNavigate={onNavigate} sx={itemSx}>
        {icon}
        <ListItemText primary={item.label} />
      </ActionControl>
    );
  }

  const active = activeSet.has(item.key);
  return (
    <ListItemButton
      component={RouterLink}
      to={item.to!}
      selected={active}
      aria-current={active ? 'page' : undefined}
      sx={itemSx}
      onClick={onNavigate}
      data-menu-key={item.key}
    >
      {item.icon === 'category' ? <ListItemIcon sx={{ minWidth: 24 }} /> : icon}
      <ListItemText primary={item.label} />
      {count}
    </ListItemButton>
  );
}

export function MenuList({ onNavigate }: { onNavigate?: () => void }) {
  const menu = useMenu();
  const translate = useTranslate();
  const { pathname, search } = useLocation();
  const active = activeKeys([...menu.main, ...menu.admin, ...menu.bottom], pathname, search);
  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
      data-testid="main-menu"
    >
      <Box sx={{ flex: 1, overflowY: 'auto', minHeight: 0 }}>
        <List dense>
          {menu.main.map((item) => (
            <Entry key={item.key} item={item} depth={0} onNavigate={onNavigate} active={active} />
          ))}
        </List>
        {menu.admin.length > 0 && (
          <List
            dense
            subheader={
              <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>
                {translate('app.menu.admin')}
              </ListSubheader>
            }
            data-testid="admin-menu"
          >
            {menu.admin.map((item) => (
              <Entry key={item.key} item={item} depth={0} onNavigate={onNavigate} active={active} />
            ))}
          </List>
        )}
      </Box>
      <Divider />
      <List dense>
        {menu.bottom.map((item) => (
          <Entry key={item.key} item={item} depth={0} onNavigate={onNavigate} active={active} />
        ))}
      </List>
    </Box>
  );
}
