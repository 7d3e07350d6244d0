import { createHash } from 'node:crypto';
import type { Scope } from '../auth/scope';

/** A key for a scope: every wall of the same houses shares it. */
export function scopeKey(scope: Scope): string {
  if (scope.all) return 'all';
  const ids = [...scope.houseIds].sort((a, b) => a - b).join(',');
  return createHash('sha1').update(ids).digest('hex');
}

/**
 * One reading per scope for `forMs`: ten walls of one company cost one set of statements, not
 * ten. A failed reading is not shared, so the next wall asks again.
 */
export function sharedPerScope<T>(forMs: number) {
  const shared = new Map<string, { at: number; answer: Promise<T> }>();
  return (scope: Scope, now: Date, read: () => Promise<T>): Promise<T> => {
    const key = scopeKey(scope);
    const hit = shared.get(key);
    if (hit && now.getTime() - hit.at < forMs) return hit.answer;
    const answer = read();
    shared.set(key, { at: now.getTime(), answer });
    answer.catch(() => shared.delete(key));
    for (const [k, v] of shared) if (now.getTime() - v.at >= forMs) shared.delete(k);
    return answer;
  };
}
