import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config';

describe('the operations tokens in the environment', () => {
  it('are off unless set, and must be long printable secrets', () => {
    expect(readConfig({})).toMatchObject({ metricsToken: null, backupToken: null });
    expect(
      readConfig({
        ROOST_METRICS_TOKEN: 'prometheus-scrape-0123',
        ROOST_BACKUP_TOKEN: 'backup-secret-0123456',
      }),
    ).toMatchObject({
      metricsToken: 'prometheus-scrape-0123',
      backupToken: 'backup-secret-0123456',
    });
    expect(() => readConfig({ ROOST_METRICS_TOKEN: 'short' })).toThrow(
      new ConfigError('ROOST_METRICS_TOKEN must have at least 16 characters'),
    );
    expect(() => readConfig({ ROOST_BACKUP_TOKEN: 'has a space in the middle' })).toThrow(
      new ConfigError('ROOST_BACKUP_TOKEN must be printable ASCII without spaces'),
    );
  });
});
