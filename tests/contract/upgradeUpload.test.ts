import { describe, expect, it } from 'vitest';
import { UPGRADE_FILE_MAX_BYTES, upgradeUploadProblem } from '../../src/contract/upgrade';

describe('an upgrade upload checked before it is sent', () => {
  const ok = { name: 'IEC12_2_9_0', size: 300_000 };

  it('passes a file the server would store', () => {
    expect(upgradeUploadProblem(ok, '2.9.0', [25])).toBeNull();
  });

  it('refuses what the server refuses, in the order it checks: version, types, name, size', () => {
    expect(upgradeUploadProblem({ name: 'fw.bin', size: 0 }, '', [])).toEqual({
      key: 'versionMissing',
    });
    expect(upgradeUploadProblem(ok, '2.9 beta', [25])).toEqual({ key: 'versionInvalid' });
    expect(upgradeUploadProblem(ok, '2.9.0', [])).toEqual({ key: 'typeMissing' });
    expect(upgradeUploadProblem({ name: 'a/b', size: 1 }, '2.9.0', [25])).toEqual({
      key: 'fileNameInvalid',
    });
    expect(upgradeUploadProblem({ name: 'fw.tar.gz', size: 1 }, '2.9.0', [25])).toEqual({
      key: 'fileSuffix',
      name: 'fw.tar.gz',
      bare: 'fw',
    });
    expect(upgradeUploadProblem({ name: 'fw', size: 0 }, '2.9.0', [25])).toEqual({
      key: 'fileEmpty',
    });
    expect(
      upgradeUploadProblem({ name: 'fw', size: UPGRADE_FILE_MAX_BYTES + 1 }, '2.9.0', [25]),
    ).toEqual({ key: 'fileTooLarge' });
    expect(
      upgradeUploadProblem({ name: 'fw', size: UPGRADE_FILE_MAX_BYTES }, '2.9.0', [25]),
    ).toBeNull();
  });
});
