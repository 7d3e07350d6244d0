import { Intent } from '@blueprintjs/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type Query } from '../../api/client';
import { EXPORT_WARN_ROWS, type ExportFormat } from '../../contract/houses';
import { NOTIFICATION_MS, showErrorToast, showToast } from '../toaster';
import { useStores } from '../useStores';
import { downloadExport, ExportError } from './housesApi';

/**
 * Starts an export download with the product's messages: a warning above 15,000 rows ('Too much
 * data to export please wait'), 'No data has been found' for an empty table, 'File export
 * failed' otherwise.
 */
export function useExport(): (
  path: string,
  estimatedRows: number,
  query: Query & { format: ExportFormat },
) => Promise<void> {
  const { session, ui } = useStores();
  const { t } = useTranslation();
  return useCallback(
    async (path, estimatedRows, query) => {
      if (estimatedRows > EXPORT_WARN_ROWS)
        showToast({
          message: t('houses.export.tooMuch'),
          intent: Intent.WARNING,
          timeoutMs: NOTIFICATION_MS,
        });
      try {
        await downloadExport(path, query, { token: session.token, locale: ui.language });
      } catch (error) {
        if (error instanceof ExportError && error.status === 404 && error.message)
          showErrorToast(t('houses.export.noData'));
        else if (error instanceof ExportError && error.status < 500 && error.message)
          showErrorToast(error.message);
        else showErrorToast(t('houses.export.failed'));
      }
    },
    [session, ui, t],
  );
}
