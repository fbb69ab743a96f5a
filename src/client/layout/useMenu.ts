import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { useMainData, useSession } from '../app/hooks';
import { buildMenu, type MenuModel } from './menuModel';

export function useMenu(): MenuModel {
  const { user } = useSession();
  const { features, schemas, statistics } = useMainData();
  const translate = useTranslate();
  return useMemo(
    () =>
      buildMenu({ user, features, schemas, statistics, translate: (key, fallback) => translate(key, { _: fallback }) }),
    [user, features, schemas, statistics, translate],
  );
}
