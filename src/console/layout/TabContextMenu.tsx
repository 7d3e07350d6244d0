import { Classes, Menu, MenuItem } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type TabView } from '../../stores/TabsStore';

/** The tab context menu is 105 px wide. */
export const CONTEXT_MENU_WIDTH_PX = 105;

export type TabAction = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

export interface TabContextMenuProps {
  /** The tab it was opened on. */
  view: TabView;
  /** Where the pointer was, in viewport pixels. */
  left: number;
  top: number;
  onAction: (action: TabAction, view: TabView) => void;
  onClose: () => void;
}

/** Refresh, close, close others, close all, at the pointer. */
export function TabContextMenu({ view, left, top, onAction, onClose }: TabContextMenuProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const handlePointer = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('mousedown', handlePointer);
    document.addEventListener('keydown', handleKey);
    window.addEventListener('resize', onClose);
    window.addEventListener('scroll', onClose, true);
    return () => {
      document.removeEventListener('mousedown', handlePointer);
      document.removeEventListener('keydown', handleKey);
      window.removeEventListener('resize', onClose);
      window.removeEventListener('scroll', onClose, true);
    };
  }, [onClose]);
  // Keep the menu inside the window.
  const x = Math.min(left, window.innerWidth - CONTEXT_MENU_WIDTH_PX - 4);
  const act = (action: TabAction) => () => {
    onClose();
    onAction(action, view);
  };
  return (
    <div
      ref={ref}
      className={`roost-context-menu ${Classes.ELEVATION_3}`}
      style={{ left: x, top }}
      data-testid="tab-context-menu"
    >
      <Menu small>
        <MenuItem text={t('tabs.refresh')} data-testid="tab-refresh" onClick={act('refresh')} />
        {!view.affix && (
          <MenuItem text={t('tabs.close')} data-testid="tab-close" onClick={act('close')} />
        )}
        <MenuItem
          text={t('tabs.closeOthers')}
          data-testid="tab-close-others"
          onClick={act('closeOthers')}
        />
        <MenuItem text={t('tabs.closeAll')} data-testid="tab-close-all" onClick={act('closeAll')} />
      </Menu>
    </div>
  );
}
