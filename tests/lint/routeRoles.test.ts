import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Who may call a route is said once, in its options (`config.roles`), where the session hook
 * checks it and the API description reads it. A handler that refuses by role itself would say
 * it a second time, unseen by both: route modules hold no role comparison and no role refusal.
 * What a role may do with particular data (which roles a user may assign, whether a manager's
 * organisation is the one asked for) is scope, kept in the feature's access module.
 */
const root = path.resolve(import.meta.dirname, '../..');

function routeFiles(): string[] {
  return fs
    .readdirSync(path.join(root, 'server'), { recursive: true, encoding: 'utf8' })
    .map((name) => path.posix.join('server', name.split(path.sep).join('/')))
    .filter((file) => /(^|\/)routes(\/.*)?\.ts$|\/routes\.ts$|Routes\.ts$/.test(file))
    .filter((file) => file.endsWith('.ts'))
    .sort();
}

/** The caller's role read in a handler (`user`, `actor`, `viewer` are the names the session user goes by). */
const ROLE_CHECK = [
  /\b(user|actor|viewer)\.roleKey\s*[!=]==/,
  /[!=]==\s*[\w.()]*\b(user|actor|viewer)\.roleKey\b/,
  /\.includes\([^)]*\b(user|actor|viewer)\.roleKey\)/,
];

/** The lines of a source that check a role, with their numbers. */
export function roleChecksIn(source: string): string[] {
  return source
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*'))
    .filter(({ line }) => ROLE_CHECK.some((pattern) => pattern.test(line)))
    .map(({ line, n }) => `${n}: ${line}`);
}

describe('roles are declared in route options, not checked in handlers', () => {
  it('finds a role check where one is written', () => {
    expect(
      roleChecksIn(
        "if (user.roleKey !== 'administrator') throw new ApiError(403, 'auth.forbidden');",
      ),
    ).toHaveLength(1);
    expect(roleChecksIn("config: { roles: ['administrator'] },")).toEqual([]);
    // The role of the user being created is data, not the caller's role.
    expect(roleChecksIn("if (input.roleKey === 'company_manager') {")).toEqual([]);
    expect(roleChecksIn('roleKey: user.roleKey,')).toEqual([]);
    expect(roleChecksIn("if (!['administrator'].includes(user.roleKey)) throw x;")).toHaveLength(1);
  });

  it('no route module compares roles or refuses by role', () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((file) =>
      roleChecksIn(fs.readFileSync(path.join(root, file), 'utf8')).map((l) => `${file}:${l}`),
    );
    expect(found).toEqual([]);
  });
});
