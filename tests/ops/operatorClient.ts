import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * What an operator does to a running server from outside it, for the backup tests: run the
 * operators' scripts and call the API over HTTP.
 */

/** Runs one of the operators' scripts as `npm run backup|restore` does (through tsx). */
export function runScript(script: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** One API call; throws with the server's message when it is refused. */
export async function api<T>(
  base: string,
  token: string | null,
  method: string,
  url: string,
  body?: unknown,
) {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await res.json()) as { data: T; msg: string };
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${envelope.msg}`);
  return envelope.data;
}

/** Signs in (the demo's administrator unless told otherwise) and answers the token. */
export const signIn = async (base: string, username = 'admin', password = DEMO_PASSWORD) =>
  (await api<{ token: string }>(base, null, 'POST', '/login', { username, password })).token;
