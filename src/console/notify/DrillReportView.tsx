import { Button, Callout, H3, H5, Intent, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { NO_PROVIDER, type DrillReport } from '../../contract/notifyDrill';
import { downloadFile } from '../../stores/AdminFiles';
import { formatTime } from '../alarms/format';
import { showErrorToast } from '../toaster';
import { ListTable } from '../ListTable';
import { useStores } from '../useStores';
import './notify.css';

/** One drill's report: who did not confirm, then every person and channel with its timings. */
export const DrillReportView = observer(function DrillReportView({
  report,
  onBack,
}: {
  report: DrillReport | null;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const stores = useStores();
  if (!report) return <p>{t('notify.common.loading')}</p>;
  const d = report.drill;
  const at = (iso: string | null, seconds: number | null) =>
    iso === null ? '' : t('notify.drills.after', { time: formatTime(iso), seconds });
  /** A provider's own detail as it said it; "no provider" in the reader's words. */
  const failure = (detail: string) =>
    detail === NO_PROVIDER ? t('notify.drills.noProvider') : t('notify.drills.failed', { detail });
  const exportCsv = async () => {
    try {
      await downloadFile(
        `/api/notify/drill/report.csv?id=${d.id}`,
        { token: stores.session.token, locale: stores.ui.language },
        `alarm-drill-${d.id}.csv`,
      );
    } catch {
      showErrorToast(t('notify.drills.exportFailed'));
    }
  };

  return (
    <div className="roost-notify" data-testid="drill-report">
      <div>
        <Button minimal icon="arrow-left" onClick={onBack}>
          {t('notify.drills.back')}
        </Button>
      </div>
      <H3>{`${t('notify.drills.report')} · ${d.farmName} · ${d.houseName}`}</H3>
      <p className="roost-notify__muted">
        {`${t('notify.drills.when')}: ${formatTime(d.startedAt)} · ${t('notify.drills.by')}: ${d.startedBy} · ${t('notify.drills.confirmed')}: ${d.confirmed} / ${d.people}${d.notDelivered > 0 ? ` · ${t('notify.drills.notDelivered', { count: d.notDelivered })}` : ''}`}
      </p>
      <H5>{t('notify.drills.notConfirmed')}</H5>
      {report.unconfirmed.length === 0 ? (
        <Callout intent={Intent.SUCCESS}>{t('notify.drills.allConfirmed')}</Callout>
      ) : (
        <div data-testid="drill-unconfirmed">
          {report.unconfirmed.map((u) => (
            <Tag key={u.phoneId} large intent={Intent.WARNING} className="roost-notify__tag">
              {`${u.phone} · ${t('notify.drills.level')} ${u.level}`}
            </Tag>
          ))}
        </div>
      )}
      <div>
        <Button icon="download" onClick={() => void exportCsv()} data-testid="drill-csv">
          {t('notify.drills.exportCsv')}
        </Button>
      </div>
      <ListTable
        label={t('notify.drills.report')}
        scrollClassName="roost-notify__scroll"
        testId="drill-receipts"
        headers={[
          t('notify.drills.phone'),
          t('notify.drills.level'),
          t('notify.drills.channel'),
          t('notify.drills.sent'),
          t('notify.drills.delivered'),
          t('notify.drills.acknowledged'),
          t('notify.drills.comment'),
        ]}
      >
        {report.receipts.map((r) => (
          <tr key={`${r.phoneId}-${r.channel}`}>
            <td>{r.phone}</td>
            <td>{r.level}</td>
            <td>{t(`notify.common.channel.${r.channel}`)}</td>
            <td>
              {r.sentAt
                ? at(r.sentAt, r.sentSeconds)
                : r.failedDetail && (
                    <Tag minimal intent={Intent.DANGER}>
                      {failure(r.failedDetail)}
                    </Tag>
                  )}
            </td>
            <td className={r.deliveredAt ? undefined : 'roost-notify__muted'}>
              {r.deliveredAt
                ? at(r.deliveredAt, r.deliveredSeconds)
                : r.sentAt && r.failedDetail
                  ? failure(r.failedDetail)
                  : r.sentAt && t('notify.drills.notReported')}
            </td>
            <td>{at(r.acknowledgedAt, r.ackSeconds)}</td>
            <td>{r.ackComment}</td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
});
