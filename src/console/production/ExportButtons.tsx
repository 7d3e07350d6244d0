import { Button, ButtonGroup } from '@blueprintjs/core';
import { DownloadIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../stores/AdminFiles';
import { notifyError } from '../system/parts/notify';
import { useStores } from '../useStores';

type Format = 'csv' | 'xlsx';

/**
 * CSV and XLSX of what the page shows, made by the server (`path` is its export URL without the
 * format): the spreadsheet library stays out of the console's bundle.
 */
export function ExportButtons({ path, name }: { path: string | null; name: string }) {
  const { t } = useTranslation();
  const { session, ui } = useStores();
  const [busy, setBusy] = useState<Format | null>(null);
  const download = async (format: Format) => {
    if (!path) return;
    setBusy(format);
    try {
      const join = path.includes('?') ? '&' : '?';
      await downloadFile(
        `/api${path}${join}format=${format}`,
        { token: session.token, locale: ui.language },
        `${name}.${format}`,
      );
    } catch (error) {
      notifyError(
        error instanceof Error && error.message ? error : new Error(t('production.export.failed')),
      );
    } finally {
      setBusy(null);
    }
  };
  return (
    <ButtonGroup className="roost-production__export">
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          icon={<DownloadIcon />}
          disabled={!path}
          loading={busy === format}
          onClick={() => void download(format)}
        >
          {t(`production.export.${format}`)}
        </Button>
      ))}
    </ButtonGroup>
  );
}
