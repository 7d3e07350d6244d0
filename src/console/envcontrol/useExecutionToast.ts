import { useCallback, useEffect, useRef } from 'react';
import { reaction } from 'mobx';
import { useTranslation } from 'react-i18next';
import { type Command } from '../../contract/envcontrol';
import { type EnvControlStore } from '../../stores/EnvControlStore';
import { showSuccessToast } from '../toaster';

/**
 * "Execution succeeded" once a change this console sent reaches the controller:
 * "Send success" only says the server took it; this says the gateway applied it. Other
 * consoles watching the house see the state change but did not send, so they are not told.
 * Answers the function that notes the commands of a send.
 */
export function useExecutionToast(store: EnvControlStore): (commands: readonly Command[]) => void {
  const { t } = useTranslation();
  const waiting = useRef(new Set<string>());
  const tell = useCallback(() => {
    const applied = (store.details?.commands ?? []).filter(
      (c) => c.state === 'applied' && waiting.current.has(c.id),
    );
    for (const command of applied) waiting.current.delete(command.id);
    if (applied.length > 0) showSuccessToast(t('envcontrol.actions.executed'));
  }, [store, t]);
  useEffect(
    () =>
      reaction(
        () => store.details?.commands.map((c) => c.state),
        () => tell(),
      ),
    [store, tell],
  );
  return useCallback(
    (commands) => {
      for (const command of commands) waiting.current.add(command.id);
      // The controller may have answered before the send did (the live event came first).
      tell();
    },
    [tell],
  );
}
