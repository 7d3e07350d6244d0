import { useState } from 'react';
import { Alert, Button, Callout, Classes, Intent } from '@blueprintjs/core';
import { LinkIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { type EnrolCode } from '../../../contract/enrol';
import { formatDateTime } from '../../../i18n/dates';
import { quietly } from './notify';

export interface EnrolCodeButtonProps {
  gatewayId: number;
  /** The house's name: the edge's config names the house by it. */
  houseName: string;
  make(gatewayId: number): Promise<EnrolCode>;
}

/**
 * "Enrolment code" for a house's gateway: asks the server for a single-use, short-lived code
 * and shows it once with the command that trades it on the edge's box for the gateway's
 * credentials, so nobody has to copy a device token by hand.
 */
export function EnrolCodeButton({ gatewayId, houseName, make }: EnrolCodeButtonProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState<EnrolCode | null>(null);
  const ask = async () => {
    const result = await quietly(() => make(gatewayId));
    if (result) setCode(result);
  };
  // The name is quoted for the shell the person types it into.
  const command = code
    ? `npm run edge -- enroll ${code.code} --server ${window.location.origin} --house '${houseName.replace(/'/g, `'\\''`)}' --config edge.json`
    : '';
  return (
    <>
      <Button
        icon={<LinkIcon />}
        aria-label={t('edge.enrol.action')}
        title={t('edge.enrol.action')}
        onClick={() => void ask()}
      />
      <Alert
        isOpen={code !== null}
        confirmButtonText={t('admin.common.close')}
        onConfirm={() => setCode(null)}
      >
        <h4 className={Classes.HEADING}>
          {t('edge.enrol.title', { networkId: code?.networkId ?? '' })}
        </h4>
        <Callout intent={Intent.WARNING}>
          {t('edge.enrol.once', {
            expires: code ? formatDateTime(new Date(code.expiresAt)) : '',
          })}
        </Callout>
        <p className="roost-admin__token" data-testid="enrol-code">
          {code?.code}
        </p>
        <p>{t('edge.enrol.typeThis')}</p>
        <pre className="roost-admin__token" data-testid="enrol-command">
          {command}
        </pre>
        <p className={Classes.TEXT_MUTED}>{t('edge.enrol.newToken')}</p>
      </Alert>
    </>
  );
}
