import {
  Button,
  Callout,
  Card,
  Checkbox,
  FormGroup,
  H3,
  H5,
  Intent,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_SEVERITIES, type AlarmSeverity } from '../../contract/alarms';
import { PREF_CHANNELS, type NotifyPrefsInput, type PrefChannel } from '../../contract/notifyPrefs';
import { PrefsStore } from '../../stores/NotifyStores';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';
import './notify.css';
import { TimeInput } from '../forms/TimeInput';

const toggle = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? [...new Set([...list, item])] : list.filter((x) => x !== item);

/**
 * /alarm/preferences: each user's own choices for the alarm phone entries carrying their mobile:
 * farms, severities, channels, and quiet hours that let only critical alarms through.
 */
export const PrefsPage = observer(function PrefsPage() {
  const { t } = useTranslation();
  const { api } = useStores();
  const [store] = useState(() => new PrefsStore(api));
  const [draft, setDraft] = useState<NotifyPrefsInput | null>(null);
  const [quietOn, setQuietOn] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void store
      .load()
      .then(() => {
        const p = store.mine!.prefs;
        setDraft({ ...p });
        setQuietOn(p.quietStart !== null);
      })
      .catch(() => undefined);
  }, [store]);
  const mine = store.mine;
  if (!mine || !draft) return <p>{t('notify.common.loading')}</p>;
  const farmIds = draft.farmIds ?? null;

  const save = async () => {
    setBusy(true);
    try {
      await store.save({
        ...draft,
        quietStart: quietOn ? (draft.quietStart ?? '22:00') : null,
        quietEnd: quietOn ? (draft.quietEnd ?? '06:00') : null,
      });
      showSuccessToast(t('notify.common.saved'));
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="roost-notify" data-testid="prefs-page">
      <H3>{t('notify.prefs.title')}</H3>
      {mine.mobile ? (
        <p className="roost-notify__muted" data-testid="prefs-intro">
          {t('notify.prefs.intro', { mobile: mine.mobile, count: mine.entries })}
        </p>
      ) : (
        <Callout intent={Intent.WARNING}>{t('notify.prefs.noMobile')}</Callout>
      )}
      {!mine.saved && <Callout>{t('notify.prefs.defaults')}</Callout>}
      <Card compact>
        <H5>{t('notify.prefs.farms')}</H5>
        <RadioGroup
          selectedValue={farmIds === null ? 'all' : 'some'}
          onChange={(e) =>
            setDraft({
              ...draft,
              farmIds: e.currentTarget.value === 'all' ? null : mine.farms.map((f) => f.id),
            })
          }
        >
          <Radio value="all" label={t('notify.prefs.allFarms')} />
          <Radio value="some" label={t('notify.prefs.someFarms')} />
        </RadioGroup>
        {farmIds !== null && (
          <div className="roost-notify__checks">
            {mine.farms.map((f) => (
              <Checkbox
                key={f.id}
                label={f.name}
                checked={farmIds.includes(f.id)}
                onChange={(e) =>
                  setDraft({ ...draft, farmIds: toggle(farmIds, f.id, e.currentTarget.checked) })
                }
              />
            ))}
          </div>
        )}
      </Card>
      <Card compact>
        <H5>{t('notify.prefs.severities')}</H5>
        <div className="roost-notify__checks">
          {ALARM_SEVERITIES.map((s: AlarmSeverity) => (
            <Checkbox
              key={s}
              label={t(`notify.ack.severity.${s}`)}
              checked={draft.severities.includes(s)}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  severities: toggle(draft.severities, s, e.currentTarget.checked),
                })
              }
            />
          ))}
        </div>
        <H5>{t('notify.prefs.channels')}</H5>
        <div className="roost-notify__checks">
          {PREF_CHANNELS.map((c: PrefChannel) => (
            <Checkbox
              key={c}
              label={t(`notify.common.channel.${c}`)}
              checked={draft.channels.includes(c)}
              onChange={(e) =>
                setDraft({ ...draft, channels: toggle(draft.channels, c, e.currentTarget.checked) })
              }
            />
          ))}
        </div>
      </Card>
      <Card compact>
        <H5>{t('notify.prefs.quiet')}</H5>
        <p className="roost-notify__muted">{t('notify.prefs.quietHelp')}</p>
        <Checkbox
          label={t('notify.prefs.quietOn')}
          checked={quietOn}
          onChange={(e) => setQuietOn(e.currentTarget.checked)}
          data-testid="prefs-quiet"
        />
        {quietOn && (
          <div className="roost-notify__form">
            <FormGroup label={t('notify.prefs.from')} labelFor="quiet-from">
              <TimeInput
                id="quiet-from"
                value={draft.quietStart ?? '22:00'}
                onChange={(quietStart) => setDraft({ ...draft, quietStart })}
              />
            </FormGroup>
            <FormGroup label={t('notify.prefs.to')} labelFor="quiet-to">
              <TimeInput
                id="quiet-to"
                value={draft.quietEnd ?? '06:00'}
                onChange={(quietEnd) => setDraft({ ...draft, quietEnd })}
              />
            </FormGroup>
          </div>
        )}
      </Card>
      <div>
        <Button
          intent={Intent.PRIMARY}
          loading={busy}
          onClick={() => void save()}
          data-testid="prefs-save"
        >
          {t('notify.common.save')}
        </Button>
      </div>
    </div>
  );
});
