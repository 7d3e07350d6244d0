import { useEffect, useState } from 'react';
import {
  Button,
  Card,
  Classes,
  FormGroup,
  H5,
  HTMLTable,
  InputGroup,
  Intent,
  Switch,
} from '@blueprintjs/core';
import { FloppyDiskIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import {
  EARLY_WARNINGS,
  WARNING_LIMIT_FIELD,
  WARNING_LIMIT_RANGE,
  WARNING_LIMIT_UNIT,
} from '../../contract/earlyWarnings';
import { WarningLimitsStore, type WarningTarget } from '../../stores/WarningLimitsStore';
import { showSuccessToast } from '../toaster';
import { useConfirmSave } from '../useConfirmSave';
import { useStores } from '../useStores';

export interface WarningLimitsCardProps {
  target: WarningTarget;
  /** The name the save question names (the breed, the house). */
  name: string;
  /** Shown without inputs: a common breed, a user without the operation permission. */
  readOnly: boolean;
}

/**
 * The early warnings of a breed (System > Poultry) or a house's override (Daily Business >
 * Flocks): each warning's switch and limit, an empty limit inheriting, saved after a question.
 */
export const WarningLimitsCard = observer(function WarningLimitsCard({
  target,
  name,
  readOnly,
}: WarningLimitsCardProps) {
  const { t } = useTranslation();
  const { api } = useStores();
  const confirmSave = useConfirmSave();
  const key = target.kind === 'breed' ? target.breedId : target.houseId;
  const [store, setStore] = useState(() => new WarningLimitsStore(api, target));
  useEffect(() => {
    const next = new WarningLimitsStore(api, target);
    setStore(next);
    void next.load().catch(() => undefined);
    // The target's id decides; a new object with the same id must not reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, target.kind, key]);

  const save = async () => {
    try {
      await store.save();
    } catch {
      return;
    }
    showSuccessToast(t('production.warnings.saved'));
  };
  const hint =
    target.kind === 'breed'
      ? t('production.warnings.breedHint')
      : store.breedName
        ? t('production.warnings.houseHint', { breed: store.breedName })
        : t('production.warnings.houseHintDefault');

  return (
    <Card compact className="roost-production__month" data-testid="warning-limits">
      {confirmSave.dialog}
      <H5>{t('production.warnings.title')}</H5>
      <p className={Classes.TEXT_MUTED}>{hint}</p>
      {store.loaded && (
        <HTMLTable compact className="roost-production__warnings">
          <thead>
            <tr>
              <th>{t('production.warnings.cause')}</th>
              <th>{t('production.warnings.on')}</th>
              <th>{t('production.warnings.limit')}</th>
            </tr>
          </thead>
          <tbody>
            {EARLY_WARNINGS.map((w) => {
              const field = WARNING_LIMIT_FIELD[w];
              const [min, max] = WARNING_LIMIT_RANGE[field];
              const bad = store.invalid.includes(field);
              const label = t(`production.warnings.field.${field}`);
              return (
                <tr key={w} data-testid={`warning-${w}`}>
                  <td>
                    <div>{t(`alarms.cause.${w}`)}</div>
                    <div className={Classes.TEXT_MUTED}>{label}</div>
                  </td>
                  <td>
                    <Switch
                      checked={store.isOn(w)}
                      disabled={readOnly}
                      aria-label={`${t(`alarms.cause.${w}`)} · ${t('production.warnings.on')}`}
                      onChange={(e) => store.setOn(w, e.currentTarget.checked)}
                    />
                  </td>
                  <td>
                    <FormGroup
                      intent={bad ? Intent.DANGER : Intent.NONE}
                      helperText={bad ? t('production.warnings.invalid', { min, max }) : undefined}
                    >
                      <InputGroup
                        small
                        inputMode="decimal"
                        aria-label={label}
                        data-testid={`limit-${field}`}
                        disabled={readOnly}
                        intent={bad ? Intent.DANGER : Intent.NONE}
                        value={store.text[field]}
                        placeholder={t('production.warnings.inherited', {
                          value: store.inherited[field],
                        })}
                        rightElement={
                          <span className="roost-production__unit">
                            {WARNING_LIMIT_UNIT[field]}
                          </span>
                        }
                        onValueChange={(v) => store.setLimit(field, v)}
                      />
                    </FormGroup>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
      {!readOnly && store.loaded && (
        <div className="roost-production__bar">
          <Button
            intent={Intent.PRIMARY}
            icon={<FloppyDiskIcon />}
            disabled={store.invalid.length > 0}
            data-testid="save-warning-limits"
            onClick={() => confirmSave.ask(() => void save(), name)}
          >
            {t('production.warnings.save')}
          </Button>
          <Button variant="minimal" onClick={() => store.clear()}>
            {t('production.warnings.useInherited')}
          </Button>
        </div>
      )}
    </Card>
  );
});
