/**
 * The default layout's own styles, one stylesheet written once: the layout renders on every signed-in page and is
 * part of the first screen, where styles computed per render (`sx`) cost the main thread its first paint. Its
 * elements take these classes; MUI components keep their own styles, and a rule that changes one of their
 * properties is scoped under the layout's root (two classes), so it wins over the component's (one class).
 */

import GlobalStyles from '@mui/material/GlobalStyles';
import type { Theme } from '@mui/material/styles';
import { memo } from 'react';
import { SIDEBAR_WIDTH } from '../theme/theme';

export const layoutClasses = {
  root: 'om-layout',
  skipLink: 'om-skip-link',
  appBar: 'om-app-bar',
  toolbar: 'om-toolbar',
  homeLink: 'om-home-link',
  title: 'om-page-title',
  avatarButton: 'om-avatar-button',
  avatar: 'om-avatar',
  sidebar: 'om-sidebar',
  sidebarPaper: 'om-sidebar-paper',
  drawerPaper: 'om-drawer-paper',
  drawerHeader: 'om-drawer-header',
  drawerBrand: 'om-drawer-brand',
  drawerClose: 'om-drawer-close',
  brand: 'om-brand',
  brandName: 'om-brand-name',
  main: 'om-main',
  content: 'om-content',
  /** A list's data grid (ListGrid's box): a list page holding one fills the window (`fillsWindow` below). */
  listGrid: 'om-list-grid',
} as const;

const c = layoutClasses;

/**
 * A list page whose list is a data grid fills the window: the page does not scroll, the grid's own scroller does, so
 * the grid renders only the rows in view (not a whole page of 100) and its footer (the pager, "Displaying 1 to 100
 * of ...") stays in view. Each element from the content box down to the grid's box is a column that may shrink
 * (`min-height: 0`); the grid is as tall as its rows when they fit. On a window too short for that the page scrolls
 * and the grid is as tall as its rows, as before.
 */
const fill = `.${c.root}:has(.list-page .${c.listGrid})`;
const shrinkingColumn = { display: 'flex', flexDirection: 'column', flex: '0 1 auto', minHeight: 0 } as const;
const fillsWindow = {
  '@media (min-height: 480px)': {
    [fill]: { height: '100dvh', minHeight: 0 },
    [`${fill} .${c.content}`]: { display: 'flex', flexDirection: 'column', minHeight: 0 },
    [`${fill} .${c.content} :has(.${c.listGrid}), ${fill} .${c.listGrid}`]: shrinkingColumn,
  },
};

const styles = (theme: Theme) => {
  const desktop = theme.breakpoints.up('md');
  return {
    [`.${c.root}`]: { display: 'flex', minHeight: '100vh', backgroundColor: theme.palette.background.default },
    [`.${c.skipLink}`]: {
      position: 'fixed',
      top: 8,
      left: 8,
      zIndex: theme.zIndex.tooltip + 1,
      padding: theme.spacing(1, 2),
      borderRadius: theme.shape.borderRadius,
      backgroundColor: theme.palette.background.paper,
      color: theme.palette.primary.main,
      fontWeight: 600,
      boxShadow: theme.shadows[3],
      transform: 'translateY(-200%)',
      '&:focus': { transform: 'none' },
    },
    [`.${c.root} .${c.appBar}`]: {
      borderBottom: `1px solid ${theme.palette.divider}`,
      [desktop]: { width: `calc(100% - ${SIDEBAR_WIDTH}px)`, marginLeft: SIDEBAR_WIDTH },
    },
    [`.${c.root} .${c.toolbar}`]: { gap: theme.spacing(1) },
    [`.${c.homeLink}`]: { display: 'flex', alignItems: 'center' },
    [`.${c.homeLink} img`]: { width: 28, height: 28 },
    // react-admin's TitlePortal: a page's <Title> renders into the element with this id.
    [`.${c.root} .${c.title}`]: {
      ...theme.typography.h6,
      margin: 0,
      color: 'inherit',
      flex: '1',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
      overflow: 'hidden',
      fontSize: '1.1rem',
      fontWeight: 600,
    },
    [`.${c.root} .${c.avatarButton}`]: { padding: theme.spacing(0.5) },
    [`.${c.root} .${c.avatar}`]: {
      width: 36,
      height: 36,
      backgroundColor: theme.palette.secondary.main,
      fontSize: '0.95rem',
      fontWeight: 600,
    },
    [`.${c.sidebar}`]: { width: SIDEBAR_WIDTH, flexShrink: 0 },
    [`.${c.sidebarPaper}`]: { width: SIDEBAR_WIDTH, boxSizing: 'border-box', display: 'flex', flexDirection: 'column' },
    // The navigation drawer is drawn in a portal, outside the layout's root.
    [`.${c.drawerPaper}`]: { width: 'min(320px, 85vw)', display: 'flex', flexDirection: 'column' },
    [`.${c.drawerHeader}`]: { display: 'flex', alignItems: 'center' },
    [`.${c.drawerBrand}`]: { flex: 1 },
    [`.${c.drawerClose}`]: { marginRight: theme.spacing(1) },
    [`.${c.brand}`]: {
      display: 'flex',
      alignItems: 'center',
      gap: theme.spacing(1.25),
      padding: theme.spacing(2, 2.5),
      textDecoration: 'none',
      color: theme.palette.text.primary,
    },
    [`.${c.brand} img`]: { width: 32, height: 32 },
    [`.${c.brandName}`]: { ...theme.typography.subtitle1, margin: 0, fontWeight: 700, lineHeight: 1.2 },
    [`.${c.main}`]: { outline: 'none', flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
    [`.${c.content}`]: {
      flex: 1,
      padding: theme.spacing(1.5),
      [theme.breakpoints.up('sm')]: { padding: theme.spacing(3) },
    },
    ...fillsWindow,
    // Below `md` react-admin's Create button floats at the bottom right (20 px from the edge, 60 from the bottom), over
    // the grid's footer, which a list filling the window keeps there: the pager moves left of it.
    [theme.breakpoints.down('md')]: {
      [`${fill} .${c.listGrid} .MuiDataGrid-footerContainer`]: { paddingRight: theme.spacing(10) },
    },
  };
};

/** Rendered by the layout; written again only when the theme changes. */
export const LayoutStyles = memo(function LayoutStyles() {
  return <GlobalStyles styles={styles} />;
});
