/**
 * Default app layout (SPEC section 2): left sidebar with the menu from the medium breakpoint up; below it a
 * top bar with a menu button and a left navigation drawer. The header holds the page title (react-admin's
 * title portal, an h1) and the user menu. A skip link comes first, and
 * focus moves to the page's heading after each navigation (docs/accessibility.md).
 */
import { Suspense, useRef, useState, type ReactNode } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import CloseIcon from '@mui/icons-material/Close';
import { ErrorBoundary } from 'react-error-boundary';
import { Link as RouterLink } from 'react-router-dom';
import { Error as RaError, TitlePortal, useTranslate } from 'react-admin';
import { useConfig } from '../app/hooks';
import { LoadingScreen } from './LoadingScreen';
import { MenuList } from './MenuList';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink';
import { useFocusPageHeading } from './useFocusPageHeading';
import { UserMenu } from './UserMenu';
import { SIDEBAR_WIDTH } from '../theme/theme';

function Brand({ onNavigate }: { onNavigate?: () => void }) {
  const config = useConfig();
  return (
    <Box component={RouterLink} to="/" onClick={onNavigate} sx={{ display: 'flex', alignItems: 'center', gap: 1.25, px: 2.5, py: 2, textDecoration: 'none', color: 'text.primary' }}>
      <Box component="img" src={config.logo_url || '/logo.svg'} alt="" sx={{ width: 32, height: 32 }} />
      <Typography component="span" variant="subtitle1" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
        {config.name}
      </Typography>
    </Box>
  );
}

export default function AppLayout({ children }: { children: ReactNode }) {
  const desktop = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const translate = useTranslate();
  const config = useConfig();
  const closeDrawer = () => setDrawerOpen(false);
  const main = useRef<HTMLElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  useFocusPageHeading(main, title);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipLink />
      <AppBar position="fixed" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', width: { md: `calc(100% - ${SIDEBAR_WIDTH}px)` }, ml: { md: `${SIDEBAR_WIDTH}px` } }}>
        <Toolbar sx={{ gap: 1 }}>
          {!desktop && (
            <>
              <IconButton edge="start" onClick={() => setDrawerOpen(true)} aria-label={translate('app.menu.open_menu')} data-testid="open-drawer">
                <MenuIcon />
              </IconButton>
              <Box component={RouterLink} to="/" sx={{ display: 'flex', alignItems: 'center' }} aria-label={`${config.name} home`}>
                <Box component="img" src={config.logo_url || '/logo.svg'} alt="" sx={{ width: 28, height: 28 }} />
              </Box>
            </>
          )}
          <TitlePortal component="h1" ref={title} sx={{ fontSize: '1.1rem', fontWeight: 600 }} />
          <UserMenu />
        </Toolbar>
      </AppBar>

      {desktop ? (
        <Drawer
          variant="permanent"
          sx={{ width: SIDEBAR_WIDTH, flexShrink: 0 }}
          slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH, boxSizing: 'border-box', display: 'flex', flexDirection: 'column' }, 'data-testid': 'sidebar' } as object }}
        >
          <Brand />
          <MenuList />
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          anchor="left"
          open={drawerOpen}
          onClose={closeDrawer}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { sx: { width: 'min(320px, 85vw)', display: 'flex', flexDirection: 'column' }, 'data-testid': 'nav-drawer' } as object }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center' }}>
            <Box sx={{ flex: 1 }}>
              <Brand onNavigate={closeDrawer} />
            </Box>
            <IconButton onClick={closeDrawer} aria-label={translate('app.menu.close_menu')} sx={{ mr: 1 }}>
              <CloseIcon />
            </IconButton>
          </Box>
          <MenuList onNavigate={closeDrawer} />
        </Drawer>
      )}

      <Box component="main" id={MAIN_CONTENT_ID} ref={main} tabIndex={-1} sx={{ outline: 'none',  flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Box sx={{ flex: 1, p: { xs: 1.5, sm: 3 } }}>
          <ErrorBoundary fallbackRender={({ error, resetErrorBoundary }) => <RaError error={error as Error} resetErrorBoundary={resetErrorBoundary} />}>
            <Suspense fallback={<LoadingScreen fullHeight={false} />}>{children}</Suspense>
          </ErrorBoundary>
        </Box>
      </Box>
    </Box>
  );
}
