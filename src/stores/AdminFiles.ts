import { type Locale } from '../contract/envelope';

/** What a raw download or upload needs beyond the JSON client: the token and the language. */
export interface FileAuth {
  token: string | undefined;
  locale: Locale;
}

function headersOf(auth: FileAuth): Record<string, string> {
  const headers: Record<string, string> = { Locale: auth.locale, Source: 'computer' };
  if (auth.token) headers['Authorization'] = `Bearer ${auth.token}`;
  return headers;
}

async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { msg?: unknown };
    return typeof body.msg === 'string' ? body.msg : response.statusText;
  } catch {
    return response.statusText;
  }
}

/** GETs a file (an export) and hands it to the browser as a download. */
export async function downloadFile(
  url: string,
  auth: FileAuth,
  fallbackName: string,
): Promise<void> {
  const response = await fetch(url, { headers: headersOf(auth), credentials: 'include' });
  if (!response.ok) throw new Error(await messageOf(response));
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** POSTs one file as multipart/form-data; throws the server's message on refusal. */
export async function uploadFile(url: string, auth: FileAuth, file: File): Promise<void> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetch(url, {
    method: 'POST',
    headers: headersOf(auth),
    credentials: 'include',
    body: form,
  });
  if (!response.ok) throw new Error(await messageOf(response));
}
