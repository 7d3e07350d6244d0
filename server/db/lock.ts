import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { StartError } from '../startError';

/**
 * PGlite takes no lock of its own and two processes on one folder corrupt it:
 * a lock file with our pid makes the second process fail fast. A lock left by a dead process
 * is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'roost.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8') === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new StartError(
          `Another Roost process (pid ${pid}) is using DATA_DIR ${dataDir}: stop it, or give this one its own DATA_DIR.`,
        );
      }
      unlinkSync(lockPath);
    }
  }
  throw new StartError(
    `Could not take the lock ${lockPath}: remove it if no Roost process is running.`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
