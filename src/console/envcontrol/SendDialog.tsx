import { useState } from 'react';
import {
  Button,
  Checkbox,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLTable,
  Intent,
} from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type EnvControlStore } from '../../stores/EnvControlStore';
import { paramValue } from './format';

export interface SendDialogProps {
  store: EnvControlStore;
  /** Other houses of the same farm the change may go to as well. */
  farmHouses: ReadonlyArray<{ houseId: number; houseName: string }>;
  farmName: string;
  onClose(): void;
  onSend(alsoTo: number[]): void;
}

/** The diff preview before "send configuration": what changes, and where else it goes. */
export const SendDialog = observer(function SendDialog(props: SendDialogProps) {
  const { store, farmHouses, farmName, onClose, onSend } = props;
  const { t, i18n } = useTranslation();
  const language = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const [alsoTo, setAlsoTo] = useState<number[]>([]);
  const toggle = (id: number) =>
    setAlsoTo((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
  const all = farmHouses.length > 0 && alsoTo.length === farmHouses.length;
  return (
    <Dialog
      isOpen
      title={t('envcontrol.diff.title')}
      onClose={onClose}
      data-testid="envcontrol-send-dialog"
    >
      <DialogBody>
        <p>{t('envcontrol.diff.intro')}</p>
        <HTMLTable
          compact
          striped
          className="roost-envcontrol__table"
          data-testid="envcontrol-diff"
        >
          <thead>
            <tr>
              <th>{t('envcontrol.diff.parameter')}</th>
              <th>{t('envcontrol.diff.from')}</th>
              <th>{t('envcontrol.diff.to')}</th>
            </tr>
          </thead>
          <tbody>
            {store.diff.map((d) => (
              <tr key={d.spec.key}>
                <td>{d.spec.label[language]}</td>
                <td>{paramValue(d.spec.key, d.from)}</td>
                <td>
                  <strong>{paramValue(d.spec.key, d.to)}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        {farmHouses.length > 0 && (
          <div style={{ marginTop: 12 }}>
            <strong>{t('envcontrol.diff.alsoTo')}</strong>
            <Checkbox
              checked={all}
              label={t('envcontrol.diff.wholeFarm', { farm: farmName })}
              onChange={() => setAlsoTo(all ? [] : farmHouses.map((h) => h.houseId))}
              data-testid="envcontrol-whole-farm"
            />
            <div className={Classes.TEXT_MUTED}>
              {farmHouses.map((h) => (
                <Checkbox
                  key={h.houseId}
                  inline
                  checked={alsoTo.includes(h.houseId)}
                  label={h.houseName}
                  onChange={() => toggle(h.houseId)}
                />
              ))}
            </div>
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('envcontrol.actions.cancel')}</Button>
            <Button
              intent={Intent.PRIMARY}
              onClick={() => onSend(alsoTo)}
              data-testid="envcontrol-confirm"
            >
              {t('envcontrol.actions.confirm')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
});
