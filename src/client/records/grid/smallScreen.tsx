/**
 * Below 600 px (the theme's `sm`) a list is a card list, not a grid: the cards page with react-admin's pagination,
 * the grid with its own footer.
 */

import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ListPagination } from '../ListRefused';
import { PER_PAGE_CHOICES } from './gridQuery';

export const useSmallScreen = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });

export function SmallScreenPagination() {
  return useSmallScreen() ? <ListPagination rowsPerPageOptions={PER_PAGE_CHOICES} /> : null;
}
