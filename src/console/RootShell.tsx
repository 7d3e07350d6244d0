import { Button, Intent, NonIdealState } from '@blueprintjs/core';
import { ErrorIcon, RefreshIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigation, useRouteError } from 'react-router-dom';
import { useBlueprintTexts } from './blueprintTexts';
import { ProgressBar } from './ProgressBar';
import { type RouteHandle } from './routeHandle';
import { useStores } from './useStores';

/** The deepest matched route's table entry. */
function useCurrentHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.route) return handle;
  }
  return undefined;
}

/** The document title is the route's title, then the product title. */
function useDocumentTitle(): void {
  const handle = useCurrentHandle();
  const { t, i18n } = useTranslation();
  const titleKey = handle?.route.titleKey;
  useEffect(() => {
    const product = t('app.title');
    document.title = titleKey ? `${t(`route.${titleKey}`)} - ${product}` : product;
    document.documentElement.lang = i18n.language === 'zh' ? 'zh-CN' : 'en';
  }, [titleKey, t, i18n.language]);
}

/** Every route change starts at the top of the page. */
function useScrollToTop(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
}

/** Above every page: the progress bar, the document title and the scroll reset. */
export const RootShell = observer(function RootShell() {
  const { ui } = useStores();
  const navigation = useNavigation();
  useDocumentTitle();
  useScrollToTop();
  useBlueprintTexts();
  return (
    <>
      <ProgressBar active={navigation.state !== 'idle' || ui.busy} />
      <Suspense fallback={<ProgressBar active />}>
        <Outlet />
      </Suspense>
    </>
  );
});

/** Shown while the first navigation (the guard) runs. */
export function RootFallback() {
  return <ProgressBar active />;
}

/** A page that failed to load (usually its code after a new deployment). */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  return (
    <div className="roost-page roost-page--centered" data-testid="route-error">
      <NonIdealState
        icon={<ErrorIcon size={48} />}
        title={t('errors.title')}
        description={error instanceof Error ? error.message : t('errors.description')}
        action={
          <Button
            intent={Intent.PRIMARY}
            icon={<RefreshIcon />}
            text={t('errors.reload')}
            onClick={() => window.location.reload()}
          />
        }
      />
    </div>
  );
}
