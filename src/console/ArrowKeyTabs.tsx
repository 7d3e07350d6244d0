import { Tab, Tabs } from '@blueprintjs/core';
import { type ReactElement, type KeyboardEvent, useEffect, useRef, useState } from 'react';

export interface ArrowKeyTabsProps<Id extends string> {
  id: string;
  tabs: ReadonlyArray<{ id: Id; title: string; panel: ReactElement }>;
}

/**
 * Tabs a keyboard user can walk: only the chosen tab takes Tab focus (as Blueprint renders
 * it), and the Left and Right arrows choose the previous or next tab and move focus to it, as
 * tab lists do elsewhere. Blueprint's own tabs left the keyboard on the first one.
 */
export function ArrowKeyTabs<Id extends string>({ id, tabs }: ArrowKeyTabsProps<Id>) {
  const [chosen, setChosen] = useState<Id>(tabs[0]!.id);
  const box = useRef<HTMLDivElement>(null);
  /** Set by an arrow key: the tab chosen by it takes focus once it is rendered as focusable. */
  const focusChosen = useRef(false);
  useEffect(() => {
    if (!focusChosen.current) return;
    focusChosen.current = false;
    box.current?.querySelector<HTMLElement>(`[role="tab"][data-tab-id="${chosen}"]`)?.focus();
  }, [chosen]);
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0 || (event.target as HTMLElement).getAttribute('role') !== 'tab') return;
    event.preventDefault();
    const index = tabs.findIndex((tab) => tab.id === chosen);
    const next = tabs[(index + step + tabs.length) % tabs.length]!.id;
    focusChosen.current = true;
    setChosen(next);
  };
  return (
    <div ref={box} onKeyDown={onKeyDown}>
      <Tabs
        id={id}
        selectedTabId={chosen}
        onChange={(next) => setChosen(next as Id)}
        renderActiveTabPanelOnly
      >
        {tabs.map((tab) => (
          <Tab key={tab.id} id={tab.id} title={tab.title} panel={tab.panel} />
        ))}
      </Tabs>
    </div>
  );
}
