import { beforeEach } from 'vitest';
import { record, startRecord } from '../e2e/flightRecorder';

// Each browser test starts a record of what its pages did, printed only if the test fails.
beforeEach(({ task, onTestFailed }) => {
  startRecord();
  onTestFailed(() => {
    if (record().length > 0)
      console.error(`What the pages did in "${task.name}":\n${record().join('\n')}`);
  });
});
