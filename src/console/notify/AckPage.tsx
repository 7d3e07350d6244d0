import { Button, Callout, Card, H2, Intent, Tag, TextArea } from '@blueprintjs/core';
import './ack.css';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { AckLinkStore } from '../../stores/AckLinkStore';
import { measure } from '../../i18n/numbers';
import { formatTime } from '../alarms/format';
import { useStores } from '../useStores';

const SEVERITY_INTENT = {
  critical: Intent.DANGER,
  major: Intent.WARNING,
  minor: Intent.PRIMARY,
} as const;

/**
 * The page a signed acknowledge link opens, on a phone, without signing in: what the alarm is,
 * and one button that acknowledges it (with an optional comment).
 */
export const AckPage = observer(function AckPage() {
  const { t } = useTranslation();
  const { api } = useStores();
  const { token = '' } = useParams();
  const [store] = useState(() => new AckLinkStore(api, token));
  const [comment, setComment] = useState('');
  useEffect(() => {
    void store.load();
  }, [store]);
  const a = store.alarm;

  return (
    <main className="roost-ack" data-testid="ack-page">
      <Card className="roost-ack-card" elevation={2}>
        {store.refusal && (
          <Callout intent={Intent.DANGER} title={t('notify.ack.refused')} data-testid="ack-refused">
            {store.refusal}
          </Callout>
        )}
        {!a && !store.refusal && <p>{t('notify.ack.loading')}</p>}
        {a && (
          <>
            {a.drill && (
              <Callout intent={Intent.PRIMARY} data-testid="ack-drill">
                {t('notify.ack.drill')}
              </Callout>
            )}
            <Tag large intent={SEVERITY_INTENT[a.severity]}>
              {t(`notify.ack.severity.${a.severity}`)}
            </Tag>
            <H2 className="roost-ack-cause">{t(`alarms.cause.${a.cause}`)}</H2>
            <p className="roost-ack-place">
              {a.farmName} / {a.houseName}
            </p>
            {a.value !== null && (
              <p>
                {a.limit === null
                  ? measure(a.value, a.unit)
                  : t('notify.ack.value', {
                      value: measure(a.value, a.unit),
                      limit: measure(a.limit, a.unit),
                    })}
              </p>
            )}
            {a.text && <p>{a.text}</p>}
            <p>{t('notify.ack.raisedAt', { time: formatTime(a.raisedAt) })}</p>
            {a.state === 'active' && (
              <>
                <label className="roost-ack-label" htmlFor="ack-comment">
                  {t('notify.ack.comment')}
                </label>
                <TextArea
                  id="ack-comment"
                  fill
                  maxLength={200}
                  value={comment}
                  placeholder={t('notify.ack.commentPlaceholder')}
                  onChange={(e) => setComment(e.target.value)}
                />
                <Button
                  className="roost-ack-button"
                  intent={Intent.PRIMARY}
                  size="large"
                  fill
                  loading={store.busy}
                  onClick={() => void store.acknowledge(comment)}
                  text={a.drill ? t('notify.ack.confirmDrill') : t('notify.ack.acknowledge')}
                />
              </>
            )}
            {a.state === 'acknowledged' && (
              <Callout intent={Intent.SUCCESS} data-testid="ack-done">
                {a.drill
                  ? t('notify.ack.drillConfirmed', { time: formatTime(a.acknowledgedAt) })
                  : t('notify.ack.acknowledged', {
                      who: a.acknowledgedBy ?? '',
                      time: formatTime(a.acknowledgedAt),
                    })}
                {a.ackComment && <p className="roost-ack-comment">“{a.ackComment}”</p>}
              </Callout>
            )}
            {a.state === 'cleared' && <Callout>{t('notify.ack.cleared')}</Callout>}
            <p className="roost-ack-expires">
              {t('notify.ack.expires', { time: formatTime(a.expiresAt) })}
            </p>
          </>
        )}
      </Card>
    </main>
  );
});
