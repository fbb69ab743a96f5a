import { useMemo } from 'react';
import { useGetList, useTranslate } from 'react-admin';
import { can } from '../../common/permissions';
import { FEATURES } from '../app/features';
import { useMainData, useSession } from '../app/hooks';
import { buildMenu, type MenuModel, type MenuView } from './menuModel';

const NO_VIEWS: MenuView[] = [];
const FEATURE_ITEMS = FEATURES.flatMap((feature) => (feature.menuItems ? [feature.menuItems] : []));

export function useMenu(): MenuModel {
  const { user } = useSession();
  const { features, schemas, statistics } = useMainData();
  const translate = useTranslate();
  // The saved views the person reads, under their types; a change of one refetches them (realtime: type `view`).
  const { data: views = NO_VIEWS } = useGetList<MenuView & { id: number }>(
    'views',
    { pagination: { page: 1, perPage: 200 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: can(user, 'view:read') },
  );
  return useMemo(
    () =>
      buildMenu({
        user,
        views,
        features,
        schemas,
        statistics,
        translate: (key, fallback) => translate(key, { _: fallback }),
        featureItems: FEATURE_ITEMS,
      }),
    [user, views, features, schemas, statistics, translate],
  );
}
