/**
 * Default app layout (SPEC section 2): left sidebar with the menu from the medium breakpoint up; below it a
 * top bar with a menu button and a left navigation drawer. The header holds the page title (react-admin's
 * title portal, an h1) and the user menu. A skip link comes first, and
 * focus moves to the page's heading after each navigation (docs/accessibility.md).
 */

import CloseIcon from '@mui/icons-material/Close';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import type { Theme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, Suspense, useCallback, useRef, useState } from 'react';
import { Error as RaError, useTranslate } from 'react-admin';
import { ErrorBoundary } from 'react-error-boundary';
import { Link as RouterLink } from 'react-router-dom';
import { FEATURES } from '../app/features';
import { useConfig } from '../app/hooks';
import { FirstPaintMark, useFirstPaintDone } from './firstPaint';
import { ImpersonationBar } from './ImpersonationBar';
import { LoadingScreen } from './LoadingScreen';
import { LayoutStyles, layoutClasses } from './layoutStyles';
import { MenuList } from './MenuList';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink';
import { ScreenMark } from './screenMark';
import { UserMenu } from './UserMenu';
import { useFocusPageHeading } from './useFocusPageHeading';

/** What the features show in the app bar, before the user menu (the offline indicator). */
const TOOLBAR_ITEMS = FEATURES.flatMap((feature) => feature.toolbarItems ?? []);

function Brand({ onNavigate }: { onNavigate?: () => void }) {
  const config = useConfig();
  return (
    <RouterLink to="/" onClick={onNavigate} className={layoutClasses.brand}>
      <img src={config.logo_url || '/logo.svg'} alt="" />
      <span className={layoutClasses.brandName}>{config.name}</span>
    </RouterLink>
  );
}

export default function AppLayout({ children }: { children: ReactNode }) {
  const desktop = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const translate = useTranslate();
  const config = useConfig();
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const main = useRef<HTMLElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  useFocusPageHeading(main, title);
  // The sidebar's entries (about 100 for an administrator) render after the page's first paint; the sidebar keeps
  // its width meanwhile, so nothing moves when they come.
  const menu = useFirstPaintDone();

  return (
    <div className={layoutClasses.root}>
      <LayoutStyles />
      <SkipLink />
      <AppBar position="fixed" color="inherit" elevation={0} className={layoutClasses.appBar}>
        <Toolbar className={layoutClasses.toolbar}>
          {!desktop && (
            <>
              <IconButton
                edge="start"
                onClick={() => setDrawerOpen(true)}
                aria-label={translate('app.menu.open_menu')}
                data-testid="open-drawer"
              >
                <MenuIcon />
              </IconButton>
              <RouterLink to="/" className={layoutClasses.homeLink} aria-label={`${config.name} home`}>
                <img src={config.logo_url || '/logo.svg'} alt="" />
              </RouterLink>
            </>
          )}
          {/* react-admin's TitlePortal, without its per-render styles: a page's <Title> renders into this element. */}
          {/* biome-ignore lint/a11y/useHeadingContent: the page's <Title> portals its text into this heading. */}
          <h1 id="react-admin-title" ref={title} className={layoutClasses.title} />
          {TOOLBAR_ITEMS}
          <UserMenu />
        </Toolbar>
      </AppBar>

      {desktop ? (
        <Drawer
          variant="permanent"
          className={layoutClasses.sidebar}
          slotProps={{ paper: { className: layoutClasses.sidebarPaper, 'data-testid': 'sidebar' } as object }}
        >
          <Brand />
          {menu && <MenuList />}
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          anchor="left"
          open={drawerOpen}
          onClose={closeDrawer}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { className: layoutClasses.drawerPaper, 'data-testid': 'nav-drawer' } as object }}
        >
          <div className={layoutClasses.drawerHeader}>
            <div className={layoutClasses.drawerBrand}>
              <Brand onNavigate={closeDrawer} />
            </div>
            <IconButton
              onClick={closeDrawer}
              aria-label={translate('app.menu.close_menu')}
              className={layoutClasses.drawerClose}
            >
              <CloseIcon />
            </IconButton>
          </div>
          {menu && <MenuList onNavigate={closeDrawer} />}
        </Drawer>
      )}

      <main id={MAIN_CONTENT_ID} ref={main} tabIndex={-1} className={layoutClasses.main}>
        <Toolbar />
        <ImpersonationBar />
        <div className={layoutClasses.content}>
          <ErrorBoundary
            fallbackRender={({ error, resetErrorBoundary }) => (
              <RaError error={error as Error} resetErrorBoundary={resetErrorBoundary} />
            )}
          >
            <Suspense fallback={<LoadingScreen fullHeight={false} />}>
              {children}
              <FirstPaintMark />
              <ScreenMark />
            </Suspense>
          </ErrorBoundary>
        </div>
      </main>
    </div>
  );
}
